package mockserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/fixtures"
)

// An attacker's body names a field twice, once as the schema spells it (validated) and once in
// another case (which validation reads as an unknown member, and encoding/json would read into
// the same field, last wins): the value stored is the validated one, so nothing outside the
// field's rules is ever stored, answered or saved.
func TestFieldNamesMatchExactly(t *testing.T) {
	s, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	m := fixtures.Build(fixtures.DefaultSeed, s.Now()).Manifest
	send := func(path, token, body string) map[string]any {
		t.Helper()
		req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		var out map[string]any
		_ = json.Unmarshal(rec.Body.Bytes(), &out)
		if rec.Code/100 != 2 {
			t.Fatalf("%s %s: %d %s", path, body, rec.Code, rec.Body)
		}
		data, _ := out["data"].(map[string]any)
		return data
	}
	login := send("/v1/authenticate", "", fmt.Sprintf(`{"email":%q,"password":%q}`, m.Users.Member.Email, m.Users.Member.Password))
	token, _ := login["token"].(string)

	long := strings.Repeat("n", 300)
	tag := send("/services/operations/v1/operations/tags/create", token, `{"name":"ok","NAME":"`+long+`","Name":"`+long+`"}`)["tag"].(map[string]any)
	if tag["name"] != "ok" {
		t.Errorf("tags/create stored name %.40q…, want the validated \"ok\"", tag["name"])
	}
	send("/services/operations/v1/operations/cards/update", token,
		fmt.Sprintf(`{"id":%d,"priority":"low","Priority":"mega","DUE_DATE":"2026-01-01T00:00:00+24:00"}`, m.Operations.CardID))
	for _, c := range s.worlds.def.state().store.State().Cards {
		if c.ID == m.Operations.CardID && (c.Priority != "low" || c.DueDate != nil && c.DueDate.Year() == 2025) {
			t.Errorf("cards/update stored priority %v, due date %v: want the validated low and no due date from DUE_DATE", c.Priority, c.DueDate)
		}
	}
}

// A careless ?world= on a control that changes a world is refused, and nothing changes: it was
// ignored, so DELETE /__mock/requests?world=a cleared the default world's journal and POST
// /__mock/reset?world=a reset the default world (every token of it revoked). Reading a
// world's journal with ?world= still works.
func TestWorldQueryOnlyReads(t *testing.T) {
	s, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	serve := func(method, target, body string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, target, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		return rec
	}
	serve(http.MethodGet, "/__worlds/a/healthz", "")
	serve(http.MethodPost, "/services/operations/v1/operations/tags/list", "{}") // a 401 in the default world's journal
	serve(http.MethodPost, "/__worlds/a/services/operations/v1/operations/tags/list", "{}")
	before := s.worlds.def.state().store.State()
	for _, c := range []struct{ method, target, body string }{
		{http.MethodDelete, "/__mock/requests?world=a", ""},
		{http.MethodPost, "/__mock/reset?world=a", "{}"},
		{http.MethodPost, "/__mock/clock?world=a", `{"advance_seconds":60}`},
		{http.MethodPost, "/__mock/faults?world=a", `{"operation":"tagsList","status":500}`},
		{http.MethodGet, "/__mock/state?world=a", ""},
	} {
		rec := serve(c.method, c.target, c.body)
		var body map[string]any
		_ = json.Unmarshal(rec.Body.Bytes(), &body)
		if rec.Code != http.StatusBadRequest || body["error"] != true || !strings.Contains(fmt.Sprint(body["message"]), "/__worlds/<name>") {
			t.Errorf("%s %s: %d %s, want 400 shape (a) pointing to /__worlds/<name>", c.method, c.target, rec.Code, rec.Body)
		}
	}
	if n := len(s.worlds.def.journal.list(0)); n != 1 {
		t.Errorf("the default world's journal holds %d entries, want its 1", n)
	}
	if after := s.worlds.def.state().store.State(); len(after.Tokens) != len(before.Tokens) || len(s.worlds.def.faults.list()) != 0 {
		t.Errorf("the default world changed: %d tokens, was %d; faults %v", len(after.Tokens), len(before.Tokens), s.worlds.def.faults.list())
	}
	rec := serve(http.MethodGet, "/__mock/requests?world=a", "")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"world":"a"`) {
		t.Errorf("GET /__mock/requests?world=a: %d %s", rec.Code, rec.Body)
	}
}
