package inflight_test

import (
	"errors"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/internal/inflight"
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
