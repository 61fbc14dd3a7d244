package proxy_test

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/proxy"
)

// goRendering finds a decoded JSON value written as Go prints it: a map ("map[nested:obj]") or
// a slice ("[a b]", "[]").
var goRendering = regexp.MustCompile(`map\[|\[[^\[\]]*\s[^\[\]]*\]|"\[|\[\]`)

// notTextCase is a field of a record that a hostile upstream answered with a JSON value other
// than text, and what the log must say of it.
type notTextCase struct {
	record  string // how the notes name the record ("tag-300", "the 1st item (domain-1.com) of cart cart-1")
	field   string
	kind    string // the JSON kind the note names
	instead string // what the note says was written instead
}

// writeHostile records answers, writes the scenario as `mockserver proxy` does (the base world's
// ids taken, the file checked by the mock's loader) and returns the file and the notes.
func writeHostile(t *testing.T, answers map[string]string) (string, map[string]int, []string) {
	t.Helper()
	rec := recordAnswers(t, answers)
	base := baseIDs(t)
	var out bytes.Buffer
	var notes []string
	counts, err := rec.WriteScenario(&out, proxy.ScenarioOptions{Name: "hostile", Comment: "test", Seed: fixtures.DefaultSeed,
		Taken: func(kind string, id int64) bool { return base[kind][id] }, Check: func(b []byte) []string { return fixtures.ScenarioProblems(b, "hostile.yaml") },
		BaseCarts: baseCarts(t), Note: func(s string) { notes = append(notes, s) }})
	if err != nil {
		t.Fatal(err)
	}
	return out.String(), counts, notes
}

// checkNotText asserts each case has exactly one note of its record and field, naming the JSON
// kind and what was written instead, and that no note renders a decoded value as Go does.
func checkNotText(t *testing.T, notes []string, cases []notTextCase, inner []string) {
	t.Helper()
	all := strings.Join(notes, "\n")
	for _, c := range cases {
		// The record as this wording names it, and as the notes before named titles ("tag 300").
		names := []string{c.record, strings.Replace(c.record, "-", " ", 1)}
		var about []string
		for _, n := range notes {
			for _, name := range names {
				if strings.HasPrefix(n, name+": "+c.field+" ") {
					about = append(about, n)
					break
				}
			}
		}
		want := c.record + ": " + c.field + " is " + c.kind + ", not text: " + c.instead
		if len(about) != 1 || about[0] != want {
			t.Errorf("%s %s (%s): notes %q, want the one note %q", c.record, c.field, c.kind, about, want)
		}
	}
	for _, n := range notes {
		if goRendering.MatchString(n) {
			t.Errorf("a note renders a decoded JSON value as Go prints it: %s", n)
		}
		for _, s := range inner {
			if strings.Contains(n, s) {
				t.Errorf("a note quotes %q, a part of a value that is not text: %s", s, n)
			}
		}
		if strings.Contains(n, "left out of the recording") {
			t.Errorf("a record was left out where only a field was not text: %s", n)
		}
	}
	if t.Failed() {
		t.Logf("all notes:\n%s", all)
	}
}

// The audit's case: tags/list answering names that are an object and an array. The log said
// two things of each tag — that its name was empty or missing, and that it was left out
// "map[nested:obj]" — and quoted Go's rendering of the value. It says one thing: the name is an
// object (an array), not text, and the stand-in name written.
func TestRecordingSaysOnceThatANameIsNotText(t *testing.T) {
	file, counts, notes := writeHostile(t, map[string]string{
		"/services/operations/v1/operations/tags/list": `{"error":false,"message":"ok","data":{"tags":[{"id":300,"name":{"nested":"obj"}},{"id":301,"name":["a","b"]}]}}`,
	})
	checkNotText(t, notes, []notTextCase{
		{"tag-300", "name", "an object", `written as "Tag 300"`},
		{"tag-301", "name", "an array", `written as "Tag 301"`},
	}, []string{"nested", ":obj"})
	if len(notes) != 2 {
		t.Errorf("%d notes, want one per tag: %q", len(notes), notes)
	}
	if counts["tags"] != 2 || !strings.Contains(file, "Tag 300") || !strings.Contains(file, "Tag 301") {
		t.Errorf("counts %v, file:\n%s\nwant both tags under their stand-in names", counts, file)
	}
}

