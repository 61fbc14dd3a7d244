package conformance_test

import (
	"testing"
	"time"
)

// LIMIT-3 with a window of fixed 10 minutes aligned on the clock: a sixth success is explained
// only when such a window began after part of the counted successes and holds at most five.
func TestAlignedWindowExplainsASixthSuccessOnlyAcrossItsStart(t *testing.T) {
	at := func(hhmmss string) time.Time {
		tm, _ := time.Parse(time.DateTime, "2026-11-28 "+hhmmss)
		return tm
	}
	counter := func(sent ...string) func(time.Time) int {
		return func(since time.Time) int {
			n := 0
			for _, s := range sent {
				if at(s).After(since) {
					n++
				}
			}
			return n
		}
	}
	for _, c := range []struct {
		name      string
		now       string
		from      time.Time
		sent      []string
		explained bool
	}{
		{"six in one window", "10:05:02", time.Time{}, []string{"10:05:00", "10:05:00", "10:05:01", "10:05:01", "10:05:01", "10:05:02"}, false},
		{"two before 10:10, four after", "10:10:02", time.Time{}, []string{"10:09:30", "10:09:40", "10:10:00", "10:10:01", "10:10:01", "10:10:02"}, true},
		{"one minutes before, five after", "10:10:30", time.Time{}, []string{"10:03:00", "10:10:10", "10:10:20", "10:10:25", "10:10:28", "10:10:30"}, true},
		{"six after the start", "10:10:30", time.Time{}, []string{"10:10:10", "10:10:11", "10:10:20", "10:10:25", "10:10:28", "10:10:30"}, false},
		{"the same start used already", "10:10:30", at("10:09:57"), []string{"10:09:59", "10:10:10", "10:10:20", "10:10:25", "10:10:28", "10:10:30"}, false},
	} {
		_, got := alignedWindow(at(c.now), c.from, counter(c.sent...))
		if got != c.explained {
			t.Errorf("%s: explained %v, want %v", c.name, got, c.explained)
		}
	}
}
