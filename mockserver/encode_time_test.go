package mockserver

import (
	"encoding/json"
	"testing"
	"time"
)

// appendTime writes what encoding/json writes for a time.Time: by hand for the store's times
// (UTC, whole seconds), through AppendFormat for any other, and refuses years past 9999.
func TestAppendTimeIsEncodingJSON(t *testing.T) {
	times := []time.Time{
		time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9, 2, 3, 4, 5, 6, 0, time.UTC),
		time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC),
		time.Date(2024, 2, 29, 23, 59, 59, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC),
		time.Date(2026, 6, 1, 9, 0, 0, 123456789, time.UTC),
		time.Date(2026, 6, 1, 9, 0, 0, 0, time.FixedZone("", 5*3600+30*60)),
	}
	for sec := int64(-62135596800); sec < 253402300799; sec += 7919 * 86400 { // years 1..9999, steps of ~21.7 years
		times = append(times, time.Unix(sec, 0).UTC())
	}
	for _, tm := range times {
		want, err := json.Marshal(tm)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := appendTime(nil, tm, true)
		if !ok || string(got) != string(want) {
			t.Errorf("appendTime(%v) = %s, %v; want %s", tm, got, ok, want)
		}
	}
	if _, ok := appendTime(nil, time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), true); ok {
		t.Error("a year past 9999 was written")
	}
}