// A hostile upstream answers objects, arrays, numbers, booleans and null where every kind of
// record holds text: titles and names, descriptions, colours, icons, a card's status,
// enumerations and dates, comment bodies, a cart's status and currency, its items' domain,
// top-level domain and action. Each field gets one note naming the JSON kind and what the file
// holds instead; no record is lost (a required text gets a stand-in, as an empty one does), and
// no note quotes the value as Go renders it. A null where an optional text belongs is what the
// file writes too (no value): no note. A required text that is missing or blank is said in the
// same one line.
func TestRecordingNamesTheJSONKindOfValuesThatAreNotText(t *testing.T) {
	ok := func(data string) string { return `{"error":false,"message":"ok","data":{` + data + `}}` }
	file, counts, notes := writeHostile(t, map[string]string{
		"/services/operations/v1/operations/boards/list": ok(`"boards":[{"id":501,"title":{"x":"inner-board-title"},"description":["inner-board-desc","two words"]},` +
			`{"id":502,"title":42,"color":true},{"id":503,"title":null,"icon":{"k":["inner-icon"]},"description":null}],` +
			`"groups":[{"id":511,"title":["inner-group-title"],"description":7.5,"board_id":501},{"id":512,"title":false,"icon":[],"board_id":502}]`),
		"/services/operations/v1/operations/tags/list": ok(`"tags":[{"id":300,"name":{"nested":"obj"}},{"id":301,"name":["a","b"]},` +
			`{"id":302,"name":12,"color":{"c":"inner-tag-color"}},{"id":303,"name":true},{"id":304,"name":null},{"id":305}]`),
		"/services/operations/v1/operations/cards/list": ok(`"cards":[{"id":521,"title":{"t":"inner-card-title"},"description":["inner-card-desc"],"status":3,` +
			`"priority":{"p":"high"},"card_type":["tour"],"due_date":{"d":"2026-01-01"},"snoozed_until":true,"group_id":511,"tag_id":300},` +
			`{"id":522,"title":"A fine card","description":false}]`),
		"/services/operations/v1/operations/comments/list": ok(`"comments":[{"id":531,"card_id":522,"comment":{"body":"inner-comment"}},` +
			`{"id":532,"card_id":522,"comment":["inner-comment-2"]},{"id":533,"card_id":521,"comment":5},{"id":534,"card_id":522,"comment":null,"parent_comment_id":531},{"id":535,"card_id":522,"comment":" "}]`),
		"/services/domains/v1/domain-cart/remove": ok(`"cart":{"session_token":"tok-hostile","status":{"s":"open"},"currency":["inner-currency"],"items":[` +
			`{"id":541,"domain_name":{"d":"inner-domain.com"},"action":["renew"],"price":1},` +
			`{"id":542,"domain_name":"fine.com","tld":5,"action":{"a":"inner-action"},"years":1,"price":2},{"id":543,"price":3}]}`),
	})
	checkNotText(t, notes, []notTextCase{
		{"board-501", "title", "an object", `written as "Board 501"`},
		{"board-501", "description", "an array", "left out"},
		{"board-502", "title", "a number", `written as "Board 502"`},
		{"board-502", "color", "a boolean", "left out"},
		{"board-503", "title", "null", `written as "Board 503"`},
		{"board-503", "icon", "an object", "left out"},
		{"group-511", "title", "an array", `written as "Group 511"`},
		{"group-511", "description", "a number", "left out"},
		{"group-512", "title", "a boolean", `written as "Group 512"`},
		{"group-512", "icon", "an array", "left out"},
		{"tag-300", "name", "an object", `written as "Tag 300"`},
		{"tag-301", "name", "an array", `written as "Tag 301"`},
		{"tag-302", "name", "a number", `written as "Tag 302"`},
		{"tag-302", "color", "an object", "left out"},
		{"tag-303", "name", "a boolean", `written as "Tag 303"`},
		{"tag-304", "name", "null", `written as "Tag 304"`},
		{"card-521", "title", "an object", `written as "Card 521"`},
		{"card-521", "description", "an array", "left out"},
		{"card-521", "status", "a number", "left out"},
		{"card-521", "priority", "an object", "left out"},
		{"card-521", "card_type", "an array", "left out"},
		{"card-521", "due_date", "an object", "left out"},
		{"card-521", "snoozed_until", "a boolean", "left out"},
		{"card-522", "description", "a boolean", "left out"},
		{"comment-531", "comment", "an object", `written as "Comment 531"`},
		{"comment-532", "comment", "an array", `written as "Comment 532"`},
		{"comment-533", "comment", "a number", `written as "Comment 533"`},
		{"comment-534", "comment", "null", `written as "Comment 534"`},
		{"cart-1", "status", "an object", "left out"},
		{"cart-1", "currency", "an array", "left out"},
		{"the 1st item (domain-1.example) of cart cart-1", "domain_name", "an object", `written as "domain-1.example"`},
		{"the 1st item (domain-1.example) of cart cart-1", "action", "an array", "left out"},
		{"the 2nd item (domain-2.com) of cart cart-1", "tld", "a number", `left out: the domain is written as "domain-2.com"`},
		{"the 2nd item (domain-2.com) of cart cart-1", "action", "an object", "left out"},
	}, []string{"inner-", "nested", "two words", "7.5", "renew", "tour"})
	// A required text missing or blank is said in the same one line per record and field.
	for _, want := range []string{`tag-305: name is missing, which the mock refuses: written as "Tag 305"`,
		`comment-535: comment is empty, which the mock refuses: written as "Comment 535"`,
		`the 3rd item (domain-3.example) of cart cart-1: domain_name is missing: written as "domain-3.example"`} {
		if !slices.Contains(notes, want) {
			t.Errorf("notes lack %q", want)
		}
	}
	for _, n := range notes {
		if strings.HasPrefix(n, "board-503: description") {
			t.Errorf("a null description, which the file writes as none too, was noted: %s", n)
		}
	}
	want := map[string]int{"boards": 3, "groups": 2, "tags": 6, "cards": 2, "comments": 5, "carts": 1}
	for kind, n := range want {
		if counts[kind] != n {
			t.Errorf("%d %s written, want %d (no record is lost for a field that is not text):\n%s", counts[kind], kind, n, file)
		}
	}
	for _, s := range []string{"Board 501", "Group 512", "Tag 304", "Card 521", "Comment 534", "domain-1.example", "domain-2.com"} {
		if !strings.Contains(file, s) {
			t.Errorf("the file lacks %q:\n%s", s, file)
		}
	}
}
