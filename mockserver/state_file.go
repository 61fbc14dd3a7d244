package mockserver

import (
	"fmt"
	"time"

	"github.com/opsapi/mocktoolkit/reference"
)

// SavedClock is a world's clock as a state file keeps it (D65): the instant it read and whether
// it stood still.
type SavedClock struct {
	Now    time.Time `json:"now"`
	Frozen bool      `json:"frozen"`
}

// StateFile is a world as --state-file keeps it (D65): its records, as GET /__mock/state
// answers them, and its clock when the clock is the world's own (set, moved or frozen), so a
// clock frozen for screenshots is still frozen after a restart. PUT /__mock/state takes one too.
type StateFile struct {
	reference.State
	Clock *SavedClock `json:"clock,omitempty"`
}

// StateFile is the world as a state file keeps it.
func (h *World) StateFile() StateFile {
	f := StateFile{State: h.Snapshot()}
	if c := h.w.clock; c.own() {
		f.Clock = &SavedClock{Now: c.Now(), Frozen: c.Frozen()}
	}
	return f
}

// check says why c cannot be loaded, or nil.
func (c *SavedClock) check() error {
	if c == nil {
		return nil
	}
	if c.Now.IsZero() {
		return fmt.Errorf("clock.now is required: the instant the clock read")
	}
	if err := CheckClockStart(c.Now); err != nil {
		return fmt.Errorf("clock.now: %w", err)
	}
	return nil
}

// restore puts c on the clock: frozen or running, from c.Now. c was checked.
func (c *SavedClock) restore(clock *Clock) {
	if c == nil {
		return
	}
	clock.Freeze(c.Frozen)
	_ = clock.Set(c.Now)
}
