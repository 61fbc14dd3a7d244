package mockserver_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// `Prefer: code=NNN` answers that status in the interface's body shape for it, changes no
// state and still carries the rate-limit headers (D60).
func TestPreferForcesTheStatusInItsShape(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	member := m.login(m.manifest.Users.Member)
	tags := m.post(pTagsList, member, nil).wantStatus(t, 200).count(t, "tags")
	tests := []struct {
		prefer string
		status int
		shape  string
	}{
		{"code=400", 400, "a"},
		{"code=401", 401, "b"},
		{"code=403", 403, "a"},
		{"code=422", 422, "c"},
		{"code=429", 429, "b"},
		{"code=500", 500, "a"},
		{"code=500, example=anything", 500, "a"},
		{"dynamic=true; code=403", 403, "a"},
	}
	for _, tt := range tests {
		t.Run("Prefer: "+tt.prefer+" answers "+tt.shape, func(t *testing.T) {
			a := m.ctl(http.MethodPost, pTagsCreate, map[string]any{"name": "forced"},
				"Authorization", "Bearer "+member, "Prefer", tt.prefer).wantStatus(t, tt.status)
			a.wantShape(t, tt.shape)
			for _, h := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining"} {
				if a.header.Get(h) == "" {
					t.Errorf("no %s header", h)
				}
			}
			if tt.status == 429 && a.header.Get("Retry-After") == "" {
				t.Error("a forced 429 has no Retry-After")
			}
			if tt.status == 422 && !a.fieldErrorOf("name") {
				t.Errorf("a forced 422 of tags/create does not name its field: %s", a.raw)
			}
		})
	}
	if after := m.post(pTagsList, member, nil).wantStatus(t, 200).count(t, "tags"); after != tags {
		t.Errorf("forced answers changed state: %d tags, want %d", after, tags)
	}
}

// A forced 403 takes the shape the operation's own refusal takes (D4): (b) where only
// superadmins are let through, (a) elsewhere, where the refusal is the domain's (a widget tool
// the project does not subscribe to). A forced 403 on widget cards was shape (b), and a frontend
// built against it broke on the real refusal.
func TestForced403TakesTheOperationsOwnShape(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	member := m.login(m.manifest.Users.Member)
	admin := m.login(m.manifest.Users.Superadmin)
	real := m.post(pWidgetList, member, map[string]any{"tool_key": "no-such-tool"}).wantStatus(t, 403)
	real.wantShape(t, "a")
	for _, tt := range []struct {
		op, path, token, shape string
		body                   map[string]any
	}{
		{"widgetCardsList", pWidgetList, member, "a", map[string]any{"tool_key": m.manifest.Operations.ToolKey}},
		{"masterBoardsList", pMBoardsList, admin, "b", nil},
	} {
		t.Run(tt.op, func(t *testing.T) {
			m.ctl(http.MethodPost, tt.path, tt.body, "Authorization", "Bearer "+tt.token, "Prefer", "code=403").
				wantStatus(t, 403).wantShape(t, tt.shape)
			m.ctl(http.MethodPost, "/__mock/faults", map[string]any{"operation": tt.op, "status": 403, "times": 1}).wantStatus(t, 201)
			m.ctl(http.MethodPost, tt.path, tt.body, "Authorization", "Bearer "+tt.token).wantStatus(t, 403).wantShape(t, tt.shape)
		})
	}
}

// 404 and 409 are forced on the operations that list them, without a token where the
// operation is public; a success code runs the operation.
func TestPreferOnOtherOperations(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	cart := m.manifest.Domains.Carts[0]
	body := map[string]any{"session_token": cart.SessionToken, "cart_item_id": cart.ItemIDs[0]}
	m.ctl(http.MethodPost, pCartRemove, body, "Prefer", "code=409").wantStatus(t, 409).wantShape(t, "a")
	m.ctl(http.MethodPost, pCartRemove, body, "Prefer", "code=404").wantStatus(t, 404).wantShape(t, "a")
	// The cart still holds the item: the forced answers changed nothing, and code=200 runs it.
	a := m.ctl(http.MethodPost, pCartRemove, body, "Prefer", "code=200").wantStatus(t, 200)
	if a.header.Get("X-Mock-Forced") != "" {
		t.Errorf("a success preference was forced: %s", a.raw)
	}
}

