package mockserver_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// A control of /__mock/ refuses a query parameter it does not read, with 400 shape (a) naming
// it, and changes nothing (nor makes the world it names): a careless DELETE /__mock/faults?id=… cleared every rule, and
// POST /__mock/reset?seed=7 reset to the default seed, both answering 200.
func TestControlsRefuseQueriesTheyDoNotRead(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	m.ctl(http.MethodPost, "/__mock/faults", map[string]any{"operation": "tagsList", "status": 500}).wantStatus(t, http.StatusCreated)
	m.ctl(http.MethodPost, "/__mock/faults", map[string]any{"operation": "cardsList", "status": 500}).wantStatus(t, http.StatusCreated)
	before := m.ctl(http.MethodGet, "/__mock/clock", nil).field("now")
	for _, c := range []struct{ method, target, unread string }{
		{http.MethodDelete, "/__mock/faults?id=1", `"id"`},
		{http.MethodDelete, "/__mock/requests?operation=tagsList", `"operation"`},
		{http.MethodPost, "/__mock/reset?seed=7", `"seed"`},
		{http.MethodPost, "/__mock/clock?advance_seconds=5", `"advance_seconds"`},
		{http.MethodGet, "/__mock/requests?limt=5", `"limt"`},
		{http.MethodGet, "/__mock/requests/count?limit=5&x=1", `"limit", "x"`},
		{http.MethodDelete, "/__mock/worlds?name=a&force=1", `"force"`},
		{http.MethodGet, "/__mock/state?pretty", `"pretty"`},
		{http.MethodGet, "/__worlds/q1/__mock/flow?since=3", `"since"`},
	} {
		var body any
		if c.method == http.MethodPost {
			body = map[string]any{}
		}
		a := m.ctl(c.method, c.target, body).wantStatus(t, http.StatusBadRequest)
		a.wantShape(t, "a")
		if msg, _ := a.field("message").(string); !strings.Contains(msg, "does not read "+c.unread+".") || !strings.Contains(msg, "Nothing was changed") {
			t.Errorf("%s %s: %q, want the unread parameters %s named", c.method, c.target, msg, c.unread)
		}
	}
	if worlds := string(m.ctl(http.MethodGet, "/__mock/worlds", nil).raw); strings.Contains(worlds, `"q1"`) {
		t.Errorf("a refused control made its world: %s", worlds)
	}
	if f := m.ctl(http.MethodGet, "/__mock/faults", nil).list(t, "faults"); len(f) != 2 {
		t.Errorf("fault rules after refused controls: %v", f)
	}
	if now := m.ctl(http.MethodGet, "/__mock/clock", nil).field("now"); now != before {
		t.Errorf("the clock moved from %v to %v", before, now)
	}
	// What the controls read, and the mock's static pages, still take their queries.
	m.ctl(http.MethodGet, "/__mock/requests?limit=1&operation=tagsList&status=2xx", nil).wantStatus(t, http.StatusOK)
	m.ctl(http.MethodGet, "/__mock/requests/count?operation=tagsList", nil).wantStatus(t, http.StatusOK)
	m.ctl(http.MethodGet, "/healthz?probe=1", nil).wantStatus(t, http.StatusOK)
	m.ctl(http.MethodGet, "/openapi.json?v=2", nil).wantStatus(t, http.StatusOK)
}

// A query string that cannot be read is refused too (400), and a parameter the journal reads
// given with no value (422 keyed by it), not read as nothing: POST
// /__mock/reset?seed=7;scenario=empty reset to the default seed and scenario, and ?limit=
// listed the whole journal.
func TestControlsRefuseQueriesTheyCannotRead(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	for _, c := range []struct{ method, target, want string }{
		{http.MethodPost, "/__worlds/qq/__mock/reset?seed=7;scenario=empty", "cannot be read"},
		{http.MethodGet, "/__mock/clock?bogus=%zz", "cannot be read"},
		{http.MethodGet, "/__mock/requests?limit=1%zz", "cannot be read"},
	} {
		var body any
		if c.method == http.MethodPost {
			body = map[string]any{}
		}
		a := m.ctl(c.method, c.target, body).wantStatus(t, http.StatusBadRequest)
		a.wantShape(t, "a")
		if msg, _ := a.field("message").(string); !strings.Contains(msg, c.want) || !strings.Contains(msg, "Nothing was changed") {
			t.Errorf("%s %s: %q, want it to say %q", c.method, c.target, msg, c.want)
		}
	}
	if worlds := string(m.ctl(http.MethodGet, "/__mock/worlds", nil).raw); strings.Contains(worlds, `"qq"`) {
		t.Errorf("a refused control made its world: %s", worlds)
	}
	m.ctl(http.MethodGet, "/__mock/requests?limit=", nil).wantFieldError(t, "limit")
	m.ctl(http.MethodGet, "/__mock/requests/count?operation=&status=2xx", nil).wantFieldError(t, "operation")
}

