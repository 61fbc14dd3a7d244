package proxy_test

import (
	"bufio"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance/rules"
	"github.com/opsapi/mocktoolkit/internal/redact"
	"github.com/opsapi/mocktoolkit/proxy"
)

// serveProxy puts a proxy with its own transport (the one users run) in front of upstream.
func serveProxy(t *testing.T, upstream http.Handler) (*proxy.Proxy, string) {
	t.Helper()
	up := httptest.NewServer(upstream)
	t.Cleanup(up.Close)
	u, _ := url.Parse(up.URL)
	p, err := proxy.New(proxy.Config{Upstream: u})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	return p, srv.URL
}

// A deployment whose answer breaks off mid-body (it promised 1000 bytes and sent 14, then
// closed) has not answered: the exchange carries UP-1, in X-Contract-Violations and in the
// journal, so --fail-on-violation fails on it. The client still gets the same broken transfer.
func TestAnswerBrokenOffIsAViolation(t *testing.T) {
	p, base := serveProxy(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close()
		_, _ = buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n" +
			"X-RateLimit-Limit: 10\r\nX-RateLimit-Remaining: 9\r\n\r\n{\"error\":false")
		_ = buf.Flush()
	}))
	req, _ := http.NewRequest(http.MethodPost, base+"/services/operations/v1/operations/tags/list", strings.NewReader(`{}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer t")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, readErr := io.ReadAll(res.Body)
	res.Body.Close()
	if readErr == nil {
		t.Errorf("the client read a whole body; the upstream's was cut short")
	}
	if got := res.Header.Get(proxy.HeaderViolations); !strings.Contains(got, string(rules.UP1)) {
		t.Errorf("X-Contract-Violations %q, want %s", got, rules.UP1)
	}
	e := p.Exchanges(1)[0]
	if rs := journalRules(e); len(rs) != 1 || rs[0] != string(rules.UP1) || !strings.Contains(e.Violations[0].Detail, "broke off") {
		t.Errorf("journal violations %+v, want UP-1 saying the body broke off", e.Violations)
	}
	if n := p.DeploymentViolations(); n != 1 {
		t.Errorf("%d deployment violations, want 1", n)
	}
}

// Headers of hundreds of kilobytes, from a client or from the upstream, are journalled within
// the same bounds as the mock's journal: each value cut at 1 KiB, 8 KiB in all. The journal of
// 200 such exchanges once held (and answered) 184 MB.
func TestJournalBoundsHeaders(t *testing.T) {
	mock := newMock(t)
	p, base := serveProxy(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Big", strings.Repeat("u", 600<<10))
		mock.ServeHTTP(w, r)
	}))
	req, _ := http.NewRequest(http.MethodPost, base+"/services/operations/v1/operations/tags/list", strings.NewReader(`{}`))
	req.Header.Set("Content-Type", "application/json")
	for _, name := range []string{"X-F1", "X-F2", "X-F3"} {
		req.Header.Set(name, strings.Repeat("a", 250<<10))
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, bufio.NewReader(res.Body))
	res.Body.Close()
	if len(res.Header.Get("X-Big")) != 600<<10 {
		t.Errorf("the client got X-Big of %d bytes, want the upstream's header whole", len(res.Header.Get("X-Big")))
	}
	e := p.Exchanges(1)[0]
	for which, h := range map[string]map[string]string{"request": e.Request.Headers, "answer": e.Response.Headers} {
		total := 0
		for k, v := range h {
			if len(v) > redact.MaxHeaderValue+len("…[cut]") {
				t.Errorf("%s header %s journalled with %d bytes", which, k, len(v))
			}
			total += len(k) + len(v)
		}
		if total > redact.MaxHeaders+200 {
			t.Errorf("%s headers journalled with %d bytes in all", which, total)
		}
	}
	if e.Request.Headers["X-F1"] == "" || e.Response.Headers["X-Big"] == "" {
		t.Errorf("the big headers were dropped instead of cut: %v / %v", len(e.Request.Headers["X-F1"]), len(e.Response.Headers["X-Big"]))
	}
}
