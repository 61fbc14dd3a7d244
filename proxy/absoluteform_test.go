package proxy_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/proxy"
)

// seenRequest is what an upstream got of one request.
type seenRequest struct{ method, target, host, body string }

// recordingUpstream answers every request as a deployment answers tags/list (its window
// counting down), and keeps what it got.
func recordingUpstream(t *testing.T) (*url.URL, func() []seenRequest) {
	t.Helper()
	var mu sync.Mutex
	var seen []seenRequest
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		seen = append(seen, seenRequest{r.Method, r.RequestURI, r.Host, string(body)})
		remaining := 60 - len(seen)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-RateLimit-Limit", "60")
		w.Header().Set("X-RateLimit-Remaining", strconv.Itoa(remaining))
		_, _ = io.WriteString(w, `{"error":false,"message":"ok","data":{"tags":[]}}`)
	}))
	t.Cleanup(up.Close)
	u, _ := url.Parse(up.URL)
	return u, func() []seenRequest {
		mu.Lock()
		defer mu.Unlock()
		return append([]seenRequest(nil), seen...)
	}
}

// sendRaw writes a POST of {} with target in its request line and host in its Host header to
// the server at addr, as a client that speaks HTTP by hand does, and reads the answer.
func sendRaw(t *testing.T, addr, target, host string) (*http.Response, string) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(30 * time.Second))
	_, err = io.WriteString(c, "POST "+target+" HTTP/1.1\r\nHost: "+host+"\r\nContent-Type: application/json\r\n"+
		"Authorization: Bearer t\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("%s: no answer: %v", target, err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	return res, string(body)
}

// A request whose target is in absolute form (RFC 9112 3.2.2, which a server must accept) and
// names the proxy's own address, or a name of --allowed-hosts, is served as the same request in
// origin form: forwarded to the upstream with the path alone, judged, answered alike.
func TestAbsoluteFormTargetOfTheProxyIsServed(t *testing.T) {
	up, seen := recordingUpstream(t)
	p, err := proxy.New(proxy.Config{Upstream: up, AllowedHosts: []string{"proxy.internal"}})
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(p)
	defer front.Close()
	addr := strings.TrimPrefix(front.URL, "http://")
	want, wantBody := sendRaw(t, addr, pTagsList, addr)
	_, port, _ := net.SplitHostPort(addr)
	for _, authority := range []string{addr, "proxy.internal:" + port, "LOCALHOST"} {
		target := "http://" + authority + pTagsList
		res, body := sendRaw(t, addr, target, authority)
		if res.StatusCode != want.StatusCode || body != wantBody || res.Header.Get(proxy.HeaderViolations) != want.Header.Get(proxy.HeaderViolations) {
			t.Errorf("POST %s: %d %q %s, want the origin form's %d %q %s", target, res.StatusCode,
				res.Header.Get(proxy.HeaderViolations), body, want.StatusCode, want.Header.Get(proxy.HeaderViolations), wantBody)
		}
	}
	got := seen()
	if len(got) != 4 {
		t.Fatalf("the upstream got %d requests, want 4: %+v", len(got), got)
	}
	for _, r := range got {
		if r != got[0] || r.target != pTagsList || r.host != up.Host || r.body != "{}" {
			t.Errorf("the upstream got %+v, want %+v: the path alone, under its own Host", r, seenRequest{"POST", pTagsList, up.Host, "{}"})
		}
	}
	for _, ex := range p.Exchanges(10) {
		if ex.Path != pTagsList || ex.Operation == "" {
			t.Errorf("journal: %s of operation %q, want the path alone, judged as tags/list", ex.Path, ex.Operation)
		}
	}
}

// A target in absolute form that names another host asks the proxy to fetch from that host, as
// a forward proxy would: refused, saying so, whatever the Host header says, and nothing reaches
// the upstream (nor the host named).
func TestAbsoluteFormTargetOfAnotherHostIsRefused(t *testing.T) {
	up, seen := recordingUpstream(t)
	p, err := proxy.New(proxy.Config{Upstream: up})
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(p)
	defer front.Close()
	addr := strings.TrimPrefix(front.URL, "http://")
	for _, target := range []string{
		"http://rebind.attacker.net" + pTagsList,
		"http://staging.example.com.evil.net:8080" + pTagsList,
		"https://api.github.com/__proxy/exchanges",
		"ftp://127.0.0.1/__proxy/exchanges",
	} {
		res, body := sendRaw(t, addr, target, addr)
		if res.StatusCode != http.StatusForbidden || !strings.Contains(body, "forward proxy") || !strings.Contains(body, `"error":true`) {
			t.Errorf("POST %s: %d %s, want 403 saying the proxy is not a forward proxy", target, res.StatusCode, body)
		}
		if strings.Contains(body, "D140") || strings.Contains(body, "D221") {
			t.Errorf("POST %s: the message names a decision id: %s", target, body)
		}
	}
	if got := seen(); len(got) != 0 {
		t.Errorf("the upstream got %+v", got)
	}
}
