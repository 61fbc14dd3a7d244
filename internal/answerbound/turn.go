package answerbound

import (
	"context"
	"net/http"
	"sync"
)

// Turn lets one costly answer be built at a time (a whole read of a large world, a journal of
// large bodies): each copy is several times the answer's bytes while it is built. The turn
// passes on once the answer's header is written, when it is built, so a client that does not
// read its answer holds the answer's bytes (bounded by a Budget), not every other reader's turn.
type Turn struct{ slot chan struct{} }

// NewTurn returns a turn no one holds.
func NewTurn() *Turn { return &Turn{slot: make(chan struct{}, 1)} }

// Take waits for the turn. It returns the writer to answer through, which gives the turn up
// when its header is written, and the release to defer (it gives the turn up if the header
// never was); ok is false when ctx ended first.
func (t *Turn) Take(ctx context.Context, w http.ResponseWriter) (bw http.ResponseWriter, release func(), ok bool) {
	select {
	case t.slot <- struct{}{}:
	case <-ctx.Done():
		return nil, nil, false
	}
	release = sync.OnceFunc(func() { <-t.slot })
	return &built{ResponseWriter: w, release: release}, release, true
}

// built is the writer of an answer built under a Turn: writing its header gives the turn up.
type built struct {
	http.ResponseWriter
	release func()
}

func (b *built) WriteHeader(code int) {
	b.release()
	b.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController, and writers looking for the Budget's, reach the writer
// beneath.
func (b *built) Unwrap() http.ResponseWriter { return b.ResponseWriter }
