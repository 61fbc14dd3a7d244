package mockserver_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/mockserver"
	"github.com/opsapi/mocktoolkit/reference"
	"github.com/opsapi/mocktoolkit/spec"
)

// A date-time of year 10000 once in UTC (D73). It is refused as a field error, and
// the lists, the snapshot and everything after keep working (D73).
func TestUnwritableDateTimeIsAFieldError(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	token := m.login(m.manifest.Users.Member)
	card := m.manifest.Operations.CardID
	for v, says := range map[string]string{
		"9999-12-31T23:59:59-23:59": "once converted to UTC", // well formed, out of range: says which range
		"0000-01-01T00:00:00+00:01": "once converted to UTC",
		"2026-01-01T00:00:00+24:00": "valid RFC 3339 date-time",
	} {
		a := m.post(pCardsUpdate, token, map[string]any{"id": card, "due_date": v})
		a.wantFieldError(t, "due_date")
		if !strings.Contains(string(a.raw), says) {
			t.Errorf("due_date %s: %s, want it to say %q", v, a.raw, says)
		}
		a = m.post(pCardsCreate, token, map[string]any{"title": "t", "due_date": v})
		a.wantFieldError(t, "due_date")
	}
	m.post(pCardsList, token, map[string]any{}).wantStatus(t, http.StatusOK)
	m.post(pWidgetList, token, map[string]any{"tool_key": m.manifest.Operations.ToolKey}).wantStatus(t, http.StatusOK)
	m.ctl(http.MethodGet, "/__mock/state", nil).wantStatus(t, http.StatusOK)
}

// Property (D9, D73): every date-time the validator accepts round-trips through the answer
// (in UTC, to the second) and through the snapshot (export, load, export); every one it
// refuses is a 422 keyed by the field. Each accepted value is a card of its own, so one
// snapshot holds them all.
func TestAcceptedDateTimesRoundTrip(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	token := m.login(m.manifest.Users.Member)
	r := rand.New(rand.NewPCG(10, 73))
	var stored []string
	for i := range 150 {
		v := randomDateTime(r, i)
		a := m.post(pCardsCreate, token, map[string]any{"title": "due", "due_date": v})
		if spec.ValidateDateTime(v) != nil {
			a.wantFieldError(t, "due_date")
			continue
		}
		a.wantStatus(t, http.StatusOK)
		parsed, _ := time.Parse(time.RFC3339Nano, v)
		want := parsed.UTC().Truncate(time.Second).Format(time.RFC3339)
		got, _ := a.data()["card"].(map[string]any)["due_date"].(string)
		if got != want {
			t.Fatalf("due_date %q answered %q, want %q", v, got, want)
		}
		stored = append(stored, want)
	}
	if len(stored) < 30 {
		t.Errorf("only %d of 150 generated date-times were valid: the generator misses the point", len(stored))
	}
	snap := m.ctl(http.MethodGet, "/__mock/state", nil).wantStatus(t, http.StatusOK)
	for _, want := range stored {
		if !strings.Contains(string(snap.raw), `"due_date":"`+want+`"`) {
			t.Errorf("the snapshot does not hold due_date %q", want)
		}
	}
	m.ctl(http.MethodPut, "/__mock/state", string(snap.raw)).wantStatus(t, http.StatusOK)
	again := m.ctl(http.MethodGet, "/__mock/state", nil).wantStatus(t, http.StatusOK)
	if string(again.raw) != string(snap.raw) {
		t.Errorf("export → load → export of %d cards with generated due dates differs", len(stored))
	}
	m.post(pCardsList, token, map[string]any{}).wantStatus(t, http.StatusOK)
}

// randomDateTime draws RFC 3339 date-times near the edges: years 0000 and 9999, offsets up to
// ±24:59, fractions of a second.
func randomDateTime(r *rand.Rand, i int) string {
	years := []int{0, 1, 2026, 9998, 9999}
	year := years[i%len(years)]
	if i%7 == 6 {
		year = r.IntN(10000)
	}
	month, day := 1+r.IntN(12), 1+r.IntN(28)
	if r.IntN(2) == 0 {
		month, day = []int{1, 12}[r.IntN(2)], []int{1, 31}[r.IntN(2)]
	}
	s := fmt.Sprintf("%04d-%02d-%02dT%02d:%02d:%02d", year, month, day, r.IntN(24), r.IntN(60), r.IntN(60))
	if r.IntN(3) == 0 {
		s += fmt.Sprintf(".%d", r.IntN(1000))
	}
	if r.IntN(4) == 0 {
		return s + "Z"
	}
	sign := []string{"+", "-"}[r.IntN(2)]
	return s + fmt.Sprintf("%s%02d:%02d", sign, r.IntN(25), r.IntN(60))
}

