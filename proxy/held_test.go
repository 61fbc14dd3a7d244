package proxy

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// Past the bytes the proxy may hold for checking at once, an answer streams through with its
// status and headers judged and its body counted unjudged: a burst of large answers to slow
// clients took the proxy to a gigabyte.
func TestAnswersPastTheHeldBoundStreamUnjudged(t *testing.T) {
	p, front := proxyAnswering(t, "not json")
	p.heldAnswers.Store(maxHeldAnswers + 1)
	res, err := http.Post(front.URL+"/services/operations/v1/operations/tags/list", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if v := res.Header.Get(HeaderViolations); v != "" {
		t.Errorf("an answer over the held bound was judged by its body: %q", v)
	}
	if r := p.Report(); r.BodiesUnjudged != 1 {
		t.Errorf("bodies_unjudged %d, want 1", r.BodiesUnjudged)
	}
	if held := p.heldAnswers.Load(); held != maxHeldAnswers+1 {
		t.Errorf("held bytes %d after the exchange, want them back where they were", held)
	}
}

// A client that goes away while a large answer is copied to it gives the held bytes back: they
// stayed counted, and after a few such clients every answer passed unjudged, forever.
func TestHeldBytesComeBackWhenTheClientLeaves(t *testing.T) {
	big := strings.Repeat("x", 4<<20)
	p, front := proxyAnswering(t, `{"error":false,"message":"ok","data":"`+big+`"}`)
	for range 3 {
		res, err := http.Post(front.URL+"/services/operations/v1/operations/tags/list", "application/json", strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 10)
		_, _ = res.Body.Read(buf)
		res.Body.Close() // gone before the answer is read
	}
	deadline := time.Now().Add(5 * time.Second)
	for p.heldAnswers.Load() != 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if held := p.heldAnswers.Load(); held != 0 {
		t.Errorf("%d bytes still held after the clients left", held)
	}
}

// proxyAnswering is a proxy in front of an upstream answering every request with body and the
// rate-limit headers.
func proxyAnswering(t *testing.T, body string) (*Proxy, *httptest.Server) {
	t.Helper()
	return proxyInFront(t, func(w http.ResponseWriter) { _, _ = w.Write([]byte(body)) })
}

// proxyInFront is a proxy in front of an upstream answering every request with the
// rate-limit headers and what answer writes.
func proxyInFront(t *testing.T, answer func(http.ResponseWriter)) (*Proxy, *httptest.Server) {
	t.Helper()
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-RateLimit-Limit", "10")
		w.Header().Set("X-RateLimit-Remaining", "9")
		answer(w)
	}))
	t.Cleanup(up.Close)
	u, _ := url.Parse(up.URL)
	p, err := New(Config{Upstream: u})
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(p)
	t.Cleanup(front.Close)
	return p, front
}

// An answer of unknown length (chunked) holds what it is, not the most an answer may be: the
// proxy reserved 8 MiB for each before reading a byte, so eight small chunked answers in
// flight at once filled the 64 MiB and the next passed unjudged, its note saying the budget
// was full when it held a few kilobytes.
func TestSmallChunkedAnswerIsJudgedWhileTheBudgetHasRoomForIt(t *testing.T) {
	p, front := proxyAnsweringChunked(t, "not json")
	const start = maxHeldAnswers - 1<<20 // room for a megabyte, not for 8 MiB
	p.heldAnswers.Store(start)
	res, err := http.Post(front.URL+"/services/operations/v1/operations/tags/list", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if v := res.Header.Get(HeaderViolations); !strings.Contains(v, "ENV-1") {
		t.Errorf("a small chunked answer that is not JSON, with room to hold it, got verdict %q, want ENV-1", v)
	}
	if r := p.Report(); r.BodiesUnjudged != 0 {
		t.Errorf("bodies_unjudged %d, want 0", r.BodiesUnjudged)
	}
	heldComesBackTo(t, p, start)
}

// A chunked answer larger than the room left streams through whole, with its status and
// headers judged, its body counted unjudged, and a note that says why; the bytes it held come
// back.
func TestChunkedAnswerPastTheRoomLeftStreamsThroughWhole(t *testing.T) {
	big := `{"error":false,"message":"ok","data":"` + strings.Repeat("x", 3<<20) + `"}`
	p, front := proxyAnsweringChunked(t, big)
	const start = maxHeldAnswers - 1<<20
	p.heldAnswers.Store(start)
	res, err := http.Post(front.URL+"/services/operations/v1/operations/tags/list", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil || string(got) != big {
		t.Fatalf("the client read %d bytes (%v), want the %d the upstream sent", len(got), err, len(big))
	}
	if r := p.Report(); r.BodiesUnjudged != 1 {
		t.Errorf("bodies_unjudged %d, want 1", r.BodiesUnjudged)
	}
	heldComesBackTo(t, p, start)
	es := p.Exchanges(1)
	if len(es) != 1 || !strings.Contains(strings.Join(es[0].Notes, " "), "MiB") {
		t.Errorf("journal notes %v, want one saying the held answers' room ran out", es)
	}
}

// proxyAnsweringChunked is proxyAnswering with the answer sent chunked, its length unknown
// until it ends.
func proxyAnsweringChunked(t *testing.T, body string) (*Proxy, *httptest.Server) {
	t.Helper()
	return proxyInFront(t, func(w http.ResponseWriter) {
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		for b := []byte(body); len(b) > 0; {
			n := min(len(b), 64<<10)
			_, _ = w.Write(b[:n])
			b = b[n:]
		}
	})
}

// heldComesBackTo waits for the held answers' bytes to come back to want: they are given back
// once the exchange's handler returns, which may be just after its client read the answer.
func heldComesBackTo(t *testing.T, p *Proxy, want int64) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for p.heldAnswers.Load() != want && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if held := p.heldAnswers.Load(); held != want {
		t.Errorf("held bytes %d after the exchange, want %d", held, want)
	}
}
