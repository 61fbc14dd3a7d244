package mockserver

import (
	"strings"
	"testing"
)

// A refusal for --max-worlds counts the worlds still being built, which take their room from
// the start: 40 parallel resets on a mock of 5 worlds were told "already holds 1 named worlds
// (--max-worlds 5)", which reads as if there were room.
func TestWorldRefusalsCountWorldsBeingBuilt(t *testing.T) {
	busy := &world{}
	busy.inflight.Add(1)
	r := &registry{max: 5, named: map[string]*world{"a": busy}, building: map[string]chan struct{}{"b": nil, "c": nil, "d": nil, "e": nil}}
	err := r.slot("f", true)
	if err == nil || !strings.Contains(err.Error(), "holds 1 named world and is building 4 more (--max-worlds 5)") {
		t.Errorf("refusal %v, want it to count the 4 worlds being built", err)
	}
}
