package mockserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/opsapi/mocktoolkit/conformance/flow"
	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/mockserver"
	"github.com/opsapi/mocktoolkit/spec"
)

// frontendRun makes, in world, the calls of a frontend's end-to-end test: log in, create a
// card, comment on it, list its comments, rename it, deprecate the unapproved theme version,
// remove the locked cart's item.
func frontendRun(t *testing.T, m *mock, world string) {
	t.Helper()
	p := "/__worlds/" + world
	tok := m.post(p+"/v1/authenticate", "", map[string]any{"email": m.manifest.Users.Member.Email, "password": m.manifest.Users.Member.Password}).wantStatus(t, 200).data()["token"].(string)
	card := m.post(p+"/services/operations/v1/operations/cards/create", tok, map[string]any{"title": "Call the printer", "group_id": m.manifest.Operations.GroupID}).data()["card"].(map[string]any)
	id := card["id"]
	m.post(p+"/services/operations/v1/operations/comments/create", tok, map[string]any{"card_id": id, "comment": "Done by Friday"})
	m.post(p+"/services/operations/v1/operations/comments/list", tok, map[string]any{"card_id": id, "per_page": 10}).wantStatus(t, 200)
	m.post(p+"/services/operations/v1/operations/cards/update", tok, map[string]any{"id": id, "title": "Call the printer again"}).wantStatus(t, 200)
	m.post(p+"/services/websites/v1/themes/versions/deprecate", tok, map[string]any{"version_id": m.manifest.Websites.UnapprovedVersionID})
	m.post(p+"/services/domains/v1/domain-cart/remove", "", map[string]any{"session_token": m.manifest.Domains.LockedCart.SessionToken, "cart_item_id": m.manifest.Domains.LockedCart.ItemID}).wantStatus(t, 409)
}

func getFlow(t *testing.T, m *mock, world string) (flow.Document, string) {
	t.Helper()
	a := m.ctl(http.MethodGet, "/__worlds/"+world+"/__mock/flow", nil).wantStatus(t, 200)
	var doc flow.Document
	if err := json.Unmarshal(a.raw, &doc); err != nil {
		t.Fatalf("decode the flow: %v\n%s", err, a.raw)
	}
	return doc, string(a.raw)
}