// A code the operation does not list answers 400 shape (a) naming the codes it lists.
func TestPreferRefusesCodesTheOperationDoesNotList(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	member := m.login(m.manifest.Users.Member)
	for _, prefer := range []string{"code=409", "code=201", "code=418", "code=abc"} {
		t.Run(prefer, func(t *testing.T) {
			a := m.ctl(http.MethodPost, pTagsCreate, map[string]any{"name": "x"},
				"Authorization", "Bearer "+member, "Prefer", prefer).wantStatus(t, 400)
			a.wantShape(t, "a")
			if msg, _ := a.field("message").(string); !strings.Contains(msg, "200, 400, 401, 403, 422, 429, 500") {
				t.Errorf("message does not name the allowed codes: %q", msg)
			}
			// Marked as the mock's refusal: the checker excuses only such a 400 (a deployment
			// ignores Prefer, and its 400 is judged).
			if got := a.header.Get("X-Mock-Refused"); got != "prefer" {
				t.Errorf("X-Mock-Refused %q, want prefer", got)
			}
		})
	}
}

// A request naming a world the mock cannot serve answers 400 marked as the mock's refusal.
func TestUnservableWorldIsMarkedRefused(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	a := m.ctl(http.MethodPost, pTagsCreate, map[string]any{"name": "x"}, "X-Mock-World", "bad!").wantStatus(t, 400)
	if got := a.header.Get("X-Mock-Refused"); got != "world" {
		t.Errorf("X-Mock-Refused %q, want world (%s)", got, a.raw)
	}
	// The 503 of a full registry is the mock's capacity, not an answer of the API: marked too.
	full := newMock(t, mockserver.Config{MaxWorlds: 1})
	full.ctl(http.MethodGet, "/__worlds/a/__mock/clock", nil).wantStatus(t, 200)
	req, _ := http.NewRequest(http.MethodPost, full.url+pTagsCreate, strings.NewReader(`{"name":"x"}`))
	for k, v := range map[string]string{"Content-Type": "application/json", "X-Mock-World": "b",
		"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "cors"} {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if got := res.Header.Get("X-Mock-Refused"); res.StatusCode != http.StatusServiceUnavailable || got != "world" {
		t.Errorf("a new world with the registry full: %d, X-Mock-Refused %q; want 503 marked world", res.StatusCode, got)
	}
}

// A forced answer of a status the operation answers in a way of its own is that answer: a
// login refused by Prefer or a fault rule is authenticate's 401 body (`errors` and the
// credentials sentence, as a wrong password gets), a forced 429 of thumbnails is the project's
// limit (its sentence, Retry-After of the whole 10-minute window), not the per-minute limiter's.
func TestForcedAnswerIsTheOperationsOwn(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	member := m.login(m.manifest.Users.Member)
	real := m.post(pAuthenticate, "", map[string]any{"email": m.manifest.Users.Member.Email, "password": "wrong-password"}).wantStatus(t, 401)
	creds := map[string]any{"email": m.manifest.Users.Member.Email, "password": m.manifest.Users.Member.Password}
	forced := m.ctl(http.MethodPost, pAuthenticate, creds, "Prefer", "code=401").wantStatus(t, 401)
	if string(forced.raw) != string(real.raw) {
		t.Errorf("a forced 401 of authenticate:\n%s\nwant the real refusal:\n%s", forced.raw, real.raw)
	}
	m.ctl(http.MethodPost, "/__mock/faults", map[string]any{"operation": "authenticate", "status": 401, "times": 1}).wantStatus(t, 201)
	if fault := m.ctl(http.MethodPost, pAuthenticate, creds).wantStatus(t, 401); string(fault.raw) != string(real.raw) {
		t.Errorf("a fault's 401 of authenticate:\n%s\nwant the real refusal:\n%s", fault.raw, real.raw)
	}
	thumb := map[string]any{"type": "page", "entity_id": m.manifest.Websites.PageID}
	a := m.ctl(http.MethodPost, pThumbnails, thumb, "Authorization", "Bearer "+member, "Prefer", "code=429").wantStatus(t, 429)
	a.wantShape(t, "b")
	if msg, _ := a.field("message").(string); !strings.Contains(msg, "thumbnail regenerations") || a.header.Get("Retry-After") != "600" {
		t.Errorf("a forced 429 of thumbnails: Retry-After %q, %s; want the project's limit, 600 s", a.header.Get("Retry-After"), a.raw)
	}
}
