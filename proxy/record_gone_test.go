package proxy_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/proxy"
)

// exchange is one call through a recorder: the request's path and body, the upstream's
// status and answer.
type exchange struct {
	path, body string
	status     int
	answer     string
}

// recordExchanges passes each exchange, in order, through a recorder whose upstream answers it
// as the exchange says, and returns the recorder.
func recordExchanges(t *testing.T, calls []exchange) *proxy.ScenarioRecorder {
	t.Helper()
	var cur exchange
	rec, err := proxy.NewScenarioRecorder(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(cur.status)
		_, _ = w.Write([]byte(cur.answer))
	}))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	for _, c := range calls {
		cur = c
		res, err := http.Post(srv.URL+c.path, "application/json", strings.NewReader(c.body))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	return rec
}

// writeChecked writes rec's scenario as the proxy does at stop, checked by the mock's loader,
// and returns the file and the log's notes.
func writeChecked(t *testing.T, rec *proxy.ScenarioRecorder) (string, []string) {
	t.Helper()
	base := baseIDs(t)
	var out bytes.Buffer
	var notes []string
	if _, err := rec.WriteScenario(&out, proxy.ScenarioOptions{Name: "gone", Comment: "test", Seed: fixtures.DefaultSeed,
		Taken: func(kind string, id int64) bool { return base[kind][id] }, Check: func(b []byte) []string { return fixtures.ScenarioProblems(b, "gone.yaml") },
		BaseCarts: baseCarts(t), Note: func(s string) { notes = append(notes, s) }}); err != nil {
		t.Fatal(err)
	}
	return out.String(), notes
}

// noteWith is the one note holding every part, "" when none does.
func noteWith(notes []string, parts ...string) string {
	for _, n := range notes {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(n, p)
		}
		if all {
			return n
		}
	}
	return ""
}

const (
	pathBoards  = "/services/operations/v1/operations/boards/list"
	pathCards   = "/services/operations/v1/operations/cards/list"
	pathDelete  = "/services/operations/v1/operations/groups/delete"
	pathTags    = "/services/operations/v1/operations/tags/list"
	pathComment = "/services/operations/v1/operations/comments/list"
)

func ok(data string) string { return `{"error":false,"message":"ok","data":{` + data + `}}` }

// A group a successful groups/delete removed, and a record the upstream showed deleted, are not
// written back alive: each is left out, and so are the records naming them (the deleted group's
// cards and their comments), every one named in the log. A delete the upstream refused (404, or
// 200 with error:true) removes nothing.
func TestRecordingLeavesOutDeletedRecords(t *testing.T) {
	cards := `"cards":[{"id":21,"title":"A","group_id":11,"deleted_at":null},{"id":28,"title":"B","group_id":11,"deleted_at":null},` +
		`{"id":35,"title":"C","group_id":11,"deleted_at":null},{"id":40,"title":"D","group_id":12,"deleted_at":null},` +
		`{"id":41,"title":"Gone","group_id":12,"deleted_at":"2026-11-22T09:30:00Z"}]`
	rec := recordExchanges(t, []exchange{
		{pathBoards, `{}`, 200, ok(`"boards":[{"id":1,"title":"Ops"}],"groups":[{"id":11,"title":"G11","board_id":1,"deleted_at":null},{"id":12,"title":"G12","board_id":1,"deleted_at":null},{"id":13,"title":"G13","board_id":1,"deleted_at":null}]`)},
		{pathCards, `{}`, 200, ok(cards)},
		{pathComment, `{"card_id":21}`, 200, ok(`"comments":[{"id":7,"card_id":21,"comment":"hi","deleted_at":null}]`)},
		{pathDelete, `{"id":11}`, 200, `{"error":false,"message":"Group deleted successfully.","data":[]}`},
		{pathDelete, `{"id":12}`, 200, `{"error":true,"message":"refused","data":[]}`},
		{pathDelete, `{"id":13}`, 404, `{"error":true,"message":"not found","data":[]}`},
		{pathDelete, `{"id":99}`, 200, `{"error":false,"message":"Group deleted successfully.","data":[]}`},
		{pathCards, `{}`, 200, ok(`"cards":[{"id":40,"title":"D","group_id":12,"deleted_at":null},{"id":50,"title":"E","group_id":99}]`)},
	})
	file, notes := writeChecked(t, rec)
	for _, gone := range []string{"ref: group-11", "ref: card-21", "ref: card-28", "ref: card-35", "ref: card-41", "ref: comment-7", "ref: card-50", "ref: group-99"} {
		if strings.Contains(file, gone) {
			t.Errorf("the file holds %s, which the upstream deleted or which names a deleted record:\n%s", gone, file)
		}
	}
	for _, kept := range []string{"ref: group-12", "ref: group-13", "ref: card-40"} {
		if !strings.Contains(file, kept) {
			t.Errorf("the file lacks %s, which no successful delete removed:\n%s", kept, file)
		}
	}
	for _, want := range [][]string{{"groups/delete", "groups 11", "groups 99"}, {"cards 21", "cards 28", "cards 35", "cards 50", "group was left out"},
		{"deleted_at", "cards 41"}, {"comments 7", "card was left out"}} {
		if noteWith(notes, want...) == "" {
			t.Errorf("no note names %q:\n%s", want, strings.Join(notes, "\n"))
		}
	}
	if l := rec.LeftOut(); l.ByKind["groups"] != 2 || l.ByKind["cards"] != 5 || l.ByKind["comments"] != 1 {
		t.Errorf("LeftOut %+v, want 2 groups, 5 cards and 1 comment", l.ByKind)
	}
}

