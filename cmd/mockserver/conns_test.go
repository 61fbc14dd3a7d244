package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/internal/connlimit"
)

// The mock and the proxy bound the connections they keep open (D220): a client holding more
// idle keep-alive connections than the bound keeps no one out (the idlest give way), and when
// every connection is in the middle of a request a new one gets 503 in shape (a).
func TestConnectionsAreBounded(t *testing.T) {
	old := maxConns
	maxConns = 8
	t.Cleanup(func() { maxConns = old })
	mock, stop := startMock(t)
	defer stop()
	proxyURL, stopProxy := startCmd(t, nil, "proxy", "--upstream", mock, "--addr", "127.0.0.1:0")
	defer stopProxy()
	// A client of its own, with no connection kept: one kept from a request before would be a
	// connection the bound already counts.
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	// The proxy first: its busy connections leave the mock behind it free.
	for _, base := range []string{proxyURL, mock} {
		host := strings.TrimPrefix(base, "http://")
		for range 2 * maxConns { // idle keep-alive connections, twice the bound
			c, err := net.Dial("tcp", host)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			fmt.Fprintf(c, "GET /__mock/clock HTTP/1.1\r\nHost: %s\r\n\r\n", host)
			if res, err := http.ReadResponse(bufio.NewReader(c), nil); err != nil || res.StatusCode != http.StatusOK {
				t.Fatalf("%s: an idle connection's request: %v %v, want 200 (the ones before idle)", base, res, err)
			}
		}
		res, err := client.Get(base + "/__mock/clock")
		if err != nil {
			t.Fatalf("%s: a request past the bound, every other connection idle: %v", base, err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Errorf("%s: a request past the bound, every other connection idle: %d, want 200", base, res.StatusCode)
		}
		// Every connection busy: headers sent, a body announced and not sent (the proxy forwards
		// only once it has read an operation's body; the mock reads every body first).
		for range maxConns {
			c, err := net.Dial("tcp", host)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			fmt.Fprintf(c, "POST /v1/authenticate HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{", host)
			time.Sleep(20 * time.Millisecond) // read, and so busy, before the next arrives
		}
		time.Sleep(300 * time.Millisecond)
		res, err = client.Get(base + "/__mock/clock")
		if err != nil {
			t.Fatalf("%s: a request past the bound, every connection busy: %v", base, err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" || !strings.Contains(string(body), `"error":true`) || !strings.Contains(string(body), "connections open") {
			t.Errorf("%s: a request past the bound, every connection busy: %d %s, want 503 shape (a) with Retry-After", base, res.StatusCode, body)
		}
		// Bodies that have been arriving for a second give way, the slowest first: trickled
		// bodies keep no one out for the read timeout.
		time.Sleep(connlimit.Grace)
		if res, err = client.Get(base + "/__mock/clock"); err != nil || res.StatusCode != http.StatusOK {
			t.Errorf("%s: a request past the bound once the busy connections' bodies had crawled for a second: %v %v, want 200", base, res, err)
		} else {
			res.Body.Close()
		}
	}
}
