package conformance

import (
	"context"
	"time"
)

// Reaching reads a count until it reaches want, for at most the push wait, and returns the
// last count read: a list may show a write some time after answering it (a replica, a
// cache, a queue; D210). It reads every 250 ms, and stops early when ctx ends.
func (c Config) Reaching(ctx context.Context, want int64, read func() int64) int64 {
	deadline := time.Now().Add(c.PushWait)
	n := read()
	for n < want && time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return n
		case <-time.After(250 * time.Millisecond):
		}
		n = read()
	}
	return n
}
