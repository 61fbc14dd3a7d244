package proxy_test

import (
	"bufio"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/proxy"
)

// An upstream answering a status below 100 ("099", which Go's transport reads) gets the client
// the 502 of UP-1, not a panic that drops the connection.
func TestUpstreamStatusBelow100IsA502(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				if _, err := http.ReadRequest(bufio.NewReader(c)); err != nil {
					return
				}
				_, _ = c.Write([]byte("HTTP/1.1 099 X\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"))
			}()
		}
	}()
	u, _ := url.Parse("http://" + ln.Addr().String())
	p, err := proxy.New(proxy.Config{Upstream: u})
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(p)
	defer front.Close()
	res, err := http.Post(front.URL+"/services/operations/v1/operations/tags/list", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatalf("the client got no answer: %v", err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusBadGateway || res.Header.Get(proxy.HeaderViolations) != "UP-1" {
		t.Errorf("status 099 from the upstream: the client got %d with %q, want 502 with UP-1", res.StatusCode, res.Header.Get(proxy.HeaderViolations))
	}
}
