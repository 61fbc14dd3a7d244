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

// A recording never passes the size the mock loads as a scenario: records are left out, the
// last first, and the log says how many.
func TestRecordingFitsTheScenarioFileBound(t *testing.T) {
	r, err := NewScenarioRecorder(nil)
	if err != nil {
		t.Fatal(err)
	}
	var tags []any
	for i := 1; i <= 200; i++ {
		tags = append(tags, map[string]any{"id": float64(i), "name": strings.Repeat("t", 100)})
	}
	r.observe(map[string]any{"tags": tags})
	var out bytes.Buffer
	var notes []string
	counts, err := r.WriteScenario(&out, ScenarioOptions{Name: "x", MaxBytes: 8 << 10, Note: func(s string) { notes = append(notes, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if out.Len() > 8<<10 || counts["tags"] >= 200 || !strings.Contains(strings.Join(notes, "\n"), "records left out of the recording, the last seen first") {
		t.Errorf("file of %d bytes holding %d tags, notes %q: want it within 8 KiB and the cut said", out.Len(), counts["tags"], notes)
	}
}
