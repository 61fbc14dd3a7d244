package main

import (
	"context"
	"runtime/debug"
	"runtime/metrics"
	"time"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// The binary's garbage-collection settings when the environment sets none (D164, measured with
// BenchmarkWorlds and make bench-load, docs/performance.md). The mock's live heap is small (a few
// MB for the seeded world), so Go's default GOGC of 100 collects every few thousand requests
// under load; 400 trades heap for CPU. A soft memory limit of 192 MiB makes the collector work
// harder only as the heap nears it: 64 busy worlds stay near 160 MB (with journals bounded in
// total, D143; 300 MB without that bound, which the limit held near 190 MB), and a single
// world's speed is GOGC=400's. GOGC and GOMEMLIMIT, when set, win.
const (
	gcPercent   = 400
	memoryLimit = 192 << 20
)

func tuneGC(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
		limitFollowsRecords = true
	}
}

// limitFollowsRecords is set when the binary chose the memory limit (GOMEMLIMIT unset): serve
// then raises it with the records the worlds hold (followRecords).
var limitFollowsRecords bool

// memoryLimitFor is the soft memory limit for worlds holding records bytes of records in a live
// heap of live bytes (as the last collection found it): the binary's default, or twice the
// larger and 64 MiB more once they need it. A limit under the live heap makes the collector run
// without end: near the default --max-state-mb of 256 a snapshot took four times as long and
// creates ran at a third of their speed, and a scenario directory holding a file of 400,000
// tags (300 MB parsed) kept an idle mock at an eighth of a core.
func memoryLimitFor(records, live int64) int64 {
	return max(memoryLimit, 2*max(records, live)+64<<20)
}

// liveHeap is the heap the last collection found live.
func liveHeap() int64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

// followRecords keeps the memory limit at memoryLimitFor the records m holds and the live heap,
// until ctx ends.
func followRecords(ctx context.Context, m *mockserver.Server) {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	last := int64(memoryLimit)
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if limit := memoryLimitFor(m.RecordsBytes(), liveHeap()); limit != last {
			debug.SetMemoryLimit(limit)
			last = limit
		}
	}
}
