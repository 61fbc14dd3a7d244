package proxy

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
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

// The answers the recorder holds at once are bounded over every exchange: one that would pass
// the bound streams through whole, unrecorded, and the log says why; 40 clients of endless
// answers took the proxy to 2.6 GB, each held up to maxRecordedAnswer.
func TestRecordingHoldsABoundedNumberOfBytes(t *testing.T) {
	const half = 150 << 10
	var midway sync.WaitGroup
	midway.Add(2)
	answer := `{"error":false,"message":"ok","data":{"tags":[{"id":1,"name":"` + strings.Repeat("x", 2*half) + `"}]}}`
	r, err := NewScenarioRecorder(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(answer[:half]))
		midway.Done()
		midway.Wait() // both answers are half held
		_, _ = w.Write([]byte(answer[half:]))
	}))
	if err != nil {
		t.Fatal(err)
	}
	r.heldMax = 3 * half // room for both halves and one whole answer
	var wg sync.WaitGroup
	lens := make([]int, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rec := httptest.NewRecorder()
			r.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/services/operations/v1/operations/tags/list", strings.NewReader("{}")))
			lens[i] = rec.Body.Len()
		}()
	}
	wg.Wait()
	if lens[0] != len(answer) || lens[1] != len(answer) {
		t.Errorf("the clients got %v bytes, want %d each", lens, len(answer))
	}
	if r.held.Load() != 0 {
		t.Errorf("%d bytes still counted as held after both exchanges", r.held.Load())
	}
	var notes []string
	if _, err := r.WriteScenario(&bytes.Buffer{}, ScenarioOptions{Name: "x", Note: func(s string) { notes = append(notes, s) }}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Join(notes, "\n"); !strings.Contains(n, "of answers at once, the most it holds") {
		t.Errorf("notes %q do not say an answer was left out for the bound", notes)
	}
	if r.kept != 1 {
		t.Errorf("kept %d records, want the one answer within the bound", r.kept)
	}
}

// A record whose title or name is empty is written under a stand-in name (the mock refuses an
// empty one), and the log says so, as it says of every value it changed.
func TestRecordingNamesTheStandInTitles(t *testing.T) {
	r, err := NewScenarioRecorder(nil)
	if err != nil {
		t.Fatal(err)
	}
	r.observe(map[string]any{"tags": []any{map[string]any{"id": 127.0, "name": " "}}})
	var out bytes.Buffer
	var notes []string
	if _, err := r.WriteScenario(&out, ScenarioOptions{Name: "x", Note: func(s string) { notes = append(notes, s) }}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "Tag 127") || !strings.Contains(strings.Join(notes, "\n"), `tag-127: name is empty, which the mock refuses: written as "Tag 127"`) {
		t.Errorf("notes %q, file:\n%s\nwant the stand-in name written and said", notes, out.String())
	}
}

// The notes a recording keeps for its log are bounded: each mock world left out makes a note
// of its own, and a client sending ten thousand grew the recorder and wrote ten thousand log
// lines at the stop; those past the bound are counted in one line. Records left out for their
// ids make one note per reason, naming the first few and counting the rest (D197).
func TestRecordingNotesAreBounded(t *testing.T) {
	r, err := NewScenarioRecorder(nil)
	if err != nil {
		t.Fatal(err)
	}
	var tags []any
	for i := range 10_000 {
		tags = append(tags, map[string]any{"id": -float64(i) - 1, "name": "bad"})
		r.sameWorld(fmt.Sprint("world-", i))
	}
	r.observe(map[string]any{"tags": tags})
	var notes []string
	if _, err := r.WriteScenario(&bytes.Buffer{}, ScenarioOptions{Name: "x", Note: func(s string) { notes = append(notes, s) }}); err != nil {
		t.Fatal(err)
	}
	all := strings.Join(notes, "\n")
	if len(notes) > maxNotes+5 || len(r.notes) > maxNotes || !strings.Contains(all, "and 9899 more notes like these") ||
		!strings.Contains(all, "left out of the recording: tags -1, tags -2, tags -3, tags -4, tags -5, and 9995 more") {
		t.Errorf("%d notes kept, %d logged (%.300s…): want at most %d and the rest counted", len(r.notes), len(notes), all, maxNotes)
	}
	if l := r.LeftOut(); l.ByKind["tags"] != 10_000 || l.Counted != 9995 {
		t.Errorf("LeftOut %+v, want 10000 tags, 9995 of them counted", l)
	}
}
