package proxy_test

import (
	"bytes"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/proxy"
	"go.yaml.in/yaml/v3"
)

// An upstream's values the mock cannot load — a board id beyond 2^53-1, a cart item of 200
// years — are left out of the recording with a note naming them; the rest is written and the
// file loads with the loader `mockserver --scenario` uses (D197).
func TestScenarioRecorderLeavesOutWhatTheMockRefuses(t *testing.T) {
	answers := map[string]string{
		"/services/operations/v1/operations/boards/list": `{"error":false,"message":"ok","data":{"boards":[{"id":9007199254740993,"title":"Huge"},{"id":5,"title":"Fine"}]}}`,
		"/services/operations/v1/operations/cards/list":  `{"error":false,"message":"ok","data":{"cards":[{"id":904,"title":"` + strings.Repeat("t", 300) + `","priority":"mega"},{"id":0,"title":"Zero"},{"id":-5,"title":"Minus"},{"id":"7","title":"Text id"},{"id":null,"title":"Null id"},{"id":905,"title":"Odd dates","due_date":"0000-00-00 00:00:00","snoozed_until":"9999-12-31T23:59:59-01:00"},{"id":906,"title":"<<"},{"id":907,"title":"Year zero","due_date":"0000-01-01T00:00:00Z"}]}}`,
		"/services/domains/v1/domain-cart/remove": `{"error":false,"message":"ok","data":{"cart":{"session_token":"cart-tok-1","status":"open","currency":"USD",` +
			`"items":[{"id":41,"domain_name":"long.com","tld":"com","action":"register","years":200,"price":1},{"id":42,"domain_name":"short.com","tld":"com","action":"register","years":1,"price":2},` +
			`{"id":43,"domain_name":"odd.com","tld":"com","action":"buy","years":1,"price":3}]}}}`,
	}
	rec, err := proxy.NewScenarioRecorder(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(answers[r.URL.Path]))
	}))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	for path := range answers {
		res, err := http.Post(srv.URL+path, "application/json", strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	var out bytes.Buffer
	var notes []string
	base := baseIDs(t)
	counts, err := rec.WriteScenario(&out, proxy.ScenarioOptions{Name: "rec", Comment: "test", Taken: func(kind string, id int64) bool { return base[kind][id] }, // the empty world holds board 5
		Check: func(b []byte) []string { return fixtures.ScenarioProblems(b, "rec.yaml") }, BaseCarts: baseCarts(t),
		Note: func(s string) { notes = append(notes, s) }})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "rec.yaml")
	if err := os.WriteFile(file, out.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := fixtures.LoadScenarioFile(file); err != nil {
		t.Fatalf("the recording does not load: %v\n%s", err, out.String())
	}
	got, said := out.String(), strings.Join(notes, "\n")
	// A date-time the API takes is kept, year 0000 included (D73).
	for _, want := range []string{"title: Fine", "id: 42", "years: 1\n", "title: Odd dates", `title: "<<"`, "0000-01-01T00:00:00Z"} { // "<<" plain is a merge key
		if !strings.Contains(got, want) {
			t.Errorf("the recording lacks %q:\n%s", want, got)
		}
	}
	for _, gone := range []string{"Huge", "9007199254740992", "years: 200", "id: 41", "action: buy"} {
		if strings.Contains(got, gone) {
			t.Errorf("the recording holds %q:\n%s", gone, got)
		}
	}
	for _, want := range []string{"card-904: title cut to 255 characters", `card-904: priority "mega" left out`, "cards 0", "cards -5", `cards "7"`, "cards null", `card-905: due_date "0000-00-00 00:00:00" left out`, "card-905: snoozed_until"} {
		if !strings.Contains(said, want) {
			t.Errorf("the notes do not say %q:\n%s", want, said)
		}
	}
	if !strings.Contains(said, "boards with an id past 9007199254740991") || !strings.Contains(said, "boards 9007199254740993") || !strings.Contains(said, "1st item") || !strings.Contains(said, "cart-1") {
		t.Errorf("the notes do not name the records left out:\n%s", said)
	}
	if l := rec.LeftOut(); !maps.Equal(l.ByKind, map[string]int{"boards": 1, "cards": 4, "cart items": 2}) || l.Counted != 0 {
		t.Errorf("LeftOut %+v, want 1 board and 4 cards refused as seen, 2 cart items the loader refused, all named", l)
	}
	var held map[string]any
	if err := yaml.Unmarshal(out.Bytes(), &held); err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"boards", "groups", "tags", "cards", "comments", "carts"} {
		list, _ := held[kind].([]any)
		if counts[kind] != len(list) {
			t.Errorf("WriteScenario counts %d %s, the file holds %d", counts[kind], kind, len(list))
		}
	}
}

// baseCarts is the number of carts of the empty world the recordings are built on.
func baseCarts(t *testing.T) int {
	t.Helper()
	w, err := fixtures.BuildScenario("empty", fixtures.DefaultSeed, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return len(w.State.Carts)
}
