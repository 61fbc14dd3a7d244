package proxy

import (
	"errors"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
)

// requestBody is a client's request body as the exchange forwards it. An exchange is full
// duplex (D94): the answer may go back while the transport still sends the body up, so the
// proxy must know, when it answers, whether the body was read to its end (if not, the rest of
// it is still on the client's connection, which must then close after the answer rather than
// be read as the client's next request), and no read of it may still run once the exchange is
// over (net/http then reads the connection for the next request: a read at the same time
// panics).
type requestBody struct {
	mu   sync.Mutex // held during each read, so over waits for the one under way
	rc   io.ReadCloser
	eof  atomic.Bool
	done bool
	// broken is the error reading the client's body failed with (a malformed chunk, a
	// connection cut mid-body): the request never reached the upstream whole, through no fault
	// of the upstream's.
	broken atomic.Pointer[error]
}

// errExchangeOver is what a read of a request body gets once its exchange has been answered.
var errExchangeOver = errors.New("the exchange was answered before its request body was read to its end")

func newRequestBody(r *http.Request) *requestBody {
	b := &requestBody{rc: r.Body}
	if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
		b.eof.Store(true)
	}
	return b
}

func (b *requestBody) Read(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.done {
		return 0, errExchangeOver
	}
	n, err := b.rc.Read(p)
	switch {
	case err == io.EOF:
		b.eof.Store(true)
	case err != nil:
		b.broken.CompareAndSwap(nil, &err)
	}
	return n, err
}

// readError is the error reading the client's body failed with, or nil.
func (b *requestBody) readError() error {
	if e := b.broken.Load(); e != nil {
		return *e
	}
	return nil
}

func (b *requestBody) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.rc.Close()
}

// whole tells whether the body was read to its end.
func (b *requestBody) whole() bool { return b.eof.Load() }

// closeUnlessWhole asks net/http to close the client's connection after the answer whose header
// is h, unless the body was read to its end.
func (b *requestBody) closeUnlessWhole(h http.Header) {
	if !b.whole() {
		h.Set("Connection", "close")
	}
}

// over ends the body's reads: it waits for the one under way, and later ones fail.
func (b *requestBody) over() {
	b.mu.Lock()
	b.done = true
	b.mu.Unlock()
}
