package proxy

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// An upstream that sends its header and then trickles its body must not hold the client
// without a status: past the proxy's wait the client gets the 502 of UP-1, worded, and the
// exchange is journalled as the deployment's failure.
func TestTricklingAnswerBodyIsA502(t *testing.T) {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		for range 200 { // a byte every 50 ms: ten seconds for a tiny body
			select {
			case <-r.Context().Done():
				return
			case <-time.After(50 * time.Millisecond):
			}
			_, _ = w.Write([]byte(" "))
			w.(http.Flusher).Flush()
		}
	}))
	defer upstream.Close()
	u, _ := url.Parse(upstream.URL)
	p, err := New(Config{Upstream: u})
	if err != nil {
		t.Fatal(err)
	}
	p.bodyTimeout = 300 * time.Millisecond
	front := httptest.NewServer(p)
	defer front.Close()

	var path string
	for path = range p.ops {
		break
	}
	start := time.Now()
	res, err := http.Post(front.URL+path, "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body struct{ Message string }
	_ = json.NewDecoder(res.Body).Decode(&body)
	if res.StatusCode != http.StatusBadGateway || res.Header.Get(HeaderViolations) != "UP-1" {
		t.Errorf("a trickling answer: %d with %s %q, want 502 with UP-1", res.StatusCode, HeaderViolations, res.Header.Get(HeaderViolations))
	}
	if !strings.Contains(body.Message, "did not arrive within 300ms") {
		t.Errorf("message %q does not say the answer body was too slow", body.Message)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the client waited %s for a status", took)
	}
	ex := p.journal.list(10)
	if len(ex) != 1 || ex[0].Status != http.StatusBadGateway || len(ex[0].Violations) != 1 {
		t.Errorf("journal: %+v, want the one exchange as a 502 with its UP-1", ex)
	}
}
