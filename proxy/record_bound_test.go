package proxy

import (
	"bytes"
	"strings"
	"testing"
)

// A recording keeps at most maxRecorded records, and its log counts those it left out: a
// staging project of 600 000 cards held gigabytes until the stop.
func TestRecordingKeepsABoundedNumberOfRecords(t *testing.T) {
	r, err := NewScenarioRecorder(nil)
	if err != nil {
		t.Fatal(err)
	}
	r.kept = maxRecorded - 1
	r.observe(map[string]any{"tags": []any{map[string]any{"id": 1.0, "name": "kept"}, map[string]any{"id": 2.0, "name": "over"}}})
	r.keepCart(map[string]any{"session_token": "t", "status": "open"})
	if r.kept != maxRecorded || r.over != 2 {
		t.Fatalf("kept %d, over %d: want the bound reached and two left out", r.kept, r.over)
	}
	var notes []string
	if _, err := r.WriteScenario(&bytes.Buffer{}, ScenarioOptions{Name: "x", Note: func(s string) { notes = append(notes, s) }}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(notes, "\n"), "2 records left out of the recording past the first 50000") {
		t.Errorf("notes %q do not count the records left out", notes)
	}
}