func TestFlowWritesIdsAsReferences(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	frontendRun(t, m, "e2e")
	doc, raw := getFlow(t, m, "e2e")
	if len(doc.Steps) != 7 {
		t.Fatalf("%d steps, want 7:\n%s", len(doc.Steps), raw)
	}
	want := []struct {
		op, as string
		status int
		body   map[string]any
	}{
		{"authenticate", "none", 200, map[string]any{"email": ref("users.member.email"), "password": ref("users.member.password")}},
		{"cardsCreate", "member", 0, map[string]any{"title": "Call the printer", "group_id": ref("operations.group_id")}},
		{"commentsCreate", "member", 0, map[string]any{"card_id": stepRef(2, "data.card.id"), "comment": "Done by Friday"}},
		{"commentsList", "member", 200, map[string]any{"card_id": stepRef(2, "data.card.id"), "per_page": float64(10)}},
		{"cardsUpdate", "member", 200, map[string]any{"id": stepRef(2, "data.card.id"), "title": "Call the printer again"}},
		{"themeVersionsDeprecate", "member", 0, map[string]any{"version_id": ref("websites.unapproved_version_id")}},
		{"domainCartRemove", "none", 409, map[string]any{"session_token": ref("domains.locked_cart.session_token"), "cart_item_id": ref("domains.locked_cart.item_id")}},
	}
	for i, w := range want {
		st := doc.Steps[i]
		got, _ := json.Marshal(st.Body)
		exp, _ := json.Marshal(w.body)
		if st.Step != i+1 || st.Operation != w.op || st.As != w.as || (w.status != 0 && st.Answer.Status != w.status) || string(got) != string(exp) {
			t.Errorf("step %d: got %d %s as %s answered %d body %s; want %s as %s body %s", i+1, st.Step, st.Operation, st.As, st.Answer.Status, got, w.op, w.as, exp)
		}
	}
	if o, _ := flow.Lookup(doc.Steps[1].Answer.Outline, "data.card.id"); o != "integer" {
		t.Errorf("step 2's outline has data.card.id %v, want \"integer\"", o)
	}
	for _, secret := range []string{m.manifest.Users.Member.Password, m.manifest.Domains.LockedCart.SessionToken, "Bearer"} {
		if strings.Contains(raw, secret) {
			t.Errorf("the flow holds a credential (%q):\n%s", secret, raw)
		}
	}
	if _, err := flow.Parse([]byte(raw), operationIDs(t)); err != nil {
		t.Errorf("the mock's flow does not parse: %v", err)
	}
	schema, err := jsonschema.UnmarshalJSON(bytes.NewReader(flow.Schema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("flow.schema.json", schema); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("flow.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	inst, _ := jsonschema.UnmarshalJSON(strings.NewReader(raw))
	if err := sch.Validate(inst); err != nil {
		t.Errorf("the mock's flow breaks flow.schema.json: %v", err)
	}
}

func TestFlowIsPerWorldAndStartsAtReset(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	frontendRun(t, m, "a")
	m.ctl(http.MethodPost, "/__worlds/b/__mock/reset", nil).wantStatus(t, http.StatusOK)
	if doc, raw := getFlow(t, m, "b"); len(doc.Steps) != 0 {
		t.Errorf("world b has %d steps of world a's run:\n%s", len(doc.Steps), raw)
	}
	m.ctl(http.MethodPost, "/__worlds/a/__mock/reset", map[string]any{}).wantStatus(t, 200)
	m.post("/__worlds/a/services/operations/v1/operations/cards/list", "bad-token", nil)
	doc, raw := getFlow(t, m, "a")
	if len(doc.Steps) != 1 || doc.Steps[0].As != flow.AsInvalid || doc.Steps[0].Answer.Status != 401 {
		t.Errorf("after a reset and one call with an unknown token, want one step as invalid answered 401:\n%s", raw)
	}
}

// A snapshot loaded mid-recording starts a new recording, as a reset does: the calls before it
// acted on records that are gone, and the flow's note says where it began.
func TestFlowStartsAgainAtALoadedSnapshot(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	frontendRun(t, m, "a")
	state := m.ctl(http.MethodGet, "/__worlds/a/__mock/state", nil).wantStatus(t, 200).raw
	m.ctl(http.MethodPut, "/__worlds/a/__mock/state", string(state)).wantStatus(t, 200)
	m.post("/__worlds/a/services/operations/v1/operations/cards/list", "bad-token", nil)
	doc, raw := getFlow(t, m, "a")
	if len(doc.Steps) != 1 || doc.Steps[0].Answer.Status != 401 {
		t.Errorf("after PUT /__mock/state and one call, want that one step only:\n%s", raw)
	}
	if !strings.Contains(doc.Note, "snapshot") {
		t.Errorf("the flow's note %q does not say it began at a loaded snapshot", doc.Note)
	}
}

// A call whose request held text that is not valid UTF-8 is left out of the flow with a note:
// stored as JSON it would come back as valid text (U+FFFD), and the replay would turn the
// recorded refusal into a write.
func TestFlowLeavesOutGarbledText(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	tok := m.post("/__worlds/g/v1/authenticate", "", map[string]any{"email": m.manifest.Users.Member.Email, "password": m.manifest.Users.Member.Password}).wantStatus(t, 200).data()["token"].(string)
	for _, body := range []string{`{"name":"a\ud800b"}`, "{\"name\":\"\xc3\x28\"}"} {
		st, _ := send(t, "POST", m.url+"/__worlds/g"+pTagsCreate, "", body, "Content-Type", "application/json", "Authorization", "Bearer "+tok)
		if st != 422 {
			t.Fatalf("tags/create with %q: %d, want 422", body, st)
		}
	}
	doc, raw := getFlow(t, m, "g")
	if len(doc.Steps) != 1 || !strings.Contains(doc.Note, "2 calls whose request held text that is not valid UTF-8") {
		t.Errorf("want the login only, and a note on the 2 calls left out:\n%s", raw)
	}
}

func ref(key string) map[string]any { return map[string]any{"manifest": key} }

func stepRef(n int, path string) map[string]any {
	return map[string]any{"step": float64(n), "path": path}
}

// operationIDs are the OpenAPI document's operationIds.
func operationIDs(t *testing.T) []string {
	t.Helper()
	doc, err := spec.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return spec.OperationIDs(doc)
}

// A list answer longer than the journal keeps is kept whole for the flow: its outline is the
// list's, and an id picked from it is a reference to it.
func TestFlowKeepsLongListsWhole(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	tok := m.login(m.manifest.Users.Member)
	list := m.post("/services/operations/v1/operations/cards/list", tok, nil).wantStatus(t, 200)
	if len(list.raw) <= 16<<10 {
		t.Skipf("the member's card list is %d bytes, not longer than the journal keeps", len(list.raw))
	}
	var pick any
	for _, c := range list.data()["cards"].([]any) {
		if id := c.(map[string]any)["id"]; id != float64(m.manifest.Operations.CardID) {
			pick = id
		}
	}
	m.post("/services/operations/v1/operations/cards/update", tok, map[string]any{"id": pick, "title": "Picked from the list"}).wantStatus(t, 200)
	doc, raw := getFlow(t, m, "default")
	if o, _ := flow.Lookup(doc.Steps[1].Answer.Outline, "data.cards[0].id"); o != "integer" {
		t.Errorf("the list's outline has no data.cards[0].id: %v", doc.Steps[1].Answer.Outline)
	}
	if ref, ok, _ := flow.AsRef(doc.Steps[2].Body["id"]); !ok || ref.Step != 2 || !strings.HasPrefix(ref.Path, "data.cards[") {
		t.Errorf("the picked id is %v, want a reference into step 2's list:\n%s", doc.Steps[2].Body["id"], raw)
	}
}

// A user the manifest does not name calls as the role its project gives it: a user of the
// member's project as the member, the manifest's teammate as itself (D171); users of other
// projects are TestFlowRecordsAnUnnamedUsersLoginAsItsRole's and
// TestFlowLeavesOutCallersNoRoleStandsInFor's.
func TestFlowNamesOtherUsersByTheirProject(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	st := worldUsers(t, m, "")
	memberProject := int64(0)
	for _, u := range st.Users {
		if u.Email == m.manifest.Users.Member.Email {
			memberProject = u.ProjectID
		}
	}
	named := map[string]bool{m.manifest.Users.Member.Email: true, m.manifest.Users.Superadmin.Email: true, m.manifest.Users.Outsider.Email: true}
	want := map[string]string{}
	for _, u := range st.Users {
		if named[u.Email] || u.IsSuperadmin || u.ProjectID != memberProject {
			continue
		}
		tok := m.login(fixtures.Credentials{Email: u.Email, Password: u.Password})
		m.post("/services/operations/v1/operations/tags/list", tok, nil).wantStatus(t, 200)
		want[u.Email] = flow.AsMember
		if strings.EqualFold(u.Email, m.manifest.Users.Teammate.Email) {
			want[u.Email] = flow.AsTeammate // a user of its own: conversations are per user
		}
	}
	if len(want) == 0 {
		t.Skip("the world has no user of the member's project besides the member")
	}
	doc, raw := getFlow(t, m, "default")
	var got []string
	for _, s := range doc.Steps {
		if s.Operation == "tagsList" {
			got = append(got, s.As)
		}
	}
	for _, as := range want {
		if !slices.Contains(got, as) {
			t.Errorf("other users called as %v; want %v:\n%s", got, want, raw)
			break
		}
	}
}

// A flow is written for others to read and replay: no credential a caller sent survives in it,
// whatever the name's case style, however deep, and in bodies that are not JSON objects
// (a form, JSON cut short) too.
func TestFlowHoldsNoCredential(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	p := "/__worlds/leak"
	tok := m.login(m.manifest.Users.Member)
	m.post(p+"/v1/authenticate", "", `{"email":"a@b.c","password":"truncPW1"`)
	m.post(p+"/services/operations/v1/operations/tags/list", tok, map[string]any{
		"apiKey": "k1secret", "API_KEY": "k3secret", "nested": map[string]any{"clientSecret": "s1secret", "Passwd": "p1secret"},
		"list": []any{map[string]any{"refresh_token": "r1secret"}}, "sessionToken": "st1secret", "private_key": "pk1secret",
		"note": "password=pw2secret&x=1",
	})
	login := m.post(p+"/v1/authenticate", "", map[string]any{"email": m.manifest.Users.Member.Email, "password": m.manifest.Users.Member.Password}).wantStatus(t, 200)
	worldTok := login.data()["token"].(string)
	pw := m.manifest.Users.Member.Password
	m.post(p+"/services/operations/v1/operations/cards/create", worldTok, map[string]any{"title": "pw " + pw + " token " + worldTok}).wantStatus(t, 200)
	_, raw := getFlow(t, m, "leak")
	for _, secret := range []string{pw, worldTok, "truncPW1", "k1secret", "k3secret", "s1secret", "p1secret", "r1secret", "st1secret", "pk1secret", "pw2secret"} {
		if strings.Contains(raw, secret) {
			t.Errorf("the flow holds %q:\n%s", secret, raw)
		}
	}
}

// A body longer than the journal keeps is still whole in the flow, so its step replays as it
// was sent (a cut body would be refused where the recording succeeded).
func TestFlowKeepsLongBodiesWhole(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	p := "/__worlds/long"
	tok := m.post(p+"/v1/authenticate", "", map[string]any{"email": m.manifest.Users.Member.Email, "password": m.manifest.Users.Member.Password}).wantStatus(t, 200).data()["token"].(string)
	desc := strings.Repeat("a long description ", 1600) // about 30 KB
	m.post(p+"/services/operations/v1/operations/cards/create", tok, map[string]any{"title": "Long", "description": desc}).wantStatus(t, 200)
	doc, raw := getFlow(t, m, "long")
	last := doc.Steps[len(doc.Steps)-1]
	if last.RawBody != nil || last.Body["description"] != desc {
		t.Fatalf("the create's body is not whole in the flow:\n%.600s", raw)
	}
	journal := m.ctl(http.MethodGet, p+"/__mock/requests", nil).wantStatus(t, 200)
	if len(journal.raw) > 40<<10 {
		t.Errorf("the journal keeps %d bytes for one 30 KB body; it keeps %d of a body", len(journal.raw), 16<<10)
	}
}

// The mock's admin token never reaches a flow, wherever a body quotes it (the journal scrubbed
// it, the flow kept it); and an answer a fault rule or Prefer: code= forced is left out, with a
// note, since a flow replayed against a deployment must not demand an injected failure.
func TestFlowLeavesOutAdminTokenAndForcedAnswers(t *testing.T) {
	const admin = "S3cr3tAdm1nTok"
	m := newMock(t, mockserver.Config{AdminToken: admin})
	p := "/__worlds/forced"
	ctl := func(method, path string, body any) answer {
		t.Helper()
		return m.ctl(method, p+path, body, "X-Mock-Admin-Token", admin)
	}
	ctl(http.MethodPost, "/__mock/reset", map[string]any{}).wantStatus(t, http.StatusOK)
	var mf fixtures.Manifest
	if err := json.Unmarshal(ctl(http.MethodGet, "/__mock/fixtures", nil).wantStatus(t, 200).raw, &mf); err != nil {
		t.Fatal(err)
	}
	tok := m.post(p+"/v1/authenticate", "", map[string]any{"email": mf.Users.Member.Email, "password": mf.Users.Member.Password}).wantStatus(t, 200).data()["token"].(string)
	m.post(p+"/services/operations/v1/operations/tags/list", tok, map[string]any{"note": admin}).wantStatus(t, 200)
	ctl(http.MethodPost, "/__mock/faults", map[string]any{"operation": "tagsList", "status": 500, "times": 1}).wantStatus(t, http.StatusCreated)
	m.post(p+"/services/operations/v1/operations/tags/list", tok, map[string]any{}).wantStatus(t, 500)
	m.ctl(http.MethodPost, p+"/services/operations/v1/operations/tags/list", map[string]any{}, "Authorization", "Bearer "+tok, "Prefer", "code=429").wantStatus(t, 429)
	raw := ctl(http.MethodGet, "/__mock/flow", nil).wantStatus(t, 200).raw
	var doc flow.Document
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), admin) {
		t.Errorf("the flow holds the admin token:\n%s", raw)
	}
	for _, st := range doc.Steps {
		if st.Answer.Status == 500 || st.Answer.Status == 429 {
			t.Errorf("step %d keeps the forced %d", st.Step, st.Answer.Status)
		}
	}
	if len(doc.Steps) != 2 || !strings.Contains(doc.Note, "2 calls answered by a fault rule or Prefer") {
		t.Errorf("steps %d, note %q: want the login and the list, and a note on the 2 forced answers", len(doc.Steps), doc.Note)
	}
}

// A card titled with the member's password is recorded with the title redacted, never as a
// reference to the password, which a replay would fill in with the target's own.
func TestFlowRedactsAPasswordQuotedAsData(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	tok := m.post("/__worlds/q/v1/authenticate", "", map[string]any{"email": m.manifest.Users.Member.Email, "password": m.manifest.Users.Member.Password}).wantStatus(t, 200).data()["token"].(string)
	m.post("/__worlds/q/services/operations/v1/operations/cards/create", tok, map[string]any{"title": m.manifest.Users.Member.Password}).wantStatus(t, 200)
	_, raw := getFlow(t, m, "q")
	if strings.Contains(raw, `"title":{"manifest"`) || strings.Contains(raw, m.manifest.Users.Member.Password) {
		t.Errorf("the title quoting the password is a reference or in clear:\n%s", raw)
	}
}

// A request nested nearly as deep as JSON readers go is refused by the operation, and left out
// of the flow with a note: the flow wraps each body in levels of its own, and one such call
// made the whole document unreadable by the suite.
func TestFlowLeavesOutDeepRequests(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	p := "/__worlds/deep"
	tok := m.post(p+"/v1/authenticate", "", map[string]any{"email": m.manifest.Users.Member.Email, "password": m.manifest.Users.Member.Password}).wantStatus(t, 200).data()["token"].(string)
	n := 9998
	deep := `{"title":"x","description":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`
	m.post(p+"/services/operations/v1/operations/cards/create", tok, deep).wantStatus(t, http.StatusUnprocessableEntity)
	m.post(p+"/services/operations/v1/operations/tags/list", tok, map[string]any{}).wantStatus(t, 200)
	raw := m.ctl(http.MethodGet, p+"/__mock/flow", nil).wantStatus(t, 200).raw
	var doc flow.Document
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("the flow does not read back: %v", err)
	}
	if len(doc.Steps) != 2 || !strings.Contains(doc.Note, "1 call whose request body nested deeper than 1000 levels is left out") {
		t.Errorf("steps %d, note %q: want the login and the list, and a note on the deep call", len(doc.Steps), doc.Note)
	}
}

