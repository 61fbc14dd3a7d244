package mockserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/opsapi/mocktoolkit/reference"
	"github.com/opsapi/mocktoolkit/spec"
)

// SavedClock is a world's clock as a state file keeps it (D65): the instant it read, in whole
// seconds as the clock shows it, and whether it stood still.
type SavedClock struct {
	Now    time.Time
	Frozen bool
	// raw is the member as a file or a PUT gave it, read by check by the controls' rules: its
	// names exactly as written (D8), now by the API's date-time rule (offsets within ±23:59,
	// D148), in the controls' words (D187).
	raw []byte
}

// StateFile is a world as --state-file keeps it (D65): its records, as GET /__mock/state
// answers them, and its clock when the clock is the world's own (set, moved or frozen), so a
// clock frozen for screenshots is still frozen after a restart. PUT /__mock/state takes one too.
type StateFile struct {
	reference.State
	Clock  *SavedClock  `json:"clock,omitempty"`
	Source *SavedSource `json:"source,omitempty"`
}

// SavedSource is the seed and scenario a state file's records were built from (D65): a start
// from the file reports them and builds the fixture manifest from them, which a world reset to
// another seed before it was saved needs (the start's --seed has other carts).
type SavedSource struct {
	Seed     int64  `json:"seed"`
	Scenario string `json:"scenario"`
}

// StateFile is the world as a state file keeps it.
func (h *World) StateFile() StateFile {
	src := h.Source()
	f := StateFile{State: h.Snapshot(), Source: &SavedSource{Seed: src.Seed, Scenario: src.Scenario}}
	if c := h.now().clock; c.own() {
		f.Clock = &SavedClock{Now: c.Now().Truncate(time.Second), Frozen: c.Frozen()}
	}
	return f
}

// MarshalJSON writes the clock as {"now": RFC 3339, "frozen": bool}.
func (c SavedClock) MarshalJSON() ([]byte, error) {
	return json.Marshal(map[string]any{"now": c.Now.UTC().Format(time.RFC3339Nano), "frozen": c.Frozen})
}

// UnmarshalJSON keeps the member as written; check reads it.
func (c *SavedClock) UnmarshalJSON(b []byte) error {
	c.raw = bytes.Clone(b)
	return nil
}

// clockNames are the members of a saved clock.
var clockNames = []string{"now", "frozen"}

// check reads the member as written, if any, and says why it cannot be loaded, or nil.
func (c *SavedClock) check() error {
	if c == nil {
		return nil
	}
	if c.raw != nil {
		var members map[string]json.RawMessage
		if json.Unmarshal(c.raw, &members) != nil || members == nil {
			return fmt.Errorf(`clock must be an object: {"now": an RFC 3339 date-time, "frozen": true or false}`)
		}
		for _, name := range slices.Sorted(maps.Keys(members)) {
			if !slices.Contains(clockNames, name) {
				return fmt.Errorf("clock.%s is not known: a saved clock has now and frozen", clip(name, 40))
			}
		}
		raw, ok := members["now"]
		if !ok {
			return fmt.Errorf("clock.now is required: the instant the clock read")
		}
		var text string
		if json.Unmarshal(raw, &text) != nil || spec.ValidateDateTime(text) != nil {
			return fmt.Errorf("clock.now must be an RFC 3339 date-time such as 2026-06-01T09:00:00Z, its offset within ±23:59, not %s", clip(string(raw), 60))
		}
		c.Now, _ = time.Parse(time.RFC3339Nano, text)
		c.Frozen = false
		if raw, ok := members["frozen"]; ok && json.Unmarshal(raw, &c.Frozen) != nil {
			return fmt.Errorf("clock.frozen must be true or false, not %s", clip(string(raw), 60))
		}
		c.raw = nil
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
