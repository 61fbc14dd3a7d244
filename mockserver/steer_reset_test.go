package mockserver_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// POST /__mock/reset puts the seeded world back: records created since are gone, tokens issued
// in the old world stop working (D10), and the answer carries the new manifest.
func TestResetRestoresTheSeededWorld(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	token := m.login(m.manifest.Users.Member)
	before := m.post(pTagsList, token, nil).wantStatus(t, 200).count(t, "tags")
	m.post(pTagsCreate, token, map[string]any{"name": "temporary"}).wantStatus(t, 200)

	a := m.ctl(http.MethodPost, "/__mock/reset", nil).wantStatus(t, 200)
	if a.field("seed") != float64(m.manifest.Seed) || a.field("now") == nil || a.field("fixtures") == nil {
		t.Errorf("reset answer lacks seed, now or fixtures: %s", a.raw)
	}
	m.post(pTagsList, token, nil).wantStatus(t, http.StatusUnauthorized).wantShape(t, "b")
	token = m.login(m.manifest.Users.Member)
	if after := m.post(pTagsList, token, nil).wantStatus(t, 200).count(t, "tags"); after != before {
		t.Errorf("tags after reset: %d, want the seeded %d", after, before)
	}
}

func TestResetToAnotherSeed(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	a := m.ctl(http.MethodPost, "/__mock/reset", map[string]any{"seed": 7}).wantStatus(t, 200)
	if a.field("seed") != float64(7) {
		t.Fatalf("reset to seed 7 answered %s", a.raw)
	}
	fx := m.ctl(http.MethodGet, "/__mock/fixtures", nil).wantStatus(t, 200)
	if fx.field("seed") != float64(7) {
		t.Errorf("manifest after reset to seed 7: %s", fx.raw)
	}
	// Without a seed, reset goes back to the configured one.
	m.ctl(http.MethodPost, "/__mock/reset", "").wantStatus(t, 200)
	if fx := m.ctl(http.MethodGet, "/__mock/fixtures", nil); fx.field("seed") != float64(m.manifest.Seed) {
		t.Errorf("manifest after a plain reset: seed %v, want %d", fx.field("seed"), m.manifest.Seed)
	}
}

func TestResetRejectsBadInput(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	tests := []struct {
		name   string
		body   string
		status int
		field  string
	}{
		{"malformed JSON is a bad request", `{"seed":`, 400, ""},
		{"a body that is not an object is a bad request", `[1]`, 400, ""},
		{"seed 0 is refused", `{"seed": 0}`, 422, "seed"},
		{"a seed that is not an integer is refused", `{"seed": "x"}`, 422, "seed"},
		{"an unknown field is refused", `{"sede": 5}`, 422, "sede"},
		// A seed past 2^53-1 would be shown back inexactly to a JavaScript client, which
		// resetting to what it read would get another world (or a refusal).
		{"a seed past 2^53-1 is refused", `{"seed": 9007199254740993}`, 422, "seed"},
		{"a seed below -(2^53-1) is refused", `{"seed": -9007199254740992}`, 422, "seed"},
		// A body built from an unset variable: it reset to --scenario without a word.
		{"an empty scenario name is refused", `{"seed": 7, "scenario": ""}`, 422, "scenario"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := m.ctl(http.MethodPost, "/__mock/reset", tt.body).wantStatus(t, tt.status)
			if tt.status == 400 {
				a.wantShape(t, "a")
				return
			}
			a.wantShape(t, "c")
			if !a.fieldErrorOf(tt.field) {
				t.Errorf("no error for %q: %s", tt.field, a.raw)
			}
		})
	}
}

// A form sent to a control (curl -F, curl --data with a form) is named as such: it was "not
// valid JSON: line 1, column 2: '-' in a number".
func TestControlSaysAFormIsNotJSON(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	form := "--X\r\nContent-Disposition: form-data; name=\"seed\"\r\n\r\n7\r\n--X--\r\n"
	a := m.ctl(http.MethodPost, "/__mock/reset", form, "Content-Type", "multipart/form-data; boundary=X").wantStatus(t, http.StatusBadRequest)
	a.wantShape(t, "a")
	if !strings.Contains(string(a.raw), "form data") || !strings.Contains(string(a.raw), "JSON object") {
		t.Errorf("a multipart body to a control: %s", a.raw)
	}
	// JSON with a mistake, sent as curl -d sends it (labelled a form), is told where the
	// mistake is, not that it is a form.
	a = m.ctl(http.MethodPost, "/__mock/reset", `{"seed": 7,}`, "Content-Type", "application/x-www-form-urlencoded").wantStatus(t, http.StatusBadRequest)
	if strings.Contains(string(a.raw), "form data") || !strings.Contains(string(a.raw), "column") {
		t.Errorf("a JSON body with a trailing comma, labelled a form: %s", a.raw)
	}
}

// Reset also forgets rate-limit windows, fault rules and the journal.
func TestResetClearsRateWindowsFaultsAndJournal(t *testing.T) {
	m := newMock(t, mockserver.Config{RateLimit: 2})
	body := map[string]any{"email": "nobody@example.com", "password": "x"}
	m.post(pAuthenticate, "", body)
	m.post(pAuthenticate, "", body)
	m.post(pAuthenticate, "", body).wantStatus(t, http.StatusTooManyRequests)
	m.ctl(http.MethodPost, "/__mock/faults", map[string]any{"operation": "tagsList", "status": 500}).wantStatus(t, 201)

	m.ctl(http.MethodPost, "/__mock/reset", nil).wantStatus(t, 200)

	m.post(pAuthenticate, "", body).wantStatus(t, http.StatusUnauthorized)
	if f := m.ctl(http.MethodGet, "/__mock/faults", nil).list(t, "faults"); len(f) != 0 {
		t.Errorf("fault rules after reset: %v", f)
	}
	// The journal holds only the login made after the reset.
	if j := m.ctl(http.MethodGet, "/__mock/requests", nil).list(t, "requests"); len(j) != 1 {
		t.Errorf("journal after reset and one request: %d entries, want 1", len(j))
	}
}

