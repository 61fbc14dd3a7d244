// Package inflight bounds the bytes of request bodies a server holds at once, over every
// connection: each body read into memory counts against one budget until its request is done,
// and a body that would pass it is refused before it is read (D216). Without it, a few hundred
// connections each sending a body just under the per-request limit, and holding its last bytes,
// took the mock and the proxy to hundreds of MB.
package inflight

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync/atomic"
	"time"
)

// ErrFull is the error of a body the budget has no room for.
var ErrFull = errors.New("the request bodies being received hold the whole budget")

// Budget is the bytes of request bodies held at once; safe for concurrent use.
type Budget struct {
	max     int64
	used    atomic.Int64
	waiting atomic.Bool // a body received as it arrives waits for room (HoldArriving)
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
	ctx   context.Context // HoldArriving's request: the wait for room ends with it
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
		if !x.b.take(count) && !x.waitFor(count) {
			return 0, ErrFull
		}
		x.held += count
	}
	return n, err
}

// maxWait bounds how long a body received as it arrives waits for room.
const maxWait = 2 * time.Minute

// waitFor waits, for a body of HoldArriving, until count bytes fit the budget, and takes them:
// one such body at a time waits, keeping what it holds, so that of two large bodies arriving
// together one is received whole (both were refused, and refused again when both retried); any
// other is refused at once, giving its bytes back to the one waiting. It reports whether it
// took them.
func (x *Body) waitFor(count int64) bool {
	if x.ctx == nil || !x.b.waiting.CompareAndSwap(false, true) {
		return false
	}
	defer x.b.waiting.Store(false)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(maxWait)
	for !x.b.take(count) {
		select {
		case <-tick.C:
		case <-deadline:
			return false
		case <-x.ctx.Done():
			return false
		}
	}
	return true
}

// HoldArriving counts r's body against b as its bytes arrive, up to limit, whatever length it
// announces, and puts the counted body in its place: for a body read whole before any other
// turn is taken, so that a client trickling it in holds only what it has sent. A read past the
// budget waits for room when no other such body waits, and fails with ErrFull otherwise.
// Release gives the bytes back.
func (b *Budget) HoldArriving(r *http.Request, limit int64) *Body {
	body := &Body{ReadCloser: r.Body, b: b, limit: limit, ctx: r.Context()}
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
