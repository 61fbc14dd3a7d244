package conformance

import (
	"context"
	"time"
)

// Reaching reads a count until it reaches want, for at most the push wait, and returns the
// last count read: a list may show a write some time after answering it (a replica, a
// cache, a queue; D210). It reads every 250 ms, and stops early when ctx ends.
func (c Config) Reaching(ctx context.Context, want int64, read func() int64) int64 {
	var n int64
	c.Again(ctx, func() bool { n = read(); return n < want })
	return n
}

// Again calls try, and calls it again every 250 ms while it reports that the deployment may
// not show the write yet, for at most the push wait (CONFORMANCE_PUSH_WAIT), stopping early
// when ctx ends: a list or a lookup by id may lag a write (D210).
func (c Config) Again(ctx context.Context, try func() bool) {
	deadline := time.Now().Add(c.PushWait)
	for try() && time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return
		case <-time.After(250 * time.Millisecond):
		}
	}
}
