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
		gcFollowsHeap = true
	}
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
		limitFollowsRecords = true
	}
}

// limitFollowsRecords is set when the binary chose the memory limit (GOMEMLIMIT unset): serve
// then raises it with the records the worlds hold (followRecords). gcFollowsHeap is set when it
// chose GOGC: serve then lowers it while the live heap is large (gcPercentFor).
var limitFollowsRecords, gcFollowsHeap bool

// largeHeapGCPercent is GOGC once the live heap passes 64 MiB (many busy worlds, worlds churned
// by resets): at 400 the heap grows to five times the live one, and 2000 resets of new busy
// worlds with 116 MB of records took the mock to 1 GB; at 100, to 400 MB. A small heap, every
// load benchmark's, keeps 400's speed.
const largeHeapGCPercent = 100

// gcPercentFor is GOGC for a live heap of live bytes.
func gcPercentFor(live int64) int {
	if live > 64<<20 {
		return largeHeapGCPercent
	}
	return gcPercent
}

// memoryLimitFor is the soft memory limit for worlds holding records bytes of records, in a live
// heap of live bytes (as the last collection found it) and used bytes of memory the runtime
// holds (what the limit counts): the binary's default, or twice the records and 64 MiB more once
// they need it. A limit under what the runtime holds makes the collector run without end: near
// the default --max-state-mb of 256 a snapshot took four times as long and creates ran at a
// third of their speed. So once the live heap passes 64 MiB (records, or a scenario file held
// read, outside the records: one of 400,000 tags took 200 MB live and 480 MB in all, and kept an
// idle mock collecting every second) the limit stays a quarter above what the runtime holds.
func memoryLimitFor(records, live, used int64) int64 {
	limit := max(memoryLimit, 2*records+64<<20)
	if live > 64<<20 {
		limit = max(limit, 2*live+64<<20, used+used/4+64<<20)
	}
	return limit
}

// heapNow reads the heap the last collection found live and the memory the runtime holds from
// the OS (less what it gave back), which the soft limit counts.
func heapNow() (live, used int64) {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	for _, x := range s {
		if x.Value.Kind() != metrics.KindUint64 {
			return 0, 0
		}
	}
	return int64(s[0].Value.Uint64()), int64(s[1].Value.Uint64() - s[2].Value.Uint64())
}

// followRecords keeps the memory limit at memoryLimitFor the records m holds and the heap, and
// GOGC at gcPercentFor the live heap, each where the binary chose it, until ctx ends.
func followRecords(ctx context.Context, m *mockserver.Server) {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	last, lastPct := int64(memoryLimit), gcPercent
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		live, used := heapNow()
		if limit := memoryLimitFor(m.RecordsBytes(), live, used); limitFollowsRecords && limit != last {
			debug.SetMemoryLimit(limit)
			last = limit
		}
		if pct := gcPercentFor(live); gcFollowsHeap && pct != lastPct {
			debug.SetGCPercent(pct)
			lastPct = pct
		}
	}
}