// An id is written as a reference only to a manifest key or an earlier answer's record of its
// own kind: a template's id that equals an archived conversation's is no reference to it, nor is
// a card's id that equals a comment's listed before (a vendor's manifest would fill in ids of
// other records, audit 20).
func TestFlowBindsIdsOnlyToTheirKind(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	p := "/__worlds/kinds"
	m.ctl(http.MethodPost, p+"/__mock/reset", nil).wantStatus(t, 200)
	tok := m.post(p+"/v1/authenticate", "", map[string]any{"email": m.manifest.Users.Member.Email, "password": m.manifest.Users.Member.Password}).wantStatus(t, 200).data()["token"].(string)
	conv := m.manifest.AI.ArchivedConversationIDs[0]
	m.post(p+"/services/websites/v1/thumbnails/regenerate", tok, map[string]any{"type": "template", "entity_id": conv})
	list := m.post(p+"/services/operations/v1/operations/comments/list", tok, map[string]any{"card_id": m.manifest.Operations.CardID}).wantStatus(t, 200)
	comments, _ := list.data()["comments"].([]any)
	if len(comments) == 0 {
		t.Skip("the manifest's card has no comments")
	}
	cid := comments[0].(map[string]any)["id"]
	m.post(p+"/services/operations/v1/operations/cards/update", tok, map[string]any{"id": cid, "title": "x"})
	doc, raw := getFlow(t, m, "kinds")
	for _, st := range doc.Steps {
		switch st.Operation {
		case "thumbnailsRegenerate":
			if _, isRef := st.Body["entity_id"].(map[string]any); isRef {
				t.Errorf("the template's entity_id is a reference: %v\n%s", st.Body["entity_id"], raw)
			}
		case "cardsUpdate":
			if r, isRef := st.Body["id"].(map[string]any); isRef && strings.Contains(fmt.Sprint(r["path"]), "comments") {
				t.Errorf("the card's id refers to a comment: %v", r)
			}
		}
	}
}

