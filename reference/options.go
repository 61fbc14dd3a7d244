package reference

import (
	"io"
	"time"
)

// Clock tells the time. The mock server's clock can be pinned and moved (D39).
type Clock interface {
	Now() time.Time
}

// windowClock is a Clock that measures windows on a time of its own (WindowNow): the mock's
// clock stops at its end for what it stamps, but keeps running for windows, so that a window
// spent there still ends (D63).
type windowClock interface {
	WindowNow() time.Time
}

// ClockFunc adapts a function to Clock.
type ClockFunc func() time.Time

// Now returns f().
func (f ClockFunc) Now() time.Time { return f() }

// Option configures a Store.
type Option func(*config)

type config struct {
	clock      Clock
	random     io.Reader
	maxRecords int
}

// WithClock sets the clock of the store (default: the system clock).
func WithClock(c Clock) Option { return func(cfg *config) { cfg.clock = c } }

// WithMaxRecordsPerProject caps the cards, comments and tags a project may hold (D70); n <= 0
// means no cap (the default). Copies pushed from master cards count but are never refused.
func WithMaxRecordsPerProject(n int) Option { return func(cfg *config) { cfg.maxRecords = n } }

// WithRandom sets the source of random bytes for tokens (default: crypto/rand).
func WithRandom(r io.Reader) Option { return func(cfg *config) { cfg.random = r } }
