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
// small (a used heap of loose garbage does not raise it), rises above twice the records once
// they need it, and once the live heap is large stays above twice it and above what the runtime
// holds: a limit under that made the collector run without end near the default
// --max-state-mb, and with a large scenario file held read.
func TestMemoryLimitFollowsRecordsAndTheHeap(t *testing.T) {
	if got := memoryLimitFor(0, 20<<20, 300<<20); got != memoryLimit {
		t.Errorf("no records, a small live heap: %d, want the default %d", got, memoryLimit)
	}
	for _, n := range []int64{100 << 20, 256 << 20, 1 << 30} {
		if got := memoryLimitFor(n, 20<<20, 0); got < 2*n {
			t.Errorf("%d MiB of records: a limit of %d MiB, under twice the records", n>>20, got>>20)
		}
		if got := memoryLimitFor(0, n, 2*n); got < 2*n+64<<20 {
			t.Errorf("a live heap of %d MiB in %d MiB held: a limit of %d MiB, without room above what is held", n>>20, 2*n>>20, got>>20)
		}
	}
	runtime.GC() // the live heap is what a collection found
	if live, used := heapNow(); live <= 0 || used < live {
		t.Errorf("the heap reads %d live in %d held", live, used)
	}
}

// GOGC stays 400 while the live heap is small, and is 100 once it passes 64 MiB: at 400 a
// mock churning through busy worlds grew to five times its live heap (1 GB for 116 MB of
// records).
func TestGCPercentFollowsTheLiveHeap(t *testing.T) {
	if got := gcPercentFor(20 << 20); got != gcPercent {
		t.Errorf("a live heap of 20 MiB: GOGC %d, want %d", got, gcPercent)
	}
	if got := gcPercentFor(200 << 20); got != largeHeapGCPercent {
		t.Errorf("a live heap of 200 MiB: GOGC %d, want %d", got, largeHeapGCPercent)
	}
}
