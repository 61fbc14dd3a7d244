package proxy

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// Over TLS too, the proxy's transport drops the headers an answer's "Connection: X, close"
// names, and keeps the others (D140).
func TestTapTransportOverTLS(t *testing.T) {
	up := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Connection", "X-Hop-One, X-Hop-Two, close")
		w.Header().Set("X-Hop-One", "1")
		w.Header().Set("X-Hop-Two", "2")
		w.Header().Set("X-Kept", "kept")
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(up.Close)
	base := http.DefaultTransport.(*http.Transport).Clone()
	base.TLSClientConfig = up.Client().Transport.(*http.Transport).TLSClientConfig.Clone()
	tr := newTapTransport(base)
	for range 2 {
		req, _ := http.NewRequest(http.MethodGet, up.URL+"/x", nil)
		res, err := tr.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.Header.Get("X-Hop-One") != "" || res.Header.Get("X-Hop-Two") != "" || res.Header.Get("X-Kept") != "kept" {
			t.Errorf("headers after the transport: %v", res.Header)
		}
	}
}
