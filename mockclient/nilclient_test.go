package mockclient_test

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/opsapi/mocktoolkit/mockclient"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// WithHTTPClient(nil) means the default client, as leaving the option out does: it panicked.
func TestWithHTTPClientNilIsTheDefault(t *testing.T) {
	m, err := mockserver.New(mockserver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(m)
	defer srv.Close()
	c := mockclient.New(srv.URL, mockclient.WithHTTPClient(nil))
	if _, err := c.Manifest(context.Background()); err != nil {
		t.Fatalf("a call through WithHTTPClient(nil): %v", err)
	}
}
