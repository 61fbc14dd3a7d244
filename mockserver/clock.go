package mockserver

import (
	"sync"
	"time"
)

// Clock is the mock's one clock (D39): the system clock shifted by an offset. It starts at a
// given instant (or now) and runs forward in real time; Advance moves it further. Rate-limit
// windows, the thumbnail window, snoozes and overdue cards all read it.
type Clock struct {
	mu     sync.RWMutex
	offset time.Duration
}

// NewClock returns a clock that reads start now (the system time when start is zero).
func NewClock(start time.Time) *Clock {
	c := &Clock{}
	if !start.IsZero() {
		c.offset = time.Until(start)
	}
	return c
}

// Now returns the mock's current time in UTC.
func (c *Clock) Now() time.Time {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return time.Now().Add(c.offset).UTC()
}

// Advance moves the clock forward by d (d must not be negative).
func (c *Clock) Advance(d time.Duration) {
	if d < 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.offset += d
}
