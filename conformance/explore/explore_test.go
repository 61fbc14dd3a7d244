package explore_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/explore"
	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// serve starts the reference mock (a rate limit no run reaches), wrapped by wrap when not nil,
// and returns a client of it and its manifest.
func serve(t *testing.T, wrap func(http.Handler) http.Handler) (*conformance.Client, fixtures.Manifest) {
	t.Helper()
	mock, err := mockserver.New(mockserver.Config{RateLimit: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	var h http.Handler = mock
	if wrap != nil {
		h = wrap(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	ctx := context.Background()
	cfg := conformance.Config{Timeout: 10 * time.Second}
	c, err := conformance.NewClient(ctx, srv.URL, cfg)
	if err != nil {
		t.Fatal(err)
	}
	m, err := conformance.LoadManifest(ctx, cfg, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	return c, m.Manifest
}

// TestReferencePasses runs a small fixed-seed explore run against the reference mock: every
// property holds.
func TestReferencePasses(t *testing.T) {
	c, m := serve(t, nil)
	res, err := explore.Run(context.Background(), c, m, explore.Options{Cases: 60, Seed: 20261122})
	if err != nil {
		t.Fatal(err)
	}
	if res.Failure != nil {
		t.Fatalf("the reference breaks a property:\n%s", res.Failure.Report())
	}
	t.Logf("%d cases, %d calls in %s (%.0f cases/s)", res.Cases, res.Calls, res.Elapsed, float64(res.Cases)/res.Elapsed.Seconds())
}