// A call the mock refused for its own guards, not the API's rules, is left out of the flow,
// with a note: a Prefer code the operation does not list (400), and an origin --cors-origins
// does not name (403). A flow sends neither header, so their replays were carried out.
func TestFlowLeavesOutCallsRefusedByGuards(t *testing.T) {
	m := newMock(t, mockserver.Config{CORSOrigins: []string{"http://app.example"}})
	tok := m.post("/__worlds/g/v1/authenticate", "", map[string]any{"email": m.manifest.Users.Member.Email, "password": m.manifest.Users.Member.Password}).wantStatus(t, 200).data()["token"].(string)
	list := "/__worlds/g/services/operations/v1/operations/boards/list"
	m.ctl(http.MethodPost, list, map[string]any{}, "Authorization", "Bearer "+tok, "Prefer", "code=413").wantStatus(t, 400)
	m.ctl(http.MethodPost, list, map[string]any{}, "Authorization", "Bearer "+tok, "Prefer", "code=401, code=500").wantStatus(t, 400)
	m.ctl(http.MethodPost, list, map[string]any{}, "Authorization", "Bearer "+tok, "Origin", "http://evil.example").wantStatus(t, 403)
	m.ctl(http.MethodPost, list, map[string]any{}, "Authorization", "Bearer "+tok, "Prefer", "code=200").wantStatus(t, 200)
	doc, raw := getFlow(t, m, "g")
	if len(doc.Steps) != 2 || !strings.Contains(doc.Note, "3 calls refused for the mock's own guards") {
		t.Errorf("steps %d, note %q: want the login and the list run with code=200, and a note on the 3 refused calls\n%s", len(doc.Steps), doc.Note, raw)
	}
}

