package main

import "runtime/debug"

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
	}
}
