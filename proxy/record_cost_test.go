package proxy

import (
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// discardWriter is a ResponseWriter keeping nothing of the body, so the bytes a test counts
// are the recorder's.
type discardWriter struct{ h http.Header }

func (d *discardWriter) Header() http.Header         { return d.h }
func (d *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (d *discardWriter) WriteHeader(int)             {}

// recordOnce passes one answer of tags/list through r and returns the bytes allocated meanwhile.
func recordOnce(t *testing.T, answer []byte) (*ScenarioRecorder, uint64) {
	t.Helper()
	r, err := NewScenarioRecorder(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(answer)
	}))
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, "/services/operations/v1/operations/tags/list", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r.ServeHTTP(&discardWriter{h: http.Header{}}, req)
	runtime.ReadMemStats(&after)
	return r, after.TotalAlloc - before.TotalAlloc
}

// An answer whose JSON would take far more memory decoded than its bytes is not recorded, and
// the log says why (D95): 21.6 MB of {"id":1} objects took the proxy from 33 MB to 760 MB while
// decoded, a 64 MiB one 2-3 GB.
func TestRecordingSkipsAnAnswerTooCostlyToDecode(t *testing.T) {
	answer := []byte(`{"error":false,"message":"x","data":{"tags":[` + strings.TrimSuffix(strings.Repeat(`{"id":1},`, 2_400_000), ",") + `]}}`)
	r, alloc := recordOnce(t, answer)
	// Decoded, the answer allocated about 1 GB; the recorder's copy of its bytes (with the
	// buffer's growth) is under 64 MB.
	if alloc > 200<<20 {
		t.Errorf("handling a %d MB answer allocated %d MB: want under 200 MB, the answer left undecoded", len(answer)>>20, alloc>>20)
	}
	t.Logf("a %d MB answer: %d MB allocated while handled", len(answer)>>20, alloc>>20)
	if r.kept != 0 {
		t.Errorf("kept %d records of an answer too costly to decode", r.kept)
	}
	var said string
	for n := range r.notes {
		said += n + "\n"
	}
	if !strings.Contains(said, "an answer of /services/operations/v1/operations/tags/list was not recorded") || !strings.Contains(said, "MiB of memory") {
		t.Errorf("notes %q do not say the answer was not recorded and why", said)
	}
}

// A large answer of ordinary records is still recorded whole: 40 000 cards with their usual
// fields are well within the cost the recorder decodes.
func TestRecordingKeepsALargeOrdinaryAnswer(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"error":false,"message":"ok","data":{"cards":[`)
	for i := 1; i <= 40_000; i++ {
		if i > 1 {
			b.WriteByte(',')
		}
		b.WriteString(`{"id":` + strconv.Itoa(i) + `,"title":"Card number ` + strconv.Itoa(i) + ` of the board","group_id":12,"board_id":3,"owner_id":44,"priority":"high","status":"open",` +
			`"due_date":"2026-05-01 10:00:00","created_at":"2026-01-01 10:00:00","updated_at":"2026-01-02 10:00:00","description":"Some description of moderate length here",` +
			`"position":5,"is_master":false,"tags":[{"id":1,"name":"x"},{"id":2,"name":"y"}]}`)
	}
	b.WriteString(`]}}`)
	r, _ := recordOnce(t, []byte(b.String()))
	if r.kept != 40_000 {
		t.Errorf("kept %d of 40000 cards", r.kept)
	}
	for n := range r.notes {
		if strings.Contains(n, "not recorded") {
			t.Errorf("note %q for an ordinary answer", n)
		}
	}
}

// The scan counts JSON's structure outside strings only: braces, commas and colons inside a
// string (escaped quotes included) cost nothing.
func TestDecodedCostCountsStructureOutsideStrings(t *testing.T) {
	inString := []byte(`{"a":"` + strings.Repeat(`\"{[,:`, 1000) + `"}`)
	if decodedCostOver(inString, costObject+costElement) {
		t.Error("characters inside a string were counted")
	}
	if !decodedCostOver([]byte(`[{},{}]`), costArray+2*costObject) {
		t.Error("two objects in an array were not counted past their cost")
	}
}
