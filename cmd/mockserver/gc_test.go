package main

import (
	"math"
	"runtime/debug"
	"testing"
)

// The binary's defaults apply only where the environment sets none.
func TestTuneGCKeepsTheEnvironmentsChoice(t *testing.T) {
	prevGC, prevLimit := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() { debug.SetGCPercent(prevGC); debug.SetMemoryLimit(prevLimit) })
	tuneGC(func(string) string { return "" })
	if gc, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64); gc != gcPercent || limit != memoryLimit {
		t.Errorf("unset environment: GOGC %d, limit %d; want %d, %d", gc, limit, gcPercent, memoryLimit)
	}
	tuneGC(func(k string) string { return map[string]string{"GOGC": "50", "GOMEMLIMIT": "1GiB"}[k] })
	if gc, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64); gc != 100 || limit != math.MaxInt64 {
		t.Errorf("GOGC and GOMEMLIMIT set: tuneGC changed them to %d, %d", gc, limit)
	}
}