// A clock moved between recorded calls is named in the flow's note: a flow does not carry the
// clock, so a step that relied on the move (a thumbnail window that had passed) may answer
// otherwise on replay, and the note says why.
func TestFlowNotesAClockMovedDuringTheRecording(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	m.ctl(http.MethodPost, "/__worlds/c/__mock/clock", map[string]any{"advance_seconds": 60}).wantStatus(t, http.StatusOK) // before any call: no note
	m.post("/__worlds/c/v1/authenticate", "", map[string]any{"email": m.manifest.Users.Member.Email, "password": m.manifest.Users.Member.Password}).wantStatus(t, 200)
	m.ctl(http.MethodPost, "/__worlds/c/__mock/clock", map[string]any{"advance_seconds": 660}).wantStatus(t, http.StatusOK)
	doc, _ := getFlow(t, m, "c")
	if !strings.Contains(doc.Note, "clock was moved during the recording (after step 1)") {
		t.Errorf("note %q, want it to name the clock moved after step 1", doc.Note)
	}
}

// A call whose body passed the 1 MiB the mock takes (413, read or not) is left out of the flow:
// a flow keeps bodies whole only up to that size, and its replay sent a placeholder text.
func TestFlowLeavesOutOversizeBodies(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	tok := m.post("/__worlds/o/v1/authenticate", "", map[string]any{"email": m.manifest.Users.Member.Email, "password": m.manifest.Users.Member.Password}).wantStatus(t, 200).data()["token"].(string)
	m.post("/__worlds/o/services/operations/v1/operations/tags/list", tok, map[string]any{"pad": strings.Repeat("x", 1100<<10)}).wantStatus(t, http.StatusRequestEntityTooLarge)
	doc, raw := getFlow(t, m, "o")
	if len(doc.Steps) != 1 || !strings.Contains(doc.Note, "1 call whose request body passed the 1 MiB") {
		t.Errorf("steps %d, note %q: want the login alone and a note on the oversize call\n%.400s", len(doc.Steps), doc.Note, raw)
	}
}

