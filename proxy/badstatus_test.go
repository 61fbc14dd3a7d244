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
	u := rawUpstream(t, []byte("HTTP/1.1 099 X\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"))
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

// A client's malformed request trailer is not the upstream's failure: trailers are not
// forwarded, so the exchange goes through and no UP-1 is reported.
func TestClientTrailerIsNotBlamedOnTheUpstream(t *testing.T) {
	s := startProxy(t, tagsAnswer(nil))
	c, err := net.Dial("tcp", strings.TrimPrefix(s.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, _ = c.Write([]byte("POST /services/operations/v1/operations/tags/list HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n2\r\n{}\r\n0\r\nContent-Length: 50\r\n\r\n"))
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode == http.StatusBadGateway || strings.Contains(res.Header.Get(proxy.HeaderViolations), "UP-1") {
		t.Errorf("a client's Content-Length trailer: %d %q, want the upstream's answer and no UP-1", res.StatusCode, res.Header.Get(proxy.HeaderViolations))
	}
}

// An operation's request asking to switch protocols is forwarded without the Upgrade: the
// exchange stays one the proxy sees and judges, never a tunnel.
func TestOperationIsNeverATunnel(t *testing.T) {
	var upgrade string
	s := startProxy(t, tagsAnswer(func(r *http.Request) { upgrade = r.Header.Get("Upgrade") }))
	req, _ := http.NewRequest(http.MethodPost, s.url+"/services/operations/v1/operations/tags/list", strings.NewReader("{}"))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Connection", "Upgrade")
	req.Header.Set("Upgrade", "websocket")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if upgrade != "" || res.StatusCode == http.StatusSwitchingProtocols {
		t.Errorf("the upstream saw Upgrade %q; the client got %d", upgrade, res.StatusCode)
	}
}

// tagsAnswer is an upstream answering every request with an empty tags/list success, after
// seen (when set) has looked at the request.
func tagsAnswer(seen func(*http.Request)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if seen != nil {
			seen(r)
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"error":false,"message":"ok","data":{"tags":[]}}`))
	})
}

// An upstream that switches protocols when nobody asked is one failed exchange: the client gets
// the 502 of UP-1 and the journal holds that exchange once, not a 101 beside it.
func TestUnrequestedSwitchIsOneFailedExchange(t *testing.T) {
	u := rawUpstream(t, []byte("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"))
	p, err := proxy.New(proxy.Config{Upstream: u})
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(p)
	defer front.Close()
	for i, path := range []string{"/services/operations/v1/operations/tags/list", "/elsewhere"} {
		res, err := http.Post(front.URL+path, "application/json", strings.NewReader("{}"))
		if err != nil {
			t.Fatalf("%s: the client got no answer: %v", path, err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusBadGateway {
			t.Errorf("%s: an unrequested 101 answered %d, want 502", path, res.StatusCode)
		}
		if got := len(p.Exchanges(0)); got != i+1 {
			t.Errorf("%s: after %d requests the journal holds %d exchanges", path, i+1, got)
		}
		if ex := p.Exchanges(1); len(ex) == 1 && ex[0].Status != http.StatusBadGateway {
			t.Errorf("%s: the exchange recorded status %d, want 502", path, ex[0].Status)
		}
	}
}

// A switch the client asked for, off the operations, is a tunnel: the bytes go both ways.
func TestRequestedSwitchTunnels(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Upgrade") != "echo" {
			http.Error(w, "want Upgrade: echo", http.StatusBadRequest)
			return
		}
		c, brw, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		defer c.Close()
		_, _ = brw.WriteString("HTTP/1.1 101 Switching Protocols\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n")
		_ = brw.Flush()
		line, _ := brw.ReadString('\n')
		_, _ = brw.WriteString("echo " + line)
		_ = brw.Flush()
	}))
	defer up.Close()
	u, _ := url.Parse(up.URL)
	p, err := proxy.New(proxy.Config{Upstream: u})
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(p)
	defer front.Close()
	c, err := net.Dial("tcp", strings.TrimPrefix(front.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, _ = c.Write([]byte("GET /socket HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n"))
	br := bufio.NewReader(c)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("a requested switch answered %d, want 101", res.StatusCode)
	}
	_, _ = c.Write([]byte("hello\n"))
	if line, _ := br.ReadString('\n'); line != "echo hello\n" {
		t.Errorf("through the tunnel came %q, want %q", line, "echo hello\n")
	}
}
