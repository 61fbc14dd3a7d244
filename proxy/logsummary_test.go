package proxy_test

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance/rules"
	"github.com/opsapi/mocktoolkit/proxy"
)

// lockedBuffer is a log destination safe for the proxy's handlers.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startLoggingProxy is startProxy whose proxy logs, as text, to the buffer it returns.
func startLoggingProxy(t *testing.T, upstream http.Handler) (*setup, *lockedBuffer) {
	t.Helper()
	up := httptest.NewServer(upstream)
	t.Cleanup(up.Close)
	u, _ := url.Parse(up.URL)
	logs := &lockedBuffer{}
	p, err := proxy.New(proxy.Config{Upstream: u, Logger: slog.New(slog.NewTextHandler(logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	return &setup{url: srv.URL, upstream: up, proxy: p, client: &http.Client{}}, logs
}

// A client that breaks the same request rule again and again (a conformance suite probing
// validation) gets one WARN line for the rule, saying later ones are only counted; the journal
// still holds every one.
func TestClientViolationsAreSummarisedInTheLog(t *testing.T) {
	s, logs := startLoggingProxy(t, newMock(t))
	token := s.login(t, manifest().Users.Member)
	for range 5 {
		if got := s.post(t, pCommentsList, token, `{"card_id": 1, "per_page": 500}`); got.status != http.StatusUnprocessableEntity {
			t.Fatalf("status %d, want the mock's 422", got.status)
		}
	}
	out := logs.String()
	if n := strings.Count(out, "level=WARN"); n != 1 || !strings.Contains(out, "rule="+string(rules.REQ1)) || !strings.Contains(out, "counted in the report") {
		t.Errorf("%d WARN lines for 5 client violations of one rule, want 1 saying the rest are counted:\n%s", n, out)
	}
	clientCount := 0
	for _, e := range s.proxy.Exchanges(0) {
		for _, v := range e.Violations {
			if v.Party == proxy.Client {
				clientCount++
			}
		}
	}
	if clientCount != 5 {
		t.Errorf("the journal holds %d client violations, want 5", clientCount)
	}
}
