package proxy_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/internal/text"
	"github.com/opsapi/mocktoolkit/proxy"
)

// upstreamAnswering answers every request with body.
func upstreamAnswering(body string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	})
}

func TestScenarioRecorderScrubsPersonalDataAndKeepsFreeIDs(t *testing.T) {
	rec, err := proxy.NewScenarioRecorder(upstreamAnswering(`{"error":false,"message":"ok","data":{"token":"tok-5f2a9c","name":"Annabel Lee","email":"ann@corp.example",` +
		`"cards":[{"id":7,"title":"Call Annabel Lee at ann@corp.example","priority":"extreme","group_id":3,"owner_id":12,"due_date":"2026-05-01 10:00:00"},{"id":9,"title":"Master","is_master":true},` +
		`{"id":10,"title":"Ask Annabel: mailto:jane.doe%40acme.com or josé@bücher.de","group_id":3},{"id":11,"title":"ANNABEL LEE, or lee, annabel","group_id":3,"unique_identifier":"seo-1"},{"id":12,"title":"/u?q=Tom%20Annabel%20Annabel","group_id":3}],` +
		`"comments":[{"id":4,"card_id":7,"comment":"ok"},{"id":5,"card_id":7,"comment":"re","parent_comment_id":4}],` +
		`"cart":{"session_token":"secret-cart-token","status":"locked","currency":"EUR","items":[{"id":31,"domain_name":"annlee.shop","tld":"shop","action":"renew","years":2,"price":20.5}]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	res, err := http.Post(srv.URL+"/v1/authenticate", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	var out bytes.Buffer
	taken := func(kind string, id int64) bool { return kind == "cards" && id == 7 || kind == "groups" && id == 3 } // the empty world holds group 3
	var notes []string
	if _, err := rec.WriteScenario(&out, proxy.ScenarioOptions{Name: proxy.ScenarioName("/tmp/staging data.yaml"), Comment: "test", Seed: 5, Taken: taken, Note: func(s string) { notes = append(notes, s) }}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(notes, "\n"), "unique_identifier is left out") {
		t.Errorf("the log does not name the card field left out: %q", notes)
	}
	got := out.String()
	for _, want := range []string{"name: staging-data", "seed: 5", "title: Call Person 1 at person-1@example.com", "owner: member",
		"due_date: \"2026-05-01T10:00:00Z\"", "ref: group-3", "reply_to: comment-4", "id: 4\n",
		"ref: cart-1", "status: locked", "currency: EUR", "domain_name: domain-1.shop", "id: 31", "action: renew", "years: 2", "price: 20.5"} {
		if !strings.Contains(got, want) {
			t.Errorf("the scenario lacks %q:\n%s", want, got)
		}
	}
	for _, leak := range []string{"Annabel", "ANNABEL", "annabel", "ann@corp.example", "extreme", "Master", "id: 7\n", "token", "annlee", "jane.doe", "josé", "bücher"} {
		if strings.Contains(got, leak) {
			t.Errorf("the scenario holds %q:\n%s", leak, got)
		}
	}
}

// A reference that names no record (group_id -3, card_id 0) makes no record of its own in the
// scenario: it is left out, and the log says so.
func TestScenarioRecorderLeavesOutReferencesThatAreNoIDs(t *testing.T) {
	rec, err := proxy.NewScenarioRecorder(upstreamAnswering(`{"error":false,"message":"ok","data":{` +
		`"cards":[{"id":7,"title":"A card","group_id":-3},{"id":8,"title":"Another","group_id":0}],` +
		`"comments":[{"id":4,"card_id":0,"comment":"ok"}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	res, err := http.Post(srv.URL+"/services/operations/v1/operations/cards/list", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	var out bytes.Buffer
	var notes []string
	if _, err := rec.WriteScenario(&out, proxy.ScenarioOptions{Name: "refs", Seed: 1, Taken: func(string, int64) bool { return false }, Note: func(s string) { notes = append(notes, s) }}); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if strings.Contains(got, "group--3") || strings.Contains(got, "group-0") || strings.Contains(got, "id: -3") {
		t.Errorf("a group was made of a reference that is no id:\n%s", got)
	}
	if !strings.Contains(strings.Join(notes, "\n"), "group_id -3 is left out") {
		t.Errorf("the log does not say group_id -3 was left out: %q", notes)
	}
}

// What the recorder cannot keep it names in the log, never drops silently: an answer holding a
// number past float64 (its records are all lost), a reply whose parent the recording does not
// hold before it, a cart status the mock does not take.
func TestScenarioRecorderNamesWhatItDrops(t *testing.T) {
	for _, c := range []struct{ path, answer, want string }{
		{"/services/operations/v1/operations/cards/list", `{"error":false,"message":"ok","data":{"cards":[{"id":7,"title":"A","score":1e400}]}}`, "past the largest a JSON reader keeps"},
		{"/services/operations/v1/operations/comments/list", `{"error":false,"message":"ok","data":{"comments":[{"id":4,"card_id":7,"comment":"re","parent_comment_id":9}],"cards":[{"id":7,"title":"A"}]}}`, "reply_to left out"},
		{"/services/operations/v1/operations/tags/list", `{"error":false,"message":"ok","data":{"tags":[{"id":1` + strings.Repeat("0", 500000) + `}]}}`, "past the largest a JSON reader keeps"},
		{"/services/domains/v1/domain-cart/remove", `{"error":false,"message":"ok","data":{"cart":{"session_token":"t1234","status":"shipped","currency":"USD","items":[]}}}`, `status "shipped" left out`},
		{"/services/operations/v1/operations/cards/list", `{"error":false,"message":"ok","data":{"tags":[{"id":77,"name":"T77","position":2147483648}],"cards":[{"id":8,"title":"A","tag_id":77}]}}`, "position 2147483648 left out"},
	} {
		rec, err := proxy.NewScenarioRecorder(upstreamAnswering(c.answer))
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(rec)
		res, err := http.Post(srv.URL+c.path, "application/json", strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		srv.Close()
		var notes []string
		if _, err := rec.WriteScenario(io.Discard, proxy.ScenarioOptions{Name: "drops", Seed: 1, Taken: func(string, int64) bool { return false }, Note: func(s string) { notes = append(notes, s) }}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(strings.Join(notes, "\n"), c.want) {
			t.Errorf("%s answering %s: notes %q, want one saying %q", c.path, text.Clip(c.answer, 200), text.Clip(strings.Join(notes, "|"), 400), c.want)
		}
		for _, n := range notes {
			if len(n) > 2000 { // a log line quoting a 500 000-digit number was 500 KB
				t.Errorf("%s: a note of %d bytes: %s", c.path, len(n), text.Clip(n, 200))
			}
		}
	}
}

// A recording keeps one mock world's records, the first it saw: worlds hold records of the same
// ids, and merged, one world's card 50 overwrote another's. The others' answers are named in
// the log.
func TestScenarioRecorderKeepsOneWorld(t *testing.T) {
	answers := map[string]string{
		"ra": `{"error":false,"message":"ok","data":{"cards":[{"id":50,"title":"card of world ra"}]}}`,
		"rb": `{"error":false,"message":"ok","data":{"cards":[{"id":50,"title":"card of world rb"}]}}`,
	}
	rec, err := proxy.NewScenarioRecorder(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, answers[r.Header.Get("X-Mock-World")])
	}))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	for _, world := range []string{"ra", "rb"} {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/services/operations/v1/operations/cards/list", strings.NewReader("{}"))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Mock-World", world)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	var out bytes.Buffer
	var notes []string
	if _, err := rec.WriteScenario(&out, proxy.ScenarioOptions{Name: "worlds", Seed: 1, Taken: func(string, int64) bool { return false }, Note: func(s string) { notes = append(notes, s) }}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "card of world ra") || strings.Contains(out.String(), "card of world rb") {
		t.Errorf("the scenario does not hold world ra's card alone:\n%s", out.String())
	}
	if !strings.Contains(strings.Join(notes, "\n"), `answers of mock world "rb" left out`) {
		t.Errorf("notes %q do not name world rb's answers left out", notes)
	}
}

// The placeholders a recording makes for records no answer showed (a card's group, the board
// of such groups) are not logged as records whose title was empty, and the log never names a
// title the file does not hold ("… written as "Groups whose board was not shown 0"").
func TestScenarioRecorderDoesNotLogItsPlaceholdersAsChanges(t *testing.T) {
	rec, err := proxy.NewScenarioRecorder(upstreamAnswering(`{"error":false,"message":"ok","data":{"cards":[{"id":8,"title":"A","group_id":31},{"id":9,"title":"B","group_id":32}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(rec)
	res, err := http.Post(srv.URL+"/services/operations/v1/operations/cards/list", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	srv.Close()
	var notes []string
	var out strings.Builder
	if _, err := rec.WriteScenario(&out, proxy.ScenarioOptions{Name: "placeholders", Seed: 1, Taken: func(string, int64) bool { return false }, Note: func(s string) { notes = append(notes, s) }}); err != nil {
		t.Fatal(err)
	}
	all := strings.Join(notes, "\n")
	if strings.Contains(all, "which the mock refuses") || strings.Contains(all, "not text") || strings.Contains(all, "not shown 0") {
		t.Errorf("notes %q log the recording's own placeholders as changes", all)
	}
	if !strings.Contains(out.String(), "Groups whose board was not shown") {
		t.Errorf("the file lacks the placeholder board:\n%s", out.String())
	}
}