// A flow recorded on a mock started with --lenient-content-type says which steps sent their
// bodies without application/json: the mock by default, and a deployment, may refuse them.
func TestFlowNotesLenientContentType(t *testing.T) {
	m := newMock(t, mockserver.Config{LenientContentType: true})
	tok := m.post("/__worlds/l/v1/authenticate", "", map[string]any{"email": m.manifest.Users.Member.Email, "password": m.manifest.Users.Member.Password}).wantStatus(t, 200).data()["token"].(string)
	if st, body := send(t, http.MethodPost, m.url+"/__worlds/l/services/operations/v1/operations/tags/list", "", "{}", "Authorization", "Bearer "+tok, "Content-Type", "text/plain"); st != 200 {
		t.Fatalf("tags/list as text/plain on a lenient mock: %d %s", st, body)
	}
	doc, raw := getFlow(t, m, "l")
	if !strings.Contains(doc.Note, "--lenient-content-type: steps 2 sent") {
		t.Errorf("note %q, want it to name step 2 as sent without application/json\n%.600s", doc.Note, raw)
	}
}

// A call sent otherwise than the API's POST of JSON (a PUT or GET of an operation's path, a
// charset or Content-Encoding the mock does not take) is left out of the flow: a flow keeps
// neither the method nor those headers, so its replay POSTed JSON and created what the mock had
// refused. The note counts them.
func TestFlowLeavesOutCallsSentOtherwise(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	tok := m.post("/__worlds/o/v1/authenticate", "", map[string]any{"email": m.manifest.Users.Member.Email, "password": m.manifest.Users.Member.Password}).wantStatus(t, 200).data()["token"].(string)
	for _, c := range []struct{ method, ct, enc string }{
		{"PUT", "application/json", ""},
		{"GET", "application/json", ""},
		{"POST", "application/json; charset=utf-16", ""},
		{"POST", "application/json", "gzip"},
		{"POST", "text/plain", ""},
	} {
		headers := []string{"Content-Type", c.ct, "Authorization", "Bearer " + tok}
		if c.enc != "" {
			headers = append(headers, "Content-Encoding", c.enc)
		}
		if st, _ := send(t, c.method, m.url+"/__worlds/o"+pTagsCreate, "", `{"name":"sent otherwise"}`, headers...); st < 400 {
			t.Fatalf("%s with %s %s: %d, want a refusal", c.method, c.ct, c.enc, st)
		}
	}
	doc, raw := getFlow(t, m, "o")
	if len(doc.Steps) != 1 || !strings.Contains(doc.Note, "5 calls sent otherwise than the API's POST of JSON") {
		t.Errorf("want the login only, and a note on the 5 calls left out:\n%s", raw)
	}
}

// stateUsers are the users of a world's snapshot, as a flow test reads them.
type stateUsers struct {
	Users []struct {
		Email, Password string
		ProjectID       int64 `json:"project_id"`
		IsSuperadmin    bool  `json:"is_superadmin"`
	} `json:"users"`
}

// worldUsers reads the users of the world at prefix ("" for the default world, else
// "/__worlds/<name>").
func worldUsers(t *testing.T, m *mock, prefix string) stateUsers {
	t.Helper()
	var st stateUsers
	if err := json.Unmarshal(m.ctl(http.MethodGet, prefix+"/__mock/state", nil).wantStatus(t, 200).raw, &st); err != nil {
		t.Fatal(err)
	}
	return st
}
