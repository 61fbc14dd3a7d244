package conformance_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// The manifest of a mock guarded by --admin-token is read with CONFORMANCE_ADMIN_TOKEN; without
// it the suite stops at start with a clear error.
func TestLoadManifestFromAGuardedMock(t *testing.T) {
	h, err := mockserver.New(mockserver.Config{AdminToken: "s3cret"})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx := context.Background()

	if _, err := conformance.LoadManifest(ctx, conformance.Config{}, srv.URL); err == nil {
		t.Fatal("manifest loaded from a guarded mock without the admin token")
	}
	m, err := conformance.LoadManifest(ctx, conformance.Config{AdminToken: "s3cret"}, srv.URL)
	if err != nil {
		t.Fatalf("load manifest with the admin token: %v", err)
	}
	if !strings.Contains(m.Users.Member.Email, "@") {
		t.Errorf("member e-mail %q", m.Users.Member.Email)
	}
}

// CONFORMANCE_ADMIN_TOKEN reaches the config.
func TestLoadConfigReadsTheAdminToken(t *testing.T) {
	cfg, err := conformance.LoadConfig(func(k string) string {
		if k == conformance.EnvAdminToken {
			return "tok"
		}
		return ""
	})
	if err != nil || cfg.AdminToken != "tok" {
		t.Fatalf("LoadConfig: %+v, %v", cfg, err)
	}
}
