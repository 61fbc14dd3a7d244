// Package arrival follows how a request body arrives, when it began and its bytes so far, so
// that the bounds on what clients hold at once (the bytes of bodies being received, D216, and
// the connections open, D220) can pick, among bodies arriving slowly, the slowest to give way.
package arrival

import (
	"sync/atomic"
	"time"
)

// Grace is how long a body may be arriving before it can be made to give way.
const Grace = time.Second

// Progress is a request body's arrival; safe for concurrent use.
type Progress struct {
	start time.Time
	got   atomic.Int64
}

// Begin is the arrival of a body whose first bytes are awaited from now.
func Begin() *Progress { return &Progress{start: time.Now()} }

// Add counts n more bytes arrived.
func (p *Progress) Add(n int) { p.got.Add(int64(n)) }

// Got is the bytes arrived so far.
func (p *Progress) Got() int64 { return p.got.Load() }

// Rate is the body's bytes a second at now, and whether it has been arriving for at least
// Grace (else it may not be made to give way, whatever its rate).
func (p *Progress) Rate(now time.Time) (perSecond float64, due bool) {
	took := now.Sub(p.start)
	return float64(p.got.Load()) / took.Seconds(), took >= Grace
}
