package proxy_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/internal/wireerr/wireerrtest"
	"github.com/opsapi/mocktoolkit/proxy"
)

// What net/http answers by itself in front of the proxy — a request line it cannot parse,
// headers past the limit, an unknown transfer coding, an HTTP version it does not speak, two
// Content-Lengths — comes back in shape (a), not as plain text, when the proxy is served on its
// Listener (D79, D183).
func TestProxyTransportErrorsAnswerInTheEnvelope(t *testing.T) {
	up := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(up.Close)
	u, _ := url.Parse(up.URL)
	p, err := proxy.New(proxy.Config{Upstream: u})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(p)
	srv.Config.MaxHeaderBytes = wireerrtest.MaxHeaderBytes
	srv.Listener = p.Listener(srv.Listener)
	srv.Start()
	t.Cleanup(srv.Close)
	wireerrtest.Check(t, strings.TrimPrefix(srv.URL, "http://"))
}
