// Package answerbound bounds the bytes of large answers a server holds while it writes them:
// a client that does not read its answer keeps the answer's bytes alive until the write
// timeout, and a few dozen such clients took the mock and the proxy to gigabytes. Each answer
// over Large bytes counts against a Budget while it is written; one that would pass it is
// refused instead, by the server's own refusal (a 503 in its envelope), unless it is the only
// one: an answer larger than the whole budget is written when no other is, or it could never be.
package answerbound

import (
	"net/http"
	"strconv"
	"sync/atomic"
)

// Large is the size of an answer past which it counts against a Budget.
const Large = 1 << 20

// Budget is the bytes of large answers being written at once; safe for concurrent use.
type Budget struct {
	max  atomic.Int64
	used atomic.Int64
}

// New returns a budget of max bytes.
func New(max int64) *Budget {
	b := &Budget{}
	b.max.Store(max)
	return b
}

// SetMax changes the budget's size (tests lower it) and returns the old one.
func (b *Budget) SetMax(max int64) int64 { return b.max.Swap(max) }

// Max is the budget's size.
func (b *Budget) Max() int64 { return b.max.Load() }

// Writer is the writer of one answer counted against a budget. Call Done once the answer is
// written.
type Writer struct {
	http.ResponseWriter
	b       *Budget
	refuse  func(http.ResponseWriter)
	held    int64
	refused bool
	shared  bool
}

// Wrap returns w counted against b; refuse writes the refusal of an answer past the budget.
func (b *Budget) Wrap(w http.ResponseWriter, refuse func(http.ResponseWriter)) *Writer {
	return &Writer{ResponseWriter: w, b: b, refuse: refuse}
}

// WriteHeader counts an answer of more than Large bytes (by its Content-Length) or refuses it.
func (x *Writer) WriteHeader(code int) {
	n, _ := strconv.ParseInt(x.Header().Get("Content-Length"), 10, 64)
	if n <= Large || x.shared {
		x.ResponseWriter.WriteHeader(code)
		return
	}
	if !x.b.take(n) {
		x.refused = true
		x.refuse(x.ResponseWriter)
		return
	}
	x.held = n
	x.ResponseWriter.WriteHeader(code)
}

// take counts n bytes when they fit, or when nothing else is held: an answer larger than the
// whole budget (a world whose text the JSON escapes sixfold) was refused every time, on an idle
// server, though its retry built it again; alone it holds no more than it did while built.
func (b *Budget) take(n int64) bool {
	for {
		used := b.used.Load()
		if used != 0 && used+n > b.max.Load() {
			return false
		}
		if b.used.CompareAndSwap(used, used+n) {
			return true
		}
	}
}

// Write drops the bytes of a refused answer (its refusal went instead).
func (x *Writer) Write(p []byte) (int, error) {
	if x.refused {
		return len(p), nil
	}
	return x.ResponseWriter.Write(p)
}

// Done gives the answer's bytes back.
func (x *Writer) Done() {
	x.b.used.Add(-x.held)
	x.held = 0
}

// Unwrap lets http.ResponseController reach the connection.
func (x *Writer) Unwrap() http.ResponseWriter { return x.ResponseWriter }

// Share marks the answer w writes as bytes another answer already counts (one document many
// clients download), looking through the writers that wrap w.
func Share(w http.ResponseWriter) {
	for {
		if x, ok := w.(*Writer); ok {
			x.shared = true
			return
		}
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return
		}
		w = u.Unwrap()
	}
}
