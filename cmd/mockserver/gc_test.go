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

// The soft memory limit stays the binary's default while the records are small, and rises above
// twice the records once they need it: a limit under the live heap made the collector run
// without end near the default --max-state-mb.
func TestMemoryLimitFollowsRecords(t *testing.T) {
	if got := memoryLimitFor(0); got != memoryLimit {
		t.Errorf("no records: %d, want the default %d", got, memoryLimit)
	}
	for _, records := range []int64{100 << 20, 256 << 20, 1 << 30} {
		if got := memoryLimitFor(records); got < 2*records {
			t.Errorf("%d MiB of records: a limit of %d MiB, under twice the records", records>>20, got>>20)
		}
	}
}
