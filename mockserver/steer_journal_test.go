package mockserver_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// GET /__mock/requests lists the requests to the API, newest first, with method, path, status,
// duration and both bodies; the mock's own endpoints are not listed (D64).
func TestJournalListsRequestsNewestFirst(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	member := m.login(m.manifest.Users.Member)
	m.post(pTagsCreate, member, map[string]any{"name": "journaled"}).wantStatus(t, 200)
	m.ctl(http.MethodGet, "/__mock/clock", nil)
	m.ctl(http.MethodGet, "/no/such/path", nil).wantStatus(t, 404)

	j := m.ctl(http.MethodGet, "/__mock/requests", nil).wantStatus(t, 200).list(t, "requests")
	if len(j) != 3 {
		t.Fatalf("journal has %d entries, want 3 (login, tags/create, the 404): %v", len(j), j)
	}
	if j[0]["path"] != "/no/such/path" || j[0]["status"] != float64(404) {
		t.Errorf("newest entry: %v", j[0])
	}
	e := j[1]
	if e["method"] != "POST" || e["path"] != pTagsCreate || e["operation"] != "tagsCreate" || e["status"] != float64(200) {
		t.Errorf("tags/create entry: %v", e)
	}
	if _, ok := e["duration_ms"].(float64); !ok {
		t.Errorf("no duration_ms: %v", e)
	}
	req := e["request"].(map[string]any)["body"].(map[string]any)
	res := e["response"].(map[string]any)["body"].(map[string]any)
	if req["name"] != "journaled" || res["data"].(map[string]any)["tag"].(map[string]any)["name"] != "journaled" {
		t.Errorf("bodies not kept: request %v, response %v", req, res)
	}
	if one := m.ctl(http.MethodGet, "/__mock/requests?limit=1", nil).list(t, "requests"); len(one) != 1 || one[0]["path"] != "/no/such/path" {
		t.Errorf("?limit=1 gave %v", one)
	}
	m.ctl(http.MethodGet, "/__mock/requests?limit=zero", nil).wantStatus(t, 422)
	m.ctl(http.MethodGet, "/__mock/requests?limit=-99999999999999999999", nil).wantStatus(t, 422)
	if all := m.ctl(http.MethodGet, "/__mock/requests?limit=99999999999999999999", nil).wantStatus(t, 200).list(t, "requests"); len(all) < 2 {
		t.Errorf("a limit past 64 bits gave %d entries, want every entry kept", len(all)) // more than any journal keeps
	}
	for _, q := range []string{"limit=1&limit=2", "status=200&status=401", "operation=tagsList&operation=cardsList"} {
		if a := m.ctl(http.MethodGet, "/__mock/requests?"+q, nil).wantStatus(t, 422); !strings.Contains(string(a.raw), "more than once") {
			t.Errorf("?%s: %s, want the parameter named as given more than once", q, a.raw)
		}
		if !strings.HasPrefix(q, "limit") { // count reads no limit: refused as unread (TestControlsRefuseQueriesTheyDoNotRead)
			m.ctl(http.MethodGet, "/__mock/requests/count?"+q, nil).wantStatus(t, 422)
		}
	}
	m.ctl(http.MethodDelete, "/__mock/requests", nil).wantStatus(t, 200)
	if j := m.ctl(http.MethodGet, "/__mock/requests", nil).list(t, "requests"); len(j) != 0 {
		t.Errorf("journal after DELETE: %v", j)
	}
}

// Passwords, tokens (the login's data.token, the Authorization header) and cart session tokens
// never appear in the journal.
func TestJournalRedactsCredentials(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	creds := m.manifest.Users.Member
	member := m.login(creds)
	cart := m.manifest.Domains.Carts[0]
	m.post(pCartRemove, "", map[string]any{"session_token": cart.SessionToken, "cart_item_id": cart.ItemIDs[0]}).wantStatus(t, 200)
	m.post(pTagsList, member, nil).wantStatus(t, 200)
	m.ctl(http.MethodPost, pAuthenticate, `{"email": "a@b.co", "password": "half-sent`)

	a := m.ctl(http.MethodGet, "/__mock/requests", nil).wantStatus(t, 200)
	raw := string(a.raw)
	for _, secret := range []string{creds.Password, member, cart.SessionToken, "half-sent"} {
		if strings.Contains(raw, secret) {
			t.Errorf("the journal holds a secret %q", secret)
		}
	}
	if !strings.Contains(raw, "Bearer [redacted]") || !strings.Contains(raw, `"password":"[redacted]"`) {
		t.Errorf("redaction markers missing: %s", truncate(raw))
	}
	var j struct {
		Requests []struct {
			Response struct{ Body json.RawMessage } `json:"response"`
		} `json:"requests"`
	}
	_ = json.Unmarshal(a.raw, &j)
	login := j.Requests[len(j.Requests)-1].Response.Body
	if !strings.Contains(string(login), `"token":"[redacted]"`) {
		t.Errorf("login answer in the journal: %s", login)
	}
}

// The journal keeps the last N requests (Config.JournalSize).
func TestJournalKeepsTheLastN(t *testing.T) {
	m := newMock(t, mockserver.Config{JournalSize: 3})
	for range 5 {
		m.post(pAuthenticate, "", map[string]any{"email": "a@b.co", "password": "x"})
	}
	j := m.ctl(http.MethodGet, "/__mock/requests", nil).list(t, "requests")
	if len(j) != 3 || j[0]["id"] != float64(5) || j[2]["id"] != float64(3) {
		t.Errorf("journal of size 3 after 5 requests, want ids 5, 4, 3: %v", j)
	}
}
