// Package inflight bounds the bytes of request bodies a server holds at once, over every
// connection: each body read into memory counts against one budget until its request is done,
// and a body that would pass it is refused before it is read (D216). Without it, a few hundred
// connections each sending a body just under the per-request limit, and holding its last bytes,
// took the mock and the proxy to hundreds of MB. A body that has been arriving for a while
// and is the slowest gives way when another needs room (ErrGaveWay): otherwise clients that
// announce bodies and never send them hold the budget, and every other client is refused,
// until the server's read timeout.
package inflight

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/opsapi/mocktoolkit/internal/arrival"
)

// ErrFull is the error of a body the budget has no room for.
var ErrFull = errors.New("the request bodies being received hold the whole budget")

// ErrGaveWay is the read error of a body cut short so that another could be received: it had
// been arriving for at least Grace, slower than every other such body, when the budget was full.
var ErrGaveWay = errors.New("the request body arrived too slowly while others waited for room")

// Grace is how long a body may be arriving before it can be made to give way.
const Grace = arrival.Grace

// roomWait bounds how long a body waits for the room the bodies made to give way set free.
const roomWait = time.Second

// Budget is the bytes of request bodies held at once; safe for concurrent use.
type Budget struct {
	max     int64
	used    atomic.Int64
	waiting atomic.Bool // a body received as it arrives waits for room (HoldArriving)

	mu   sync.Mutex
	live map[*Body]struct{} // the bodies of Hold still arriving, which may be made to give way
}

// New returns a budget of max bytes.
func New(max int64) *Budget { return &Budget{max: max, live: map[*Body]struct{}{}} }

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
	b      *Budget
	held   atomic.Int64 // read by makeRoom while the body is being read
	limit  int64
	known  bool            // held is the announced length (up to limit), taken at once
	length int64           // the announced length, -1 when unknown
	ctx    context.Context // HoldArriving's request: the wait for room ends with it

	arrival *arrival.Progress
	cut     func() bool // ends the body's reading at once (its connection's read deadline)
	gaveWay atomic.Bool
}

// Hold counts r's body, up to limit bytes (what the server keeps of it), against b and puts the
// counted body in its place. When the announced length does not fit, bodies that have been
// arriving for at least Grace give way, slowest first (their reads fail with ErrGaveWay: w's
// connection is cut off by its read deadline), until it does; Hold returns ErrFull, and
// leaves r as it was, when even that leaves no room. Release gives the bytes back.
func (b *Budget) Hold(w http.ResponseWriter, r *http.Request, limit int64) (*Body, error) {
	body := &Body{ReadCloser: r.Body, b: b, limit: limit, arrival: arrival.Begin(), length: r.ContentLength}
	if r.Body == nil || r.Body == http.NoBody {
		return body, nil
	}
	if r.ContentLength > 0 {
		n := min(r.ContentLength, limit)
		if !b.take(n) && !b.makeRoom(n, nil) {
			return nil, ErrFull
		}
		body.held.Store(n)
		body.known = true
	}
	rc := http.NewResponseController(w)
	body.cut = func() bool { return rc.SetReadDeadline(time.Now()) == nil }
	b.mu.Lock()
	b.live[body] = struct{}{}
	b.mu.Unlock()
	r.Body = body
	return body, nil
}

func (x *Body) Read(p []byte) (int, error) {
	n, err := x.ReadCloser.Read(p)
	x.arrival.Add(n)
	if count := min(int64(n), x.limit-x.held.Load()); count > 0 && !x.known {
		if !x.b.take(count) && !x.waitFor(count) && (x.cut == nil || !x.b.makeRoom(count, x)) {
			return 0, ErrFull
		}
		x.held.Add(count)
	}
	if err != nil || x.length >= 0 && x.arrival.Got() >= x.length {
		x.arrived()
		if x.gaveWay.Load() && err != io.EOF {
			err = ErrGaveWay
		}
	}
	return n, err
}

// arrived takes the body off the bodies that may be made to give way: it has all arrived
// (or failed), and cutting its connection now would set nothing free.
func (x *Body) arrived() {
	if x.cut != nil {
		x.b.mu.Lock()
		delete(x.b.live, x)
		x.b.mu.Unlock()
	}
}

// makeRoom makes bodies that have been arriving for at least Grace give way, slowest first,
// until what they hold would let need bytes fit, and waits up to roomWait for their requests
// to give the bytes back; it takes need and reports whether it could.
func (b *Budget) makeRoom(need int64, self *Body) bool {
	now := time.Now()
	b.mu.Lock()
	var slow []*Body
	rates := map[*Body]float64{}
	for x := range b.live {
		if rate, due := x.arrival.Rate(now); x != self && due && !x.gaveWay.Load() {
			slow, rates[x] = append(slow, x), rate
		}
	}
	sort.Slice(slow, func(i, j int) bool { return rates[slow[i]] < rates[slow[j]] })
	short := need - (b.max - b.used.Load())
	for _, x := range slow {
		if short <= 0 {
			break
		}
		x.gaveWay.Store(true)
		if !x.cut() {
			x.gaveWay.Store(false)
			continue
		}
		delete(b.live, x)
		short -= x.held.Load()
	}
	b.mu.Unlock()
	return short <= 0 && b.takeWithin(need, roomWait, nil)
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
	return x.b.takeWithin(count, maxWait, x.ctx.Done())
}

// takeWithin takes n bytes once they fit, trying every 10 ms for up to wait or until done is
// closed; it reports whether it took them.
func (b *Budget) takeWithin(n int64, wait time.Duration, done <-chan struct{}) bool {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(wait)
	for !b.take(n) {
		select {
		case <-tick.C:
		case <-deadline:
			return false
		case <-done:
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
	body := &Body{ReadCloser: r.Body, b: b, limit: limit, ctx: r.Context(), length: -1, arrival: arrival.Begin()}
	if r.Body != nil && r.Body != http.NoBody {
		r.Body = body
	}
	return body
}

// Release gives the body's bytes back to the budget (once its request is done).
func (x *Body) Release() {
	if x != nil {
		x.arrived()
		x.b.used.Add(-x.held.Swap(0))
	}
}
