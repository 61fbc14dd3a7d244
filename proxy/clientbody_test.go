package proxy_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// A request whose body the client sends malformed (a chunk size that is no number) or cuts off
// never reaches the upstream whole, through no fault of the upstream's: the client gets 400 in
// shape (a) saying so, and the deployment is charged no violation (not UP-1), whether the
// request names an operation or passes through unchecked.
func TestBrokenRequestBodyIsNotTheDeploymentsViolation(t *testing.T) {
	s := startProxy(t, newMock(t))
	host := strings.TrimPrefix(s.url, "http://")
	for _, path := range []string{pTagsList, "/not/an/operation"} {
		c, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: %s\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\nConnection: close\r\n\r\nzz\r\n{}\r\n0\r\n\r\n", path, host)
		res, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		c.Close()
		if res.StatusCode != http.StatusBadRequest || res.Header.Get("X-Contract-Violations") != "" || !strings.Contains(string(body), "could not read the request's body (its chunked transfer encoding is broken)") {
			t.Errorf("%s with a malformed chunk: %d %q %s, want 400 saying the body could not be read, no violation", path, res.StatusCode, res.Header.Get("X-Contract-Violations"), body)
		}
	}
	for _, ex := range s.proxy.Exchanges(0) {
		if len(ex.Violations) > 0 {
			t.Errorf("exchange %s %s charged with %v", ex.Method, ex.Path, ex.Violations)
		}
	}
	if r := s.proxy.Report(); r.DeploymentViolations != 0 {
		t.Errorf("the report counts %d deployment violations, want none", r.DeploymentViolations)
	}
}

// A client that cuts its request body off and goes away is journalled as the client's fault
// (400, the body could not be read), not as a 502 from the upstream: nobody is answered, but
// the journal is what a reader goes by.
func TestCutRequestBodyIsJournalledAsTheClients(t *testing.T) {
	s := startProxy(t, newMock(t))
	host := strings.TrimPrefix(s.url, "http://")
	c, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"name\":", pTagsList, host)
	time.Sleep(100 * time.Millisecond)
	c.Close()
	deadline := time.Now().Add(5 * time.Second)
	for len(s.proxy.Exchanges(0)) == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	exs := s.proxy.Exchanges(0)
	if len(exs) != 1 {
		t.Fatalf("%d exchanges journalled, want the cut one", len(exs))
	}
	if ex := exs[0]; ex.Status != http.StatusBadRequest || len(ex.Violations) > 0 {
		t.Errorf("the cut request is journalled as %d with %v, want 400 and no violation", ex.Status, ex.Violations)
	}
}

// A client that half-closes its connection after part of a body it announced by Content-Length
// gets 400 saying its body did not reach the upstream whole, not a 502: its own doing.
func TestHalfClosedBodyIsTheClients(t *testing.T) {
	s := startProxy(t, newMock(t))
	host := strings.TrimPrefix(s.url, "http://")
	for range 5 { // the read's error and the connection's end race: each way must say the same
		c, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{\"name\":", pTagsList, host)
		time.Sleep(50 * time.Millisecond)
		_ = c.(*net.TCPConn).CloseWrite()
		res, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		c.Close()
		if res.StatusCode != http.StatusBadRequest || res.Header.Get("X-Contract-Violations") != "" {
			t.Errorf("a half-closed body: %d %q %s, want 400 and no violation", res.StatusCode, res.Header.Get("X-Contract-Violations"), body)
		}
	}
}

// A request with Expect: 100-continue gets one 100 Continue, the proxy's, then the answer: the
// upstream's own 100 is not passed on as well.
func TestOneContinueForExpect(t *testing.T) {
	s := startProxy(t, newMock(t))
	host := strings.TrimPrefix(s.url, "http://")
	c, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 2\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n", pTagsList, host)
	time.Sleep(200 * time.Millisecond)
	_, _ = c.Write([]byte("{}"))
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	all, _ := io.ReadAll(c)
	if n := strings.Count(string(all), "100 Continue"); n != 1 {
		t.Errorf("%d interim 100 Continue answers, want 1:\n%.300s", n, all)
	}
}
