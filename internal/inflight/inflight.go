// Package inflight bounds the bytes of request bodies a server holds at once, over every
// connection: each body read into memory counts against one budget until its request is done,
// and a body that would pass it is refused before it is read (D216). Without it, a few hundred
// connections each sending a body just under the per-request limit, and holding its last bytes,
// took the mock and the proxy to hundreds of MB.
package inflight

import (
	"errors"
	"io"
	"net/http"
	"sync/atomic"
)

// ErrFull is the error of a body the budget has no room for.
var ErrFull = errors.New("the request bodies being received hold the whole budget")

// Budget is the bytes of request bodies held at once; safe for concurrent use.
type Budget struct {
	max  int64
	used atomic.Int64
}

// New returns a budget of max bytes.
func New(max int64) *Budget { return &Budget{max: max} }

// Max is the budget's size.
func (b *Budget) Max() int64 { return b.max }

func (b *Budget) take(n int64) bool {
	if b.used.Add(n) > b.max {
		b.used.Add(-n)
		return false
	}
	return true
}

// Body is a request body counted against a budget, up to the most its reader keeps in memory:
// its announced length is taken at once (the reader allocates it), a body of unknown length
// byte by byte as it arrives.
type Body struct {
	io.ReadCloser
	b     *Budget
	held  int64
	limit int64
	known bool
}

// Hold counts r's body, up to limit bytes (what the server keeps of it), against b and puts the
// counted body in its place; it returns ErrFull, and leaves r as it was, when the announced
// length does not fit. Release gives the bytes back.
func (b *Budget) Hold(r *http.Request, limit int64) (*Body, error) {
	body := &Body{ReadCloser: r.Body, b: b, limit: limit}
	if r.Body == nil || r.Body == http.NoBody {
		return body, nil
	}
	if r.ContentLength > 0 {
		n := min(r.ContentLength, limit)
		if !b.take(n) {
			return nil, ErrFull
		}
		body.held, body.known = n, true
	}
	r.Body = body
	return body, nil
}

func (x *Body) Read(p []byte) (int, error) {
	n, err := x.ReadCloser.Read(p)
	if count := min(int64(n), x.limit-x.held); count > 0 && !x.known {
		if !x.b.take(count) {
			return 0, ErrFull
		}
		x.held += count
	}
	return n, err
}

// HoldArriving counts r's body against b as its bytes arrive, up to limit, whatever length it
// announces, and puts the counted body in its place: for a body read whole before any other
// turn is taken, so that a client trickling it in holds only what it has sent. A read past the
// budget fails with ErrFull. Release gives the bytes back.
func (b *Budget) HoldArriving(r *http.Request, limit int64) *Body {
	body := &Body{ReadCloser: r.Body, b: b, limit: limit}
	if r.Body != nil && r.Body != http.NoBody {
		r.Body = body
	}
	return body
}

// Release gives the body's bytes back to the budget (once its request is done).
func (x *Body) Release() {
	if x != nil && x.held > 0 {
		x.b.used.Add(-x.held)
		x.held = 0
	}
}
