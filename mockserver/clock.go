package mockserver

import (
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/opsapi/mocktoolkit/spec"
)

// The mock's clock stays between EarliestClock and LatestClock (D63, D73): a year inside the
// instants the mock can answer and save (spec.EarliestTime, spec.LatestTime), because the
// seeded world and the records a client writes lie up to a year either side of the clock; and
// a second past the year 1's start, which as Config.Now (Go's zero time) means the system time,
// so that --now and POST /__mock/clock take the same instants.
var (
	EarliestClock = spec.EarliestTime.AddDate(1, 0, 0).Add(time.Second)
	LatestClock   = spec.LatestTime.AddDate(-1, 0, 0).Truncate(time.Second)
)

// Clock is the mock's one clock (D39): a starting instant that runs forward in real time
// (measured on the monotonic clock) and that Advance moves further. Rate-limit windows, the
// thumbnail window, snoozes and overdue cards all read it. It never reads past LatestClock:
// there it stops (saturates) rather than wrap or leave the range the mock can write.
type Clock struct {
	mu     sync.RWMutex
	base   time.Time // the clock's reading at since
	since  time.Time // the system time (with its monotonic reading) when base was set
	frozen bool      // the clock reads base until unfrozen (D104)
}

// NewClock returns a clock that reads start now (the system time when start is zero). A start
// outside EarliestClock..LatestClock is brought to the nearer bound; callers that take it from
// a user check it first with CheckClockStart.
func NewClock(start time.Time) *Clock {
	now := time.Now()
	if start.IsZero() {
		start = now
	}
	return &Clock{base: clampClock(start.UTC()), since: now}
}

// CheckClockStart reports why t cannot be the clock's starting instant, or nil.
func CheckClockStart(t time.Time) error {
	if t.Before(EarliestClock) || t.After(LatestClock) {
		return fmt.Errorf("want an instant from %s to %s", EarliestClock.Format(time.RFC3339), LatestClock.Format(time.RFC3339))
	}
	return nil
}

// Now returns the mock's current time in UTC.
func (c *Clock) Now() time.Time {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.now()
}

func (c *Clock) now() time.Time {
	if t := c.running(); t.Before(LatestClock) {
		return t
	}
	return LatestClock
}

// running is base moved on by the real time since (base itself while frozen), unbounded but
// for spec.LatestTime.
func (c *Clock) running() time.Time {
	if c.frozen {
		return c.base
	}
	return c.moved()
}

// moved is base moved on by the real time since, frozen or not, bounded by spec.LatestTime.
func (c *Clock) moved() time.Time {
	elapsed := time.Since(c.since) // monotonic: never negative, far from overflowing
	if elapsed < 0 || spec.LatestTime.Sub(c.base) < elapsed {
		return spec.LatestTime
	}
	return c.base.Add(elapsed)
}

// WindowNow is the time rate-limit, login and thumbnail windows are measured on (D63, D104):
// Now, except that it keeps running while the clock is frozen or has run into LatestClock, so
// a window spent then still ends when its Retry-After says, though what the mock stamps stands
// still. Moving the clock (advance, set) moves it too. It stops only at spec.LatestTime.
func (c *Clock) WindowNow() time.Time {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.moved()
}

// Advance moves the clock forward by d. It refuses a negative d, and a d that would carry the
// clock past LatestClock (the clock is left as it was), with the error to show the caller.
func (c *Clock) Advance(d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("the clock only moves forward")
	}
	return c.Move(nil, nil, d)
}

func clampClock(t time.Time) time.Time {
	switch {
	case t.Before(EarliestClock):
		return EarliestClock
	case t.After(LatestClock):
		return LatestClock
	}
	return t
}

// Set moves the clock to t, forward or back (D104), keeping it frozen or running. It refuses
// an instant outside EarliestClock..LatestClock.
func (c *Clock) Set(t time.Time) error {
	if err := CheckClockStart(t); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.base, c.since = t.UTC(), time.Now()
	return nil
}

// Move applies one POST /__mock/clock at once (D104): set (when not nil), then freeze (when not
// nil), then advance by d. When the advance would carry the clock past LatestClock it applies
// none of them, so a refused request leaves the clock as it found it.
func (c *Clock) Move(set *time.Time, freeze *bool, d time.Duration) error {
	if set != nil {
		if err := CheckClockStart(*set); err != nil {
			return err
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	from := c.now()
	if set != nil {
		from = set.UTC()
	}
	if passesLatest(from, d) {
		return fmt.Errorf("the clock would pass %s, the latest time the mock keeps", LatestClock.Format(time.RFC3339))
	}
	c.base, c.since = from.Add(d), time.Now()
	if freeze != nil {
		c.frozen = *freeze
	}
	return nil
}

// passesLatest tells whether moving from by d (a negative d included) leaves the instants the
// clock keeps.
func passesLatest(from time.Time, d time.Duration) bool { return d < 0 || LatestClock.Sub(from) < d }

// Release gives the clock back to the system time, running (D104).
func (c *Clock) Release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	c.base, c.since, c.frozen = clampClock(now.UTC()), now, false
}

// Freeze stops the clock where it stands (true), or lets it run again from there (false).
func (c *Clock) Freeze(frozen bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.base, c.since = c.now(), time.Now()
	c.frozen = frozen
}

// Frozen reports whether the clock is stopped.
func (c *Clock) Frozen() bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.frozen
}

// stampDate sets the Date header to the clock's time when the clock is not the system's (moved,
// set or frozen), so that a client reading the time of the service from Date sees the mock's
// (D80); otherwise net/http's own Date stands.
func (c *Clock) stampDate(h http.Header) {
	if now := c.Now(); !c.readsSystem(now) {
		h["Date"] = []string{now.UTC().Format(http.TimeFormat)}
	}
}

// own tells whether the clock is not the system's: frozen, or moved or set more than a second
// away from it.
func (c *Clock) own() bool { return c.Frozen() || !c.readsSystem(c.Now()) }

// readsSystem tells whether now, read off the clock, is within a second of the system time.
func (c *Clock) readsSystem(now time.Time) bool {
	d := time.Since(now)
	return d <= time.Second && d >= -time.Second
}
