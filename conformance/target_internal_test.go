package conformance

import (
	"context"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// A deployment whose certificate the suite does not trust is named as such, with the way to
// trust a private authority, not as a deployment that does not answer.
func TestPingNamesAnUntrustedCertificate(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.NotFoundHandler())
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	t.Cleanup(srv.Close)
	err := Target{BaseURL: srv.URL}.Ping(context.Background(), 5*time.Second)
	if err == nil || !strings.Contains(err.Error(), "does not trust the certificate") || !strings.Contains(err.Error(), "SSL_CERT_FILE") {
		t.Errorf("Ping of a deployment with a self-signed certificate: %v; want it named untrusted, with SSL_CERT_FILE", err)
	}
	if err != nil && strings.Contains(err.Error(), "x509") {
		t.Errorf("Ping of a deployment with a self-signed certificate: %v; want the reason in our words, not the x509 package's", err)
	}
}