// Numbers never wrap (D75, D63): a position past 32 bits is a field error, and the clock,
// advanced by its largest step again and again, stops at its bound instead of wrapping into
// the past.
func TestNumbersNeverWrap(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	token := m.login(m.manifest.Users.Member)
	m.post(pTagsCreate, token, `{"name":"top","position":9223372036854775807}`).wantFieldError(t, "position")
	m.post(pBoardsUpdate, token, map[string]any{"id": m.manifest.Operations.BoardID, "position": -1 << 40}).wantFieldError(t, "position")
	top := m.post(pTagsCreate, token, map[string]any{"name": "top", "position": 2147483647}).wantStatus(t, http.StatusOK)
	next := m.post(pTagsCreate, token, map[string]any{"name": "next"}).wantStatus(t, http.StatusOK)
	if p := next.data()["tag"].(map[string]any)["position"]; p != top.data()["tag"].(map[string]any)["position"] {
		t.Errorf("the tag after the largest position got %v", p)
	}

	last := m.ctl(http.MethodGet, "/__mock/clock", nil).field("now").(string)
	for i := 0; ; i++ {
		a := m.ctl(http.MethodPost, "/__mock/clock", map[string]any{"advance_seconds": 315360000})
		if a.status == http.StatusUnprocessableEntity {
			a.wantFieldError(t, "advance_seconds")
			break
		}
		a.wantStatus(t, http.StatusOK)
		now := a.field("now").(string)
		if now < last {
			t.Fatalf("advance %d moved the clock back from %s to %s", i, last, now)
		}
		last = now
		if i > 1000 {
			t.Fatal("the clock never stopped")
		}
	}
	if !strings.HasPrefix(last, "99") {
		t.Errorf("the clock stopped at %s, want it near its bound", last)
	}
	m.post(pCardsCreate, token, map[string]any{"title": "late"}).wantStatus(t, http.StatusOK)
	m.ctl(http.MethodGet, "/__mock/state", nil).wantStatus(t, http.StatusOK)
}

// Text that is not UTF-8 is a field error (D74), raw or as an escaped lone surrogate.
func TestInvalidTextIsAFieldError(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	token := m.login(m.manifest.Users.Member)
	a := m.post(pCardsCreate, token, `{"title":"\ud800"}`)
	a.wantFieldError(t, "title")
	if msg := a.body["errors"].(map[string]any)["title"].([]any)[0]; msg != "The title field must be valid UTF-8 text." {
		t.Errorf("message = %q", msg)
	}
	m.post(pCommentsNew, token, "{\"card_id\":1,\"comment\":\"caf\xe9\"}").wantFieldError(t, "comment")
	m.post(pTagsCreate, token, `{"name":"ok \ud83d\ude00","color":"\udc00"}`).wantFieldError(t, "color")
	m.post(pCardsCreate, token, `{"title":"fine \ud83d\ude00 \ufffd"}`).wantStatus(t, http.StatusOK)
	// Bad text twice inside one field (a key and a value) is one message for that field.
	a = m.post(pCardsCreate, token, `{"title":"ok","x":{"\ud800":"\udc00"}}`)
	a.wantFieldError(t, "x")
	if msgs := a.body["errors"].(map[string]any)["x"].([]any); len(msgs) != 1 {
		t.Errorf("x has %d messages, want one: %v", len(msgs), msgs)
	}
}

// A member name that is not UTF-8 names no field, so the body is not read as the operation's
// fields (D199): 400 shape (a) where the operation lists 400, else 422 keyed by the fields it
// requires, as an unreadable body is answered there (D2); never an `errors` key no operation has.
func TestMemberNameThatIsNotTextIsABadBody(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	token := m.login(m.manifest.Users.Member)
	a := m.post(pCardsCreate, token, "{\"title\":\"ok\",\"x\xff\":1}").wantStatus(t, http.StatusBadRequest)
	a.wantShape(t, "a")
	if !strings.Contains(fmt.Sprint(a.body["message"]), "member name is not UTF-8") {
		t.Errorf("message %q does not say what is wrong", a.body["message"])
	}
	a = m.post(pConvRestore, token, "{\"conversation_id\":1,\"\\udc00\":1}")
	a.wantFieldError(t, "conversation_id")
	if _, ok := a.body["errors"].(map[string]any)["body"]; ok {
		t.Errorf("errors keyed by body: %s", a.raw)
	}
	m.post(pCardsCreate, token, "{\"title\":{\"a\xff\":1}}").wantFieldError(t, "title")
}

// A snapshot is held to the API's field rules (D76) and to valid text (D74); the error names
// the record and the field, and the old world stays.
func TestSnapshotFieldRules(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	snap := m.ctl(http.MethodGet, "/__mock/state", nil).wantStatus(t, http.StatusOK)
	var st reference.State
	if err := json.Unmarshal(snap.raw, &st); err != nil {
		t.Fatal(err)
	}
	st.Cards[3].Priority = "weird"
	a := m.ctl(http.MethodPut, "/__mock/state", st)
	a.wantFieldError(t, "state")
	want := fmt.Sprintf("cards[3] (id %d): priority must be one of low, normal, high, urgent", st.Cards[3].ID)
	if !strings.Contains(string(a.raw), want) {
		t.Errorf("answer %s does not name %q", a.raw, want)
	}
	bad := strings.Replace(string(snap.raw), `"title":"`, `"title":"\udfff`, 1)
	a = m.ctl(http.MethodPut, "/__mock/state", bad)
	a.wantFieldError(t, "boards")
	if want := "The boards field must be valid UTF-8 text at boards[0].title."; !strings.Contains(string(a.raw), want) {
		t.Errorf("answer %s does not name %q", a.raw, want)
	}
	if after := m.ctl(http.MethodGet, "/__mock/state", nil); string(after.raw) != string(snap.raw) {
		t.Error("a refused snapshot changed the world")
	}
}

// Authenticate trims the e-mail on both sides (D49), through the spec's e-mail format too.
func TestLoginTrimsTheEmail(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	member := m.manifest.Users.Member
	for _, email := range []string{" " + member.Email, member.Email + " ", " " + member.Email + "  "} {
		m.post(pAuthenticate, "", map[string]any{"email": email, "password": member.Password}).wantStatus(t, http.StatusOK)
	}
}
