package proxy_test

import (
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/proxy"
)

// An https upstream that accepts the connection and never answers the TLS handshake gets the
// client a 502 in bounded time (the transport's handshake timeout), not a wait for good.
func TestSilentTLSUpstreamIs502(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("waits out the TLS handshake timeout (10 s)")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		var held []net.Conn
		for {
			c, err := ln.Accept()
			if err != nil {
				for _, c := range held {
					c.Close()
				}
				return
			}
			held = append(held, c) // accepted, never answered
		}
	}()
	u, _ := url.Parse("https://" + ln.Addr().String())
	p, err := proxy.New(proxy.Config{Upstream: u})
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(p)
	defer front.Close()
	start := time.Now()
	res, err := http.Post(front.URL+pTagsList, "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusBadGateway || time.Since(start) > 30*time.Second {
		t.Errorf("a silent TLS upstream: %d after %s, want 502 within the handshake timeout", res.StatusCode, time.Since(start).Round(time.Second))
	}
}
