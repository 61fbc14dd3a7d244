package mockserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
	"github.com/opsapi/mocktoolkit/reference"
)

// GET /__mock/state exports the world and PUT imports it: a tag created after the export is
// gone once the export is put back, and tokens in the snapshot still work (D65).
func TestStateExportAndImport(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	member := m.login(m.manifest.Users.Member)
	snap := m.ctl(http.MethodGet, "/__mock/state", nil).wantStatus(t, 200)
	var st reference.State
	if err := json.Unmarshal(snap.raw, &st); err != nil || len(st.Users) == 0 || len(st.Tokens) == 0 {
		t.Fatalf("snapshot does not decode into reference.State with users and tokens: %v", err)
	}
	tags := m.post(pTagsList, member, nil).wantStatus(t, 200).count(t, "tags")
	m.post(pTagsCreate, member, map[string]any{"name": "after the snapshot"}).wantStatus(t, 200)

	m.ctl(http.MethodPut, "/__mock/state", string(snap.raw)).wantStatus(t, 200)
	if got := m.post(pTagsList, member, nil).wantStatus(t, 200).count(t, "tags"); got != tags {
		t.Errorf("tags after putting the snapshot back: %d, want %d", got, tags)
	}
}

// A bad snapshot is refused and the old world stays.
func TestStateImportRejectsBadSnapshots(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	member := m.login(m.manifest.Users.Member)
	var st reference.State
	_ = json.Unmarshal(m.ctl(http.MethodGet, "/__mock/state", nil).raw, &st)
	st.Cards[0].GroupID = ptr(int64(987654321))
	broken, _ := json.Marshal(st)
	tests := []struct {
		name, body string
		status     int
	}{
		{"malformed JSON is a bad request", `{"users": [`, 400},
		{"a snapshot that is not an object is a bad request", `[]`, 400},
		{"an unknown field is refused", `{"userz": []}`, 422},
		{"a field of the wrong type is refused", `{"users": 5}`, 422},
		{"a card in a group that does not exist is refused", string(broken), 422},
		{"an empty snapshot is refused: nobody could log in", `{}`, 422},
		{"a snapshot without users is refused", `{"users": [], "tags": []}`, 422},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := m.ctl(http.MethodPut, "/__mock/state", tt.body).wantStatus(t, tt.status)
			a.wantShape(t, map[int]string{400: "a", 422: "c"}[tt.status])
			m.post(pTagsList, member, nil).wantStatus(t, 200)
		})
	}
}

