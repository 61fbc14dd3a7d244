package proxy_test

import (
	"bytes"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/proxy"
)

// largestID is the largest id the mock takes (2^53-1, D197).
const largestID int64 = 1<<53 - 1

// baseIDs lists the ids the base world of a recording (the empty scenario of the default seed)
// holds, by the kinds ScenarioOptions.Taken names, as mockserver proxy reads them.
func baseIDs(t *testing.T) map[string]map[int64]bool {
	t.Helper()
	w, err := fixtures.BuildScenario("empty", fixtures.DefaultSeed, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return fixtures.IDsByKind(w.State)
}

// recordAnswers passes one request of each path, in their order, through a recorder whose upstream answers it
// with answers[path], and returns the recorder.
func recordAnswers(t *testing.T, answers map[string]string) *proxy.ScenarioRecorder {
	t.Helper()
	rec, err := proxy.NewScenarioRecorder(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(answers[r.URL.Path]))
	}))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	for _, path := range slices.Sorted(maps.Keys(answers)) { // carts are written in the order seen
		res, err := http.Post(srv.URL+path, "application/json", strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	return rec
}

// hostileAnswers shows, for every kind the recorder writes with an id, a record at the largest
// id, records whose ids the base world holds, and records on the ids just past the base's, where
// a numbering after the largest id (or after the base's) would land.
func hostileAnswers() map[string]string {
	m := fmt.Sprint(largestID)
	ok := func(data string) string { return `{"error":false,"message":"ok","data":{` + data + `}}` }
	return map[string]string{
		"/services/operations/v1/operations/boards/list": ok(`"boards":[{"id":1,"title":"Board one"},{"id":6,"title":"Board six"},{"id":` + m + `,"title":"Board max"}],` +
			`"groups":[{"id":1,"title":"Group one","board_id":1},{"id":17,"title":"Group seventeen","board_id":` + m + `},` +
			`{"id":21,"title":"Group boardless"},{"id":` + m + `,"title":"Group max","board_id":6}]`),
		"/services/operations/v1/operations/tags/list": ok(`"tags":[{"id":7,"name":"Tag seven"},{"id":10,"name":"Tag ten"},{"id":` + m + `,"name":"Tag max"}]`),
		"/services/operations/v1/operations/cards/list": ok(`"cards":[{"id":1,"title":"Card one","group_id":1,"tag_id":7},{"id":2,"title":"Card two","group_id":` + m + `,"tag_id":` + m + `},` +
			`{"id":3,"title":"Card three"},{"id":50,"title":"Card fifty"},{"id":` + m + `,"title":"Card max","group_id":1,"tag_id":7}],` +
			`"cart":{"session_token":"tok-a","status":"open","currency":"USD","items":[{"id":1,"domain_name":"a.com","price":1},{"id":` + m + `,"domain_name":"b.com","price":1},{"id":40,"domain_name":"c.com","price":1}]}`),
		"/services/operations/v1/operations/comments/list": ok(`"comments":[{"id":72,"card_id":1,"comment":"first"},{"id":73,"card_id":1,"comment":"reply","parent_comment_id":72},` +
			`{"id":79,"card_id":` + m + `,"comment":"next free"},{"id":` + m + `,"card_id":1,"comment":"last","parent_comment_id":72}],` +
			`"cart":{"session_token":"tok-b","status":"open","currency":"USD","items":[{"id":40,"domain_name":"d.com","price":1},{"id":13,"domain_name":"e.com","price":1}]}`),
	}
}

// recordedIDs holds, by kind, the ids the built world gave the recorded records (by title or
// comment text), and the references between them.
type recordedIDs struct {
	ids                map[string]map[string]int64 // kind → title → id
	cardGroup, cardTag map[string]int64            // card title → its group's, tag's id
	groupBoard         map[string]int64            // group title → its board's id
	commentCard        map[string]int64            // comment → its card's id
	commentParent      map[string]int64            // comment → its parent's id
	items              []int64                     // the recorded carts' item ids, in order
}

// readRecorded builds the recording's world and reads the ids recordedIDs describes.
func readRecorded(t *testing.T, file []byte, baseCarts int) recordedIDs {
	t.Helper()
	f, err := fixtures.ParseScenario(file, "ids.yaml")
	if err != nil {
		t.Fatalf("the recording does not parse: %v\n%s", err, file)
	}
	w, err := f.Build(fixtures.DefaultSeed, time.Now())
	if err != nil {
		t.Fatalf("the recording does not load: %v\n%s", err, file)
	}
	st := w.State
	r := recordedIDs{ids: map[string]map[string]int64{"boards": {}, "groups": {}, "tags": {}, "cards": {}, "comments": {}},
		cardGroup: map[string]int64{}, cardTag: map[string]int64{}, groupBoard: map[string]int64{}, commentCard: map[string]int64{}, commentParent: map[string]int64{}}
	deref := func(p *int64) int64 {
		if p == nil {
			return 0
		}
		return *p
	}
	for _, x := range st.Boards { // the recorded records' titles are the base world's of none
		r.ids["boards"][x.Title] = x.ID
	}
	for _, x := range st.Groups {
		r.ids["groups"][x.Title], r.groupBoard[x.Title] = x.ID, x.BoardID
	}
	for _, x := range st.Tags {
		r.ids["tags"][x.Name] = x.ID
	}
	for _, x := range st.Cards {
		r.ids["cards"][x.Title], r.cardGroup[x.Title], r.cardTag[x.Title] = x.ID, deref(x.GroupID), deref(x.TagID)
	}
	for _, x := range st.Comments {
		r.ids["comments"][x.Comment], r.commentCard[x.Comment], r.commentParent[x.Comment] = x.ID, x.CardID, deref(x.ParentCommentID)
	}
	for _, c := range st.Carts[baseCarts:] {
		for _, it := range c.Items {
			r.items = append(r.items, it.ID)
		}
	}
	return r
}

// An upstream whose records include one at the largest id the mock takes, beside ordinary
// records whose ids the base world holds, is recorded whole: the clashing records take free
// ids (within 1 to 2^53-1, held neither by the base world nor by another recorded record), the
// others keep theirs (D174, D176), and every reference to a renumbered record follows it — a
// card's group and tag, a group's board, a comment's card and parent. Numbering the clashing
// records after the largest id seen passed 2^53-1, and the mock refused every one of them.
func TestScenarioRecorderRenumbersClashingRecordsWithinTheIDRange(t *testing.T) {
	base := baseIDs(t)
	rec := recordAnswers(t, hostileAnswers())
	var out bytes.Buffer
	var notes []string
	counts, err := rec.WriteScenario(&out, proxy.ScenarioOptions{Name: "ids", Comment: "test", Seed: fixtures.DefaultSeed,
		Taken: func(kind string, id int64) bool { return base[kind][id] }, Check: func(b []byte) []string { return fixtures.ScenarioProblems(b, "ids.yaml") },
		BaseCarts: baseCarts(t), Note: func(s string) { notes = append(notes, s) }})
	if err != nil {
		t.Fatal(err)
	}
	said := strings.Join(notes, "\n")
	if strings.Contains(said, "left out") {
		t.Errorf("records were left out:\n%s", said)
	}
	want := map[string]int{"boards": 4, "groups": 4, "tags": 3, "cards": 5, "comments": 4, "carts": 2} // boards: a placeholder for the boardless group
	for kind, n := range want {
		if counts[kind] != n {
			t.Errorf("the recording holds %d %s, want %d:\n%s", counts[kind], kind, n, out.String())
		}
	}
	got := readRecorded(t, out.Bytes(), baseCarts(t))
	staging := map[string]map[string]int64{
		"boards":   {"Board one": 1, "Board six": 6, "Board max": largestID},
		"groups":   {"Group one": 1, "Group seventeen": 17, "Group boardless": 21, "Group max": largestID},
		"tags":     {"Tag seven": 7, "Tag ten": 10, "Tag max": largestID},
		"cards":    {"Card one": 1, "Card two": 2, "Card three": 3, "Card fifty": 50, "Card max": largestID},
		"comments": {"first": 72, "reply": 73, "next free": 79, "last": largestID},
	}
	for kind, records := range staging {
		checkFreeIDs(t, kind, records, got.ids[kind], base[kind])
	}
	checkReferences(t, got)
	checkItemIDs(t, got.items, base["cart_items"])
	if !strings.Contains(said, "card-1 as ") {
		t.Errorf("the log does not say which id card-1 was written under:\n%s", said)
	}
}

// checkFreeIDs checks that each recorded record of kind is in the world, under its staging id
// when the base world does not hold it, else under an id that is in range, not the base
// world's, and no other recorded record's.
func checkFreeIDs(t *testing.T, kind string, staging, got map[string]int64, base map[int64]bool) {
	t.Helper()
	owner := map[int64]string{}
	for title, was := range staging {
		id, ok := got[title]
		switch {
		case !ok:
			t.Errorf("%s %q is not in the recording's world (have %v)", kind, title, got)
			continue
		case id < 1 || id > largestID:
			t.Errorf("%s %q has id %d, outside 1 to %d", kind, title, id, largestID)
		case !base[was] && id != was:
			t.Errorf("%s %q has id %d; staging's %d is free in the base world and must be kept", kind, title, id, was)
		case base[was] && base[id]:
			t.Errorf("%s %q has id %d, which the base world holds", kind, title, id)
		}
		if other, dup := owner[id]; dup {
			t.Errorf("%s %q and %q share id %d", kind, title, other, id)
		}
		owner[id] = title
	}
}

// checkReferences checks that every reference between recorded records names the record's id
// in the world, renumbered or not.
func checkReferences(t *testing.T, got recordedIDs) {
	t.Helper()
	ids := got.ids
	for _, c := range []struct {
		what       string
		have, want int64
	}{
		{"card one's group", got.cardGroup["Card one"], ids["groups"]["Group one"]},
		{"card one's tag", got.cardTag["Card one"], ids["tags"]["Tag seven"]},
		{"card two's group", got.cardGroup["Card two"], ids["groups"]["Group max"]},
		{"card two's tag", got.cardTag["Card two"], ids["tags"]["Tag max"]},
		{"card max's group", got.cardGroup["Card max"], ids["groups"]["Group one"]},
		{"card max's tag", got.cardTag["Card max"], ids["tags"]["Tag seven"]},
		{"group one's board", got.groupBoard["Group one"], ids["boards"]["Board one"]},
		{"group seventeen's board", got.groupBoard["Group seventeen"], ids["boards"]["Board max"]},
		{"group max's board", got.groupBoard["Group max"], ids["boards"]["Board six"]},
		{"comment first's card", got.commentCard["first"], ids["cards"]["Card one"]},
		{"comment reply's card", got.commentCard["reply"], ids["cards"]["Card one"]},
		{"comment reply's parent", got.commentParent["reply"], ids["comments"]["first"]},
		{"comment next free's card", got.commentCard["next free"], ids["cards"]["Card max"]},
		{"comment last's card", got.commentCard["last"], ids["cards"]["Card one"]},
		{"comment last's parent", got.commentParent["last"], ids["comments"]["first"]},
	} {
		if c.have != c.want || c.want == 0 {
			t.Errorf("%s is %d, want %d", c.what, c.have, c.want)
		}
	}
	if b := got.groupBoard["Group boardless"]; b < 1 || b > largestID {
		t.Errorf("the boardless group's placeholder board has id %d", b)
	}
}

// checkItemIDs checks the recorded carts' items: items 13, 40 (the first time) and the largest
// keep their ids; item 1 (the base world's) and the second item 40 take free ones.
func checkItemIDs(t *testing.T, items []int64, base map[int64]bool) {
	t.Helper()
	if len(items) != 5 {
		t.Fatalf("the recorded carts hold items %v, want 5", items)
	}
	seen := map[int64]bool{}
	for _, id := range items {
		if id < 1 || id > largestID || base[id] || seen[id] {
			t.Errorf("items %v: id %d is out of range, the base world's or taken twice", items, id)
		}
		seen[id] = true
	}
	if items[1] != largestID || items[2] != 40 || items[4] != 13 {
		t.Errorf("items %v: want items %d, 40 and 13 to keep their ids", items, largestID)
	}
}

// A record the mock refuses after it was renumbered is named in the log with the id the file
// gave it and staging's: the mock's problem names the file's id, not the one staging showed,
// and "card-1: id must be positive and at most 9007199254740991" blamed a valid id 1.
func TestScenarioRecorderNamesTheIDARefusedRecordWasGiven(t *testing.T) {
	base := baseIDs(t)
	rec := recordAnswers(t, map[string]string{"/services/operations/v1/operations/cards/list": `{"error":false,"message":"ok","data":{"cards":[{"id":1,"title":"Card one"},{"id":50,"title":"Card fifty"}]}}`})
	refuse := func(b []byte) []string { // a mock refusing card-1's id as written
		for i, line := range strings.Split(string(b), "\n") {
			if strings.Contains(line, "ref: card-1") {
				return []string{fmt.Sprintf("line %d: cards[0] (card-1): id must be positive and at most 9", i+1)}
			}
		}
		return nil
	}
	var notes []string
	var out bytes.Buffer
	if _, err := rec.WriteScenario(&out, proxy.ScenarioOptions{Name: "ids", Seed: fixtures.DefaultSeed, Taken: func(kind string, id int64) bool { return base[kind][id] },
		Check: refuse, Note: func(s string) { notes = append(notes, s) }}); err != nil {
		t.Fatal(err)
	}
	said := strings.Join(notes, "\n")
	if !strings.Contains(said, "card-1 left out") || !strings.Contains(said, "it was written as id 9,") || !strings.Contains(said, "staging's id 1") {
		t.Errorf("the log does not name the id card-1 was written under and staging's:\n%s", said)
	}
	if strings.Contains(out.String(), "Card one") || !strings.Contains(out.String(), "Card fifty") {
		t.Errorf("want card-1 alone left out:\n%s", out.String())
	}
}

// A record for which no id is free (a base world holding every tag id) is left out, and the
// log says so in plain words; the rest is written and loads.
func TestScenarioRecorderLeavesOutARecordNoIDIsFreeFor(t *testing.T) {
	base := baseIDs(t)
	rec := recordAnswers(t, hostileAnswers())
	var notes []string
	var out bytes.Buffer
	counts, err := rec.WriteScenario(&out, proxy.ScenarioOptions{Name: "ids", Seed: fixtures.DefaultSeed,
		Taken: func(kind string, id int64) bool {
			return base[kind][id] || kind == "tags" && id != 10 && id != largestID
		},
		Check: func(b []byte) []string { return fixtures.ScenarioProblems(b, "ids.yaml") }, BaseCarts: baseCarts(t), Note: func(s string) { notes = append(notes, s) }})
	if err != nil {
		t.Fatal(err)
	}
	said := strings.Join(notes, "\n")
	if !strings.Contains(said, "tags tag-7 left out of the recording: no id is free for it, staging's id 7 being the base world's") {
		t.Errorf("the log does not say tag-7 was left out for want of a free id:\n%s", said)
	}
	for _, n := range notes { // a card refused for its tag is refused for its tag, not its id
		if strings.Contains(n, `"tag-7" is no tag ref`) && strings.Contains(n, "it was written as id") {
			t.Errorf("a refusal for a tag reference names the card's id as its cause: %s", n)
		}
	}
	if counts["tags"] != 2 || strings.Contains(out.String(), "Tag seven") || !strings.Contains(out.String(), "Tag ten") {
		t.Errorf("want tag-7 alone of the tags left out (%d tags):\n%s", counts["tags"], out.String())
	}
}

// A renumbered comment stays after its parent, as the mock requires of a reply (D76), and a
// reply that keeps staging's id stays after its renumbered parent: a clashing reply to comment
// 60 given the lowest free id (1) came before its parent, and a reply 79 to a clashing comment
// 72, written as 80 because staging's comments held every lower free id, came after its reply.
func TestScenarioRecorderKeepsRepliesAfterTheirParents(t *testing.T) {
	base := baseIDs(t)
	comment := func(id, parent int64, text string) string {
		c := fmt.Sprintf(`{"id":%d,"card_id":50,"comment":%q`, id, text)
		if parent != 0 {
			c += fmt.Sprintf(`,"parent_comment_id":%d`, parent)
		}
		return c + "}"
	}
	sparse := []string{comment(60, 0, "kept parent"), comment(74, 60, "clashing reply"), comment(72, 0, "clashing parent"), comment(79, 72, "kept reply")}
	dense := slices.Clone(sparse[1:])
	for id := int64(1); id <= 71; id++ { // staging's comments hold every free id below the base world's
		text := fmt.Sprintf("filler %d", id)
		if id == 60 {
			text = "kept parent"
		}
		dense = append(dense, comment(id, 0, text))
	}
	for name, list := range map[string][]string{"sparse": sparse, "dense": dense} {
		rec := recordAnswers(t, map[string]string{"/services/operations/v1/operations/comments/list": `{"error":false,"message":"ok","data":{"cards":[{"id":50,"title":"Card fifty"}],"comments":[` + strings.Join(list, ",") + `]}}`})
		var out bytes.Buffer
		var notes []string
		if _, err := rec.WriteScenario(&out, proxy.ScenarioOptions{Name: "ids", Seed: fixtures.DefaultSeed, Taken: func(kind string, id int64) bool { return base[kind][id] },
			Check: func(b []byte) []string { return fixtures.ScenarioProblems(b, "ids.yaml") }, BaseCarts: baseCarts(t), Note: func(s string) { notes = append(notes, s) }}); err != nil {
			t.Fatal(err)
		}
		if said := strings.Join(notes, "\n"); strings.Contains(said, "left out") {
			t.Errorf("%s: records were left out:\n%s", name, said)
		}
		got := readRecorded(t, out.Bytes(), baseCarts(t))
		ids := got.ids["comments"]
		for reply, parent := range map[string]string{"clashing reply": "kept parent", "kept reply": "clashing parent"} {
			if p := got.commentParent[reply]; p == 0 || p != ids[parent] || p >= ids[reply] {
				t.Errorf("%s: %q (id %d) has parent %d, want %q (id %d) before it", name, reply, ids[reply], p, parent, ids[parent])
			}
		}
		if ids["kept parent"] != 60 || ids["clashing parent"] < 1 || base["comments"][ids["clashing parent"]] {
			t.Errorf("%s: comment ids %v: want 60 kept and 72 given a free id", name, ids)
		}
	}
}