// A DELETE control reads no body: one naming what to clear (a rule, an operation's entries)
// is refused with 400 shape (a) saying what the control does, and nothing is cleared; a
// careless client sending {"operation":"tagsList"} wiped every rule and the whole journal.
func TestDeleteControlsRefuseABody(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	m.ctl(http.MethodPost, "/__mock/faults", map[string]any{"operation": "tagsList", "status": 500}).wantStatus(t, http.StatusCreated)
	m.ctl(http.MethodPost, "/__mock/faults", map[string]any{"operation": "cardsList", "status": 500}).wantStatus(t, http.StatusCreated)
	m.ctl(http.MethodPost, "/services/operations/v1/operations/tags/list", map[string]any{}).wantStatus(t, http.StatusInternalServerError) // the rule above
	for _, c := range []struct{ target, body, says string }{
		{"/__mock/faults", `{"operation":"tagsList"}`, "clears every fault rule"},
		{"/__mock/faults", "garbage", "clears every fault rule"},
		{"/__mock/requests", `{"operation":"tagsList"}`, "whole journal"},
		{"/__mock/worlds?name=default", `{"name":"w1"}`, "?name="},
	} {
		a := m.ctl(http.MethodDelete, c.target, c.body).wantStatus(t, http.StatusBadRequest)
		a.wantShape(t, "a")
		if msg, _ := a.field("message").(string); !strings.Contains(msg, "takes no body") || !strings.Contains(msg, c.says) || !strings.Contains(msg, "nothing was changed") {
			t.Errorf("DELETE %s with %s: %q", c.target, c.body, msg)
		}
	}
	if f := m.ctl(http.MethodGet, "/__mock/faults", nil).list(t, "faults"); len(f) != 2 {
		t.Errorf("fault rules after refused clears: %v", f)
	}
	if reqs := m.ctl(http.MethodGet, "/__mock/requests", nil).list(t, "requests"); len(reqs) != 1 {
		t.Errorf("the journal after a refused clear holds %d entries", len(reqs))
	}
	// White space is no body, however much of it up to the 1 MiB any body may be (128 KiB of
	// it was refused as a body).
	m.ctl(http.MethodDelete, "/__mock/requests", strings.Repeat(" ", 128<<10)).wantStatus(t, http.StatusOK)
	m.ctl(http.MethodDelete, "/__mock/faults", " \n").wantStatus(t, http.StatusOK)
	if f := m.ctl(http.MethodGet, "/__mock/faults", nil).list(t, "faults"); len(f) != 0 {
		t.Errorf("fault rules after a clear: %v", f)
	}
}

// A list where a control reads one value is named by the field, not by its first element:
// "The scenario[0] field must be a string" pointed at an element that is one.
func TestControlTypeErrorsNameTheField(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	for _, c := range []struct {
		path  string
		body  string
		field string
	}{
		{"/__mock/reset", `{"scenario":["empty"]}`, "scenario"},
		{"/__mock/clock", `{"set":["2030-01-01T00:00:00Z"]}`, "set"},
		{"/__mock/faults", `{"operation":["tagsList"],"status":500}`, "operation"},
	} {
		a := m.ctl(http.MethodPost, c.path, c.body)
		a.wantFieldError(t, c.field)
		if errs, _ := a.body["errors"].(map[string]any); len(errs) != 1 {
			t.Errorf("%s %s: %s, want only %q named", c.path, c.body, a.raw, c.field)
		}
	}
}
