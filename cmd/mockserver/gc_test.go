package main

import (
	"math"
	"runtime"
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

// The soft memory limit stays the binary's default while the records and the live heap are
// small, and rises above twice the larger once they need it: a limit under the live heap made
// the collector run without end near the default --max-state-mb, and with a large scenario
// file loaded (held outside the records).
func TestMemoryLimitFollowsRecordsAndTheLiveHeap(t *testing.T) {
	if got := memoryLimitFor(0, 20<<20); got != memoryLimit {
		t.Errorf("no records: %d, want the default %d", got, memoryLimit)
	}
	for _, n := range []int64{100 << 20, 256 << 20, 1 << 30} {
		if got := memoryLimitFor(n, 20<<20); got < 2*n {
			t.Errorf("%d MiB of records: a limit of %d MiB, under twice the records", n>>20, got>>20)
		}
		if got := memoryLimitFor(0, n); got < 2*n {
			t.Errorf("a live heap of %d MiB: a limit of %d MiB, under twice the heap", n>>20, got>>20)
		}
	}
	runtime.GC() // the live heap is what a collection found
	if liveHeap() <= 0 {
		t.Errorf("the live heap reads %d", liveHeap())
	}
}
