package proxy_test

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/proxy"
)

// shiftedBy is what a relay in front of the mock adds to every id: 2^60+1, past what JSON's
// numbers hold exactly, so the ids it answers differ from their float64 roundings.
const shiftedBy uint64 = 1<<60 + 1

// shiftedList answers data.<key> with n records whose ids are the mock's 1..n shifted by
// shiftedBy, and returns the ids as written.
func shiftedList(key string, n int) (string, []string) {
	var recs, ids []string
	for i := 1; i <= n; i++ {
		id := strconv.FormatUint(shiftedBy+uint64(i), 10)
		ids = append(ids, id)
		recs = append(recs, fmt.Sprintf(`{"id":%s,"name":"N%d","title":"T%d"}`, id, i, i))
	}
	return `{"error":false,"message":"ok","data":{"` + key + `":[` + strings.Join(recs, ",") + `]}}`, ids
}

// Each record left out of a recording for its id is named in the log by its id as the upstream
// wrote it (never a float64's rounding, which names another record), the first few of one
// reason by name and the rest counted, so the log stays short however many come (D197); one
// line per kind with no id and no count said neither which nor how many.
func TestRecordingNamesAndCountsTheRecordsLeftOut(t *testing.T) {
	tags, tagIDs := shiftedList("tags", 14)
	cards, cardIDs := shiftedList("cards", 74)
	rec := recordAnswers(t, map[string]string{
		"/services/operations/v1/operations/tags/list":  tags,
		"/services/operations/v1/operations/cards/list": cards,
	})
	base := baseIDs(t)
	var notes []string
	counts, err := rec.WriteScenario(&bytes.Buffer{}, proxy.ScenarioOptions{Name: "shifted", Comment: "test", Seed: fixtures.DefaultSeed,
		Taken: func(kind string, id int64) bool { return base[kind][id] }, Check: func(b []byte) []string { return fixtures.ScenarioProblems(b, "shifted.yaml") },
		BaseCarts: baseCarts(t), Note: func(s string) { notes = append(notes, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if counts["tags"] != 0 || counts["cards"] != 0 {
		t.Fatalf("the file holds %d tags and %d cards, want none: every id is past 2^53-1", counts["tags"], counts["cards"])
	}
	if l := rec.LeftOut(); l.ByKind["tags"] != 14 || l.ByKind["cards"] != 74 || l.Total() != 88 {
		t.Errorf("LeftOut %+v, want 14 tags and 74 cards", l)
	}
	if len(notes) > 6 {
		t.Errorf("%d notes for two kinds of records left out, want the log bounded:\n%s", len(notes), strings.Join(notes, "\n"))
	}
	for _, tc := range []struct {
		kind string
		ids  []string
	}{{"tags", tagIDs}, {"cards", cardIDs}} {
		var about []string
		for _, n := range notes {
			if strings.Contains(n, tc.kind+" ") && strings.Contains(n, "past 9007199254740991") {
				about = append(about, n)
			}
		}
		if len(about) != 1 {
			t.Errorf("%s: notes %q, want one note of the ids past 2^53-1", tc.kind, about)
			continue
		}
		named := regexp.MustCompile(`\b`+tc.kind+` (\d+)`).FindAllStringSubmatch(about[0], -1)
		more := 0
		if m := regexp.MustCompile(`and (\d+) more`).FindStringSubmatch(about[0]); m != nil {
			more, _ = strconv.Atoi(m[1])
		}
		if len(named) == 0 || len(named)+more != len(tc.ids) || len(named) > 10 {
			t.Errorf("%s: the note names %d records and counts %d more, want a few of the %d named and the rest counted:\n%s", tc.kind, len(named), more, len(tc.ids), about[0])
		}
		for i, m := range named {
			if i < len(tc.ids) && m[1] != tc.ids[i] {
				t.Errorf("%s: the note names %s %s, want %s as the upstream wrote it:\n%s", tc.kind, tc.kind, m[1], tc.ids[i], about[0])
			}
		}
	}
}

// An id of megabytes of digits (a valid JSON number past 2^53, 1.000…e20) is named cut short,
// and remembered by a hash: the log and the names kept do not grow with what the upstream
// writes, and two such ids differing only at their end are still two records.
func TestRecordingNamesHugeIDsCutShort(t *testing.T) {
	huge := func(exp int) string { return "1." + strings.Repeat("0", 200000) + "e" + strconv.Itoa(exp) }
	body := `{"error":false,"message":"ok","data":{"tags":[{"id":` + huge(20) + `,"name":"a"},{"id":` + huge(21) + `,"name":"b"},{"id":` + huge(20) + `,"name":"a"}]}}`
	rec := recordAnswers(t, map[string]string{"/services/operations/v1/operations/tags/list": body})
	base := baseIDs(t)
	var notes []string
	if _, err := rec.WriteScenario(&bytes.Buffer{}, proxy.ScenarioOptions{Name: "huge", Comment: "test", Seed: fixtures.DefaultSeed,
		Taken: func(kind string, id int64) bool { return base[kind][id] }, Check: func(b []byte) []string { return fixtures.ScenarioProblems(b, "huge.yaml") },
		BaseCarts: baseCarts(t), Note: func(s string) { notes = append(notes, s) }}); err != nil {
		t.Fatal(err)
	}
	if l := rec.LeftOut(); l.ByKind["tags"] != 2 {
		t.Errorf("LeftOut %+v, want 2 tags (the third repeats the first)", l)
	}
	for _, n := range notes {
		if len(n) > 2000 {
			t.Errorf("a note of %d bytes: the id was not cut", len(n))
		}
	}
}
