package inflight_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/internal/inflight"
	"github.com/opsapi/mocktoolkit/internal/stalled"
)

// Two bodies received as they arrive that together pass the budget: one waits for room while
// the other is refused and gives its bytes back, so one is received whole (both were refused,
// and refused again when both retried, D65).
func TestArrivingBodiesTakeTurns(t *testing.T) {
	b := inflight.New(100)
	type result struct {
		n   int
		err error
	}
	// receive reads a body of two 40-byte parts, the second sent once next is closed; held is
	// closed once the first part is counted.
	receive := func(next <-chan struct{}, held chan<- struct{}) <-chan result {
		out := make(chan result, 1)
		pr, pw := io.Pipe()
		r := httptest.NewRequest("PUT", "/__mock/state", pr)
		body := b.HoldArriving(r, 1000)
		go func() {
			_, _ = pw.Write([]byte(strings.Repeat("a", 40)))
			<-next
			_, _ = pw.Write([]byte(strings.Repeat("b", 40)))
			pw.Close()
		}()
		go func() {
			buf := make([]byte, 40)
			n, err := io.ReadFull(r.Body, buf)
			close(held)
			if err == nil {
				var rest []byte
				rest, err = io.ReadAll(r.Body)
				n += len(rest)
			}
			body.Release()
			pr.CloseWithError(errors.New("done"))
			out <- result{n, err}
		}()
		return out
	}
	goA, goB := make(chan struct{}), make(chan struct{})
	heldA, heldB := make(chan struct{}), make(chan struct{})
	a := receive(goA, heldA)
	<-heldA
	c := receive(goB, heldB)
	<-heldB
	close(goA) // A passes the budget (120 of 100): it waits
	time.Sleep(50 * time.Millisecond)
	close(goB) // B passes it too while A waits: refused, its bytes given back
	ra, rb := <-a, <-c
	if ra.err != nil || ra.n != 80 {
		t.Errorf("the first body: %d bytes, %v; want all 80 once the other gave way", ra.n, ra.err)
	}
	if !errors.Is(rb.err, inflight.ErrFull) {
		t.Errorf("the second body: %d bytes, %v; want ErrFull while the first waits", rb.n, rb.err)
	}
}

// When a body needs room, the bodies that have been arriving for Grace give way slowest first
// (fewest bytes a second), and only as many as it needs: the one sending faster keeps its room.
func TestSlowestBodyGivesWayFirst(t *testing.T) {
	b := inflight.New(1200)
	type read struct {
		path string
		err  error
	}
	reads := make(chan read, 2)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		held, err := b.Hold(w, r, 1000)
		if err != nil {
			t.Error(err)
			return
		}
		defer held.Release()
		_, err = io.ReadAll(r.Body)
		reads <- read{r.URL.Path, err}
	}))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	fast := stalled.Open(t, host, "/fast", 1, 600)
	fmt.Fprint(fast[0], strings.Repeat("a", 300))
	stalled.Open(t, host, "/slow", 1, 600)
	time.Sleep(inflight.Grace + 100*time.Millisecond)
	r := httptest.NewRequest("POST", "/", strings.NewReader(strings.Repeat("c", 500)))
	held, err := b.Hold(httptest.NewRecorder(), r, 1000)
	if err != nil {
		t.Fatalf("a body needing the room of one stalled body: %v", err)
	}
	held.Release()
	if got := <-reads; got.path != "/slow" || !errors.Is(got.err, inflight.ErrGaveWay) {
		t.Fatalf("%s read %v, want /slow to give way (ErrGaveWay)", got.path, got.err)
	}
	fmt.Fprint(fast[0], strings.Repeat("a", 288)+`"}`)
	if got := <-reads; got.err != nil {
		t.Errorf("the faster body, finished after: %v, want it read whole", got.err)
	}
}
