package main

import "runtime/debug"

// gcPercent is the binary's garbage-collection target when GOGC is not set. The mock's live
// heap is small (a few MB for the seeded world), so Go's default of 100 collects every few
// thousand requests under load; 400 trades a few MB of heap for about a fifth less CPU per
// request (docs/performance.md, make bench-load). GOGC, when set, wins.
const gcPercent = 400

func tuneGC(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
}