// Each control that replaces a world's records or moves its clock marks its answer with the
// build of the records (X-Mock-World-Build), as operations' answers are marked: a proxy in front
// of the mock takes only a marked answer as a reset, never a deployment's catch-all 2xx (D123).
func TestControlsThatReplaceRecordsMarkTheirBuild(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	build := func(a answer) string { return a.header.Get("X-Mock-World-Build") }
	before := build(m.post(pTagsList, m.login(m.manifest.Users.Member), nil).wantStatus(t, 200))
	snapshot := m.ctl(http.MethodGet, "/__mock/state", nil).wantStatus(t, 200).raw
	m.ctl(http.MethodPost, "/__worlds/w1/__mock/reset", nil).wantStatus(t, 200)
	seen := map[string]string{"an operation": before}
	for _, c := range []struct {
		name, method, path string
		body               any
		rebuilds           bool
	}{
		{"a reset", http.MethodPost, "/__mock/reset", nil, true},
		{"a snapshot loaded", http.MethodPut, "/__mock/state", string(snapshot), true},
		{"the default world deleted (reset)", http.MethodDelete, "/__mock/worlds?name=default", nil, true},
		{"a clock move", http.MethodPost, "/__mock/clock", map[string]any{"advance_seconds": 5}, false},
		{"a clock release", http.MethodDelete, "/__mock/clock", nil, false},
		{"a world deleted", http.MethodDelete, "/__mock/worlds?name=w1", nil, false},
	} {
		got := build(m.ctl(c.method, c.path, c.body).wantStatus(t, 200))
		if got == "" {
			t.Errorf("%s: no X-Mock-World-Build on its answer", c.name)
			continue
		}
		for what, b := range seen {
			if c.rebuilds && b == got {
				t.Errorf("%s: build %s, the same as %s's: the records were replaced", c.name, got, what)
			}
		}
		seen[c.name] = got
	}
	if got := build(m.ctl(http.MethodGet, "/__mock/clock", nil)); got != "" {
		t.Errorf("GET /__mock/clock changes nothing, yet is marked with build %s", got)
	}
}

// The largest seed a JavaScript client reads exactly is taken, and shown back as it was sent;
// so is the largest page of comments/list, echoed as current_page; one past either is refused.
func TestSeedsAndPagesShownBackExactly(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	a := m.ctl(http.MethodPost, "/__mock/reset", `{"seed": 9007199254740991}`).wantStatus(t, 200)
	if !strings.Contains(string(a.raw), `"seed":9007199254740991`) {
		t.Errorf("reset to seed 2^53-1: %s", a.raw)
	}
	fx := a.body["fixtures"].(map[string]any)
	member := fx["users"].(map[string]any)["member"].(map[string]any)
	token := m.login(fixtures.Credentials{Email: member["email"].(string), Password: member["password"].(string)})
	card := fx["operations"].(map[string]any)["card_id"]
	page := m.post(pCommentsList, token, map[string]any{"card_id": card, "page": int64(1<<53 - 1)}).wantStatus(t, 200)
	if !strings.Contains(string(page.raw), `"current_page":9007199254740991`) {
		t.Errorf("page 2^53-1: %s", page.raw)
	}
	m.post(pCommentsList, token, map[string]any{"card_id": card, "page": int64(1 << 53)}).wantStatus(t, 422).wantFieldError(t, "page")
}

// A whole number past 64 bits is told the field's own range, as a value just past it is: a
// seed of 1e400 was told "between -2^63 and 2^63-1", a page "not greater than
// 9223372036854775807", a fault's times and latency_ms the same.
func TestNumbersPast64BitsAreToldTheFieldsRange(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	token := m.login(m.manifest.Users.Member)
	for _, c := range []struct {
		a     answer
		field string
		want  string
	}{
		{m.ctl(http.MethodPost, "/__mock/reset", `{"seed": 1e400}`), "seed", "9007199254740991"},
		{m.ctl(http.MethodPost, "/__mock/reset", `{"seed": -1e400}`), "seed", "9007199254740991"},
		{m.ctl(http.MethodPost, "/__mock/faults", `{"operation": "tagsList", "status": 500, "times": 1e400}`), "times", "1000000"},
		{m.ctl(http.MethodPost, "/__mock/faults", `{"operation": "tagsList", "latency_ms": 1e19}`), "latency_ms", "30000"},
		{m.ctl(http.MethodPost, "/__mock/faults", `{"operation": "tagsList", "status": 1e30}`), "status", "599"},
		{m.post(pCommentsList, token, `{"card_id": `+fmt.Sprint(m.manifest.Operations.CardID)+`, "page": 1e400}`), "page", "9007199254740991"},
	} {
		if c.a.status != http.StatusUnprocessableEntity || !strings.Contains(fmt.Sprint(c.a.body["errors"]), c.want) {
			t.Errorf("%s: %d %s, want 422 under %s naming %s", c.a.req, c.a.status, c.a.raw, c.field, c.want)
		}
	}
}