// A later answer of a record wins, its deleted_at as any field: a record shown deleted and then
// shown with deleted_at null is written; one shown alive and then deleted is not.
func TestRecordingLetsALaterAnswerOfADeletedRecordWin(t *testing.T) {
	rec := recordExchanges(t, []exchange{
		{pathTags, `{}`, 200, ok(`"tags":[{"id":5,"name":"Back","deleted_at":"2026-11-22T09:30:00Z"},{"id":6,"name":"Gone","deleted_at":null}]`)},
		{pathTags, `{}`, 200, ok(`"tags":[{"id":5,"name":"Back","deleted_at":null},{"id":6,"name":"Gone","deleted_at":"2026-11-22 09:30:00"}]`)},
	})
	file, notes := writeChecked(t, rec)
	if !strings.Contains(file, "ref: tag-5") || strings.Contains(file, "ref: tag-6") {
		t.Errorf("want tag 5 written (its last answer shows it alive) and tag 6 left out:\n%s", file)
	}
	if noteWith(notes, "tags 6", "deleted_at") == "" || noteWith(notes, "tags 5") != "" {
		t.Errorf("want a note naming tags 6 only:\n%s", strings.Join(notes, "\n"))
	}
}

// A tag or group whose is_active is false cannot be written so (the scenario has no is_active
// for them): it is left out, named in the log, rather than written active; a card tagged with
// such a tag stays, untagged with a note, and a card, which holds is_active, keeps its false.
func TestRecordingLeavesOutInactiveRecordsTheScenarioCannotHold(t *testing.T) {
	rec := recordExchanges(t, []exchange{
		{pathTags, `{}`, 200, ok(`"tags":[{"id":5,"name":"Off","is_active":false,"deleted_at":null},{"id":6,"name":"On","is_active":true,"deleted_at":null}]`)},
		{pathBoards, `{}`, 200, ok(`"boards":[{"id":1,"title":"Ops","is_active":true}],"groups":[{"id":11,"title":"Idle","board_id":1,"is_active":false},{"id":12,"title":"G12","board_id":1,"is_active":true}]`)},
		{pathCards, `{}`, 200, ok(`"cards":[{"id":21,"title":"A","group_id":12,"tag_id":5,"is_active":false},{"id":22,"title":"B","group_id":11,"tag_id":6}]`)},
	})
	file, notes := writeChecked(t, rec)
	for _, gone := range []string{"ref: tag-5", "ref: group-11", "ref: card-22"} {
		if strings.Contains(file, gone) {
			t.Errorf("the file holds %s, which would come back active or names an inactive group:\n%s", gone, file)
		}
	}
	for _, kept := range []string{"ref: tag-6", "ref: group-12", "ref: card-21", "is_active: false"} {
		if !strings.Contains(file, kept) {
			t.Errorf("the file lacks %q:\n%s", kept, file)
		}
	}
	for _, want := range [][]string{{"is_active", "tags 5"}, {"is_active", "groups 11"}, {"cards 22", "group was left out"}, {"card-21", "tag 5"}} {
		if noteWith(notes, want...) == "" {
			t.Errorf("no note names %q:\n%s", want, strings.Join(notes, "\n"))
		}
	}
}
