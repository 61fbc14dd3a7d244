package proxy

import (
	"bytes"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"testing"
	"time"
)

// An upstream that stops reading a request body streamed to it (one past what the proxy reads
// ahead) ends the exchange once a write to it has waited the write timeout: the client held on
// until the upstream closed the connection, for good.
func TestUpstreamThatStopsReadingEndsTheExchange(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		var held []net.Conn
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			_, _ = c.Read(make([]byte, 4096)) // the headers, then nothing more is read
			held = append(held, c)
		}
	}()
	u, _ := url.Parse("http://" + ln.Addr().String())
	p, err := New(Config{Upstream: u})
	if err != nil {
		t.Fatal(err)
	}
	p.rp.Transport.(*tapTransport).writeTimeout.Store(int64(500 * time.Millisecond))
	front := httptest.NewServer(p)
	defer front.Close()
	client := &http.Client{Timeout: 30 * time.Second}
	start := time.Now()
	res, err := client.Post(front.URL+"/upload", "application/octet-stream", bytes.NewReader(make([]byte, 64<<20)))
	if res != nil {
		res.Body.Close()
	}
	var timeout interface{ Timeout() bool }
	if errors.As(err, &timeout) && timeout.Timeout() || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("the client waited %s for an upstream that stopped reading: %v", time.Since(start).Round(time.Second), err)
	}
	if err == nil && res.StatusCode != http.StatusBadGateway {
		t.Errorf("answer %d, want 502 (or the connection closed under the client's body)", res.StatusCode)
	}
}