// Config.State starts the mock from a snapshot; Snapshot exports the world of a handler.
func TestConfigStateAndSnapshot(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	member := m.login(m.manifest.Users.Member)
	m.post(pTagsCreate, member, map[string]any{"name": "carried over"}).wantStatus(t, 200)
	var st reference.State
	_ = json.Unmarshal(m.ctl(http.MethodGet, "/__mock/state", nil).raw, &st)

	h, err := mockserver.New(mockserver.Config{Now: testNow, State: &st})
	if err != nil {
		t.Fatalf("New with a state: %v", err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	m2 := &mock{t: t, url: srv.URL, manifest: m.manifest}
	// The token issued in the first mock is in the snapshot, so it works in the second.
	found := false
	for _, tag := range m2.post(pTagsList, member, nil).wantStatus(t, 200).data()["tags"].([]any) {
		found = found || tag.(map[string]any)["name"] == "carried over"
	}
	if !found {
		t.Error("the tag created before the snapshot is missing")
	}
	if got := h.Snapshot(); len(got.Tags) != len(st.Tags) {
		t.Errorf("Snapshot: %d tags; want %d", len(got.Tags), len(st.Tags))
	}
	bad := st
	bad.Users = nil
	if _, err := mockserver.New(mockserver.Config{State: &bad}); err == nil {
		t.Error("New with a broken state did not fail")
	}
}

func ptr[T any](v T) *T { return &v }

// An empty PUT (a state file that was never written, sent as the README shows) or null is
// refused and leaves the world as it was; it is never read as a world of no records.
func TestStatePutEmptyKeepsTheWorld(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	before := m.ctl(http.MethodGet, "/__mock/state", nil).wantStatus(t, 200).raw
	for _, body := range []string{"", "null"} {
		a := m.ctl(http.MethodPut, "/__mock/state", body).wantStatus(t, http.StatusBadRequest)
		if body == "" && !strings.Contains(string(a.raw), "empty") {
			t.Errorf("PUT %q answers %s", body, a.raw)
		}
	}
	after := m.ctl(http.MethodGet, "/__mock/state", nil).wantStatus(t, 200).raw
	if string(before) != string(after) {
		t.Fatal("an empty PUT changed the world")
	}
}

// A state file's clock (D65) loads with PUT too: the clock is set, and frozen when it was; a
// clock out of range is refused with the records, and the world and its clock stay.
func TestStatePutTakesAStateFilesClock(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	raw := m.ctl(http.MethodGet, "/__mock/state", nil).wantStatus(t, 200).raw
	withClock := func(clock string) string {
		return strings.TrimSuffix(strings.TrimSpace(string(raw)), "}") + `,"clock":` + clock + "}"
	}
	m.ctl(http.MethodPut, "/__mock/state", withClock(`{"now":"2031-05-05T05:05:05Z","frozen":true}`)).wantStatus(t, http.StatusOK)
	if c := m.ctl(http.MethodGet, "/__mock/clock", nil); c.field("now") != "2031-05-05T05:05:05Z" || c.field("frozen") != true {
		t.Errorf("the clock after a PUT of a state file's: %s", c.raw)
	}
	// Refused as POST /__mock/clock refuses them, in the controls' words under state, naming
	// clock.now or the member: names as written (D8), offsets within ±23:59 (D148).
	for clock, says := range map[string]string{
		`{"now":"9999-01-01T00:00:00Z"}`:                "clock.now: want an instant from",
		`{"now":"0001-01-01T00:00:00Z","frozen":true}`:  "clock.now: want an instant from",
		`{"frozen":true}`:                               "clock.now is required",
		`{"now":"2031-05-05T05:05:05Z","tick":1}`:       "clock.tick is not known",
		`{"NOW":"2031-01-01T00:00:00Z","Frozen":true}`:  "clock.Frozen is not known",
		`{"now":"2030-01-01T00:00:00+24:00"}`:           "clock.now must be an RFC 3339 date-time",
		`{"now":123}`:                                   "clock.now must be an RFC 3339 date-time",
		`{"now":"2030-01-01t00:00:00z"}`:                "clock.now must be an RFC 3339 date-time",
		`{"now":"2031-05-05T05:05:05Z","frozen":"yes"}`: "clock.frozen must be true or false",
		`"soon"`: "clock must be an object",
	} {
		a := m.ctl(http.MethodPut, "/__mock/state", withClock(clock)).wantStatus(t, http.StatusUnprocessableEntity)
		if errs, _ := a.body["errors"].(map[string]any); errs["state"] == nil || !strings.Contains(string(a.raw), says) {
			t.Errorf("PUT with the clock %s: %s, want state saying %q", clock, a.raw, says)
		}
	}
	if c := m.ctl(http.MethodGet, "/__mock/clock", nil); c.field("now") != "2031-05-05T05:05:05Z" || c.field("frozen") != true {
		t.Errorf("the clock after refused PUTs: %s", c.raw)
	}
}

// A snapshot that breaks several field rules names every one, each on its own line under
// `state`, so a hand-edited file is mended in one go (D76).
func TestStatePutNamesEveryBrokenRule(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	var st reference.State
	_ = json.Unmarshal(m.ctl(http.MethodGet, "/__mock/state", nil).raw, &st)
	st.Cards[0].Priority = "extreme"
	st.Cards[1].Title = " "
	st.Tags[0].Name = strings.Repeat("n", 256)
	broken, _ := json.Marshal(st)
	a := m.ctl(http.MethodPut, "/__mock/state", string(broken)).wantStatus(t, 422)
	errs, _ := a.body["errors"].(map[string]any)
	got, _ := errs["state"].([]any)
	want := []string{"cards[0] (id ", "priority must be one of", "cards[1] (id ", "title is required", "tags[0] (id ", "name must not be greater than 255"}
	if len(got) != 3 {
		t.Fatalf("errors.state = %v, want three messages, one per broken rule", got)
	}
	for i, msg := range got {
		for _, w := range want[2*i : 2*i+2] {
			if s, _ := msg.(string); !strings.Contains(s, w) {
				t.Errorf("errors.state[%d] = %q, want it to hold %q", i, s, w)
			}
		}
	}
}

// A snapshot's date-times are held to what the API accepts (D73), named by record and field
// in the snapshot's words: Go's decoder took a +24:00 offset and refused "2026-01-01" in its
// own layout strings, keyed "body". The world stays as it was.
func TestStatePutNamesBadDateTimes(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	raw := m.ctl(http.MethodGet, "/__mock/state", nil).raw
	var doc map[string]any
	_ = json.Unmarshal(raw, &doc)
	cards := doc["cards"].([]any)
	id := cards[0].(map[string]any)["id"]
	cards[0].(map[string]any)["due_date"] = "2026-01-01"
	cards[1].(map[string]any)["snoozed_until"] = "2026-01-01T00:00:00+24:00"
	cards[2].(map[string]any)["created_at"] = 20260101
	broken, _ := json.Marshal(doc)
	a := m.ctl(http.MethodPut, "/__mock/state", string(broken)).wantStatus(t, 422)
	errs, _ := a.body["errors"].(map[string]any)
	got, _ := errs["state"].([]any)
	want := [][]string{
		{fmt.Sprintf("cards[0] (id %v): due_date", id), "RFC 3339"},
		{"cards[1] (id ", "snoozed_until", "offset"},
		{"cards[2] (id ", "created_at must be a date-time string"},
	}
	if len(got) != len(want) {
		t.Fatalf("errors = %v, want under state one message per bad date-time", a.body["errors"])
	}
	for i, msg := range got {
		s, _ := msg.(string)
		for _, w := range want[i] {
			if !strings.Contains(s, w) {
				t.Errorf("errors.state[%d] = %q, want it to hold %q", i, s, w)
			}
		}
		if strings.Contains(s, "2006-01-02") || strings.Contains(s, "parsing time") {
			t.Errorf("errors.state[%d] = %q words Go's time layout", i, s)
		}
	}
	if _, err := mockserver.DecodeState(broken); err == nil || !strings.Contains(err.Error(), "due_date") {
		t.Errorf("DecodeState (a --state-file) = %v, want the same problems", err)
	}
	if after := m.ctl(http.MethodGet, "/__mock/state", nil).raw; string(after) != string(raw) {
		t.Errorf("the refused snapshot changed the world")
	}
}

// A snapshot is written as it is: a comment of '<' (which JSON may write as \u003c, six times
// its size) comes out as '<', so a world the API filled still fits what PUT /__mock/state reads
// back, and it loads.
func TestSnapshotWritesTextAsItIs(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	token := m.login(m.manifest.Users.Member)
	text := strings.Repeat("<&>", 20000)
	m.post(pCommentsNew, token, map[string]any{"card_id": m.manifest.Operations.CardID, "comment": text}).wantStatus(t, http.StatusOK)
	a := m.ctl(http.MethodGet, "/__mock/state", nil).wantStatus(t, http.StatusOK)
	if !strings.Contains(string(a.raw), text) || strings.Contains(string(a.raw), `\u003c`) {
		t.Fatalf("the snapshot escapes '<', '&' or '>' (%d bytes for a %d-byte comment)", len(a.raw), len(text))
	}
	m.ctl(http.MethodPut, "/__mock/state", string(a.raw)).wantStatus(t, http.StatusOK)
}

// An id past 64 bits in a snapshot is worded as out of range, not as "not an integer".
func TestSnapshotIdPast64Bits(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	raw := string(m.ctl(http.MethodGet, "/__mock/state", nil).wantStatus(t, 200).raw)
	i := strings.Index(raw, `"cards":[{"id":`)
	if i < 0 {
		t.Fatalf("no cards in the snapshot")
	}
	j := i + len(`"cards":[{"id":`)
	k := j + strings.IndexAny(raw[j:], ",}")
	a := m.ctl(http.MethodPut, "/__mock/state", raw[:j]+"9223372036854775808"+raw[k:]).wantStatus(t, 422)
	if !strings.Contains(string(a.raw), "between -2^63 and 2^63-1") {
		t.Errorf("an id past 64 bits: %s", a.raw)
	}
}

// A snapshot saved from a world of another seed, without the source it came from, keeps a
// usable manifest when loaded: its users in the manifest's roles stand in for the ones it no
// longer has, and can log in.
func TestSnapshotOfAnotherSeedKeepsLogins(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	m.ctl(http.MethodPost, "/__worlds/seven/__mock/reset", map[string]any{"seed": 7}).wantStatus(t, 200)
	snap := string(m.ctl(http.MethodGet, "/__worlds/seven/__mock/state", nil).wantStatus(t, 200).raw)
	snap = regexp.MustCompile(`,"source":\{[^}]*\}`).ReplaceAllString(snap, "") // one saved without its source
	m.ctl(http.MethodPut, "/__worlds/other/__mock/state", snap).wantStatus(t, 200)
	raw := m.ctl(http.MethodGet, "/__worlds/other/__mock/fixtures", nil).wantStatus(t, 200).raw
	var mf struct {
		Users map[string]struct{ Email, Password string }
	}
	if err := json.Unmarshal(raw, &mf); err != nil {
		t.Fatal(err)
	}
	for _, role := range []string{"member", "teammate", "superadmin", "outsider"} {
		c := mf.Users[role]
		if c.Email == "" {
			t.Errorf("users.%s is blank after loading another seed's snapshot:\n%s", role, raw)
			continue
		}
		m.post("/__worlds/other/v1/authenticate", "", map[string]any{"email": c.Email, "password": c.Password}).wantStatus(t, 200)
	}
	// The teammate stands in as another user of the member's project.
	var st struct {
		Users []struct {
			Email     string `json:"email"`
			ProjectID int64  `json:"project_id"`
		} `json:"users"`
	}
	if err := json.Unmarshal([]byte(snap), &st); err != nil {
		t.Fatal(err)
	}
	project := map[string]int64{}
	for _, u := range st.Users {
		project[u.Email] = u.ProjectID
	}
	if mate, mem := mf.Users["teammate"].Email, mf.Users["member"].Email; mate == mem || project[mate] != project[mem] {
		t.Errorf("teammate %s (project %d) is not another user of the member %s's project %d", mate, project[mate], mem, project[mem])
	}
}

// A manifest login whose user the snapshot moved out of its role (the superadmin no longer
// one, the member made one) is stood in for, with a note, as a user gone is: the manifest
// kept naming a superadmin who was answered 403, and the suite failed the mock itself.
func TestSnapshotThatChangesARoleMovesTheManifestLogin(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	before := m.ctl(http.MethodGet, "/__mock/fixtures", nil).wantStatus(t, 200).raw
	var mf struct {
		Users map[string]struct{ Email, Password string }
	}
	if err := json.Unmarshal(before, &mf); err != nil {
		t.Fatal(err)
	}
	var st map[string]any
	if err := json.Unmarshal(m.ctl(http.MethodGet, "/__mock/state", nil).wantStatus(t, 200).raw, &st); err != nil {
		t.Fatal(err)
	}
	for _, u := range st["users"].([]any) {
		u := u.(map[string]any)
		switch u["email"] {
		case mf.Users["superadmin"].Email:
			u["is_superadmin"] = false
		case mf.Users["member"].Email:
			u["is_superadmin"] = true
		}
	}
	m.ctl(http.MethodPut, "/__mock/state", st).wantStatus(t, 200)
	raw := m.ctl(http.MethodGet, "/__mock/fixtures", nil).wantStatus(t, 200).raw
	var after struct {
		Users map[string]struct{ Email, Password string }
	}
	if err := json.Unmarshal(raw, &after); err != nil {
		t.Fatal(err)
	}
	var worlds struct {
		Worlds []struct{ Notes []string }
	}
	if err := json.Unmarshal(m.ctl(http.MethodGet, "/__mock/worlds", nil).wantStatus(t, 200).raw, &worlds); err != nil || len(worlds.Worlds) == 0 {
		t.Fatalf("GET /__mock/worlds: %v", err)
	}
	for role, was := range map[string]string{"superadmin": mf.Users["superadmin"].Email, "member": mf.Users["member"].Email} {
		if after.Users[role].Email == was {
			t.Errorf("users.%s is still %s, whose role the snapshot changed:\n%s", role, was, raw)
		}
	}
	if notes := strings.Join(worlds.Worlds[0].Notes, " "); !strings.Contains(notes, "no longer a superadmin") || !strings.Contains(notes, "a superadmin now") {
		t.Errorf("notes %q, want each moved login named", notes)
	}
}
