package mockserver_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// A control that reads or clears what a world recorded, asked of a world not there, makes no
// world and pushes out none: it answers 404 saying so, and for a world dropped to make room,
// when and why (a flow download of a dropped world answered an empty flow, and pushed out yet
// another worker's world). A control that changes a world makes it only once its body is
// taken: a refused reset, clock move or fault rule makes none (D141).
func TestControlsMakeAWorldOnlyWhenTheyChangeIt(t *testing.T) {
	m := newMock(t, mockserver.Config{MaxWorlds: 2})
	for _, w := range []string{"a", "b"} {
		m.ctl(http.MethodPost, "/__worlds/"+w+"/__mock/reset", nil).wantStatus(t, http.StatusOK)
	}
	for _, c := range []struct {
		method, path, body string
		status             int
	}{
		{http.MethodGet, "/__mock/worlds", "", http.StatusOK},
		{http.MethodDelete, "/__mock/worlds?name=w9", "", http.StatusBadRequest}, // two worlds named (D202)
		{http.MethodDelete, "/__mock/worlds?name=q", "", http.StatusNotFound},
		{http.MethodGet, "/__mock/flow", "", http.StatusNotFound},
		{http.MethodGet, "/__mock/state", "", http.StatusNotFound},
		{http.MethodGet, "/__mock/faults", "", http.StatusNotFound},
		{http.MethodDelete, "/__mock/faults", "", http.StatusNotFound},
		{http.MethodDelete, "/__mock/requests", "", http.StatusNotFound},
		{http.MethodPost, "/__mock/reset", `{"scenario":"nosuch"}`, http.StatusUnprocessableEntity},
		{http.MethodPost, "/__mock/reset", `{"seed":"x"}`, http.StatusUnprocessableEntity},
		{http.MethodPost, "/__mock/clock", `{"advance_seconds":-1}`, http.StatusUnprocessableEntity},
		{http.MethodPost, "/__mock/faults", `{"status":999}`, http.StatusUnprocessableEntity},
		{http.MethodPut, "/__mock/state", `{"cards":"x"}`, http.StatusUnprocessableEntity},
		{http.MethodPut, "/__mock/state", `{}`, http.StatusUnprocessableEntity},
		{http.MethodPut, "/__mock/state", `{"users":[]}`, http.StatusUnprocessableEntity},
		{http.MethodPut, "/__mock/state", `{"users":[{"id":1,"email":"a@b.example","password":"secret-1","name":"A","role":"member","project_id":1}],"cards":[{"id":1,"title":"t","priority":"bogus"}]}`, http.StatusUnprocessableEntity},
	} {
		var body any
		if c.body != "" {
			body = c.body
		}
		a := m.ctl(c.method, "/__worlds/q"+c.path, body).wantStatus(t, c.status)
		if c.status == http.StatusNotFound && !strings.Contains(string(a.raw), `no world named \"`) {
			t.Errorf("%s %s of an absent world: %s, want it to say the mock holds no such world", c.method, c.path, a.raw)
		}
		if names := m.worldNames(t); names != "default,a,b" && names != "default,b,a" {
			t.Fatalf("after %s %s %s on world q: worlds %s, want a and b kept and no q", c.method, c.path, c.body, names)
		}
	}
	m.ctl(http.MethodPost, "/__worlds/q/__mock/clock", map[string]any{"advance_seconds": 60}).wantStatus(t, http.StatusOK)
	if names := m.worldNames(t); !strings.Contains(names, "q") {
		t.Fatalf("an accepted clock move made no world: %s", names)
	}
	dropped := "a"
	if !strings.Contains(m.worldNames(t), "b") {
		dropped = "b"
	}
	for _, path := range []string{"/__worlds/" + dropped + "/__mock/flow", "/__mock/requests?world=" + dropped, "/__mock/requests/count?world=" + dropped + "&operation=tagsList"} {
		if a := m.ctl(http.MethodGet, path, nil).wantStatus(t, http.StatusNotFound); !strings.Contains(string(a.raw), "dropped at") {
			t.Errorf("GET %s of a dropped world: %s, want a 404 saying when it was dropped", path, a.raw)
		}
	}
}

// The way to a world's dashboard (GET /__worlds/<name> and /__worlds/<name>/__mock) makes no
// world: it points to the dashboard, which makes the world for a request it admits. With
// --admin-token, a tokenless <img> of a world's root made the world and pushed out a worker's.
func TestDashboardRedirectMakesNoWorld(t *testing.T) {
	m := newMock(t, mockserver.Config{MaxWorlds: 2, AdminToken: "s3cret"})
	admin := []string{"X-Mock-Admin-Token", "s3cret"}
	for _, w := range []string{"keep1", "keep2"} {
		m.ctl(http.MethodPost, "/__worlds/"+w+"/__mock/reset", nil, admin...).wantStatus(t, http.StatusOK)
	}
	for _, path := range []string{"/__worlds/evict1", "/__worlds/evict2/", "/__worlds/evict3/__mock"} {
		a := m.ctl(http.MethodGet, path+"?token=x", nil)
		if a.status == http.StatusMovedPermanently && !strings.HasSuffix(a.header.Get("Location"), "/__mock/?token=x") {
			t.Errorf("GET %s: Location %q, want its dashboard", path, a.header.Get("Location"))
		} else if a.status != http.StatusMovedPermanently && a.status != http.StatusUnauthorized {
			t.Errorf("GET %s: %d, want 301 to its dashboard or 401 asking the token", path, a.status)
		}
	}
	m.ctl(http.MethodGet, "/__worlds/evict4/__mock/", nil).wantStatus(t, http.StatusUnauthorized) // the dashboard asks the token
	if names := string(m.ctl(http.MethodGet, "/__mock/worlds", nil, admin...).raw); strings.Contains(names, "evict") || !strings.Contains(names, "keep1") {
		t.Errorf("worlds after tokenless redirects: %s", names)
	}
}

// A control's query naming a world no world can be called is refused with 400 naming the rule
// (D100); with worlds off, a world not there is said to be impossible; ?world= on the worlds
// list says how to name a world there.
func TestWorldQueriesWordTheirRefusals(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	for _, target := range []string{"/__mock/requests?world=a%2Fb", "/__mock/requests/count?world=a%2Fb"} {
		if a := m.ctl(http.MethodGet, target, nil); a.status != http.StatusBadRequest || !strings.Contains(string(a.raw), "world name") {
			t.Errorf("GET %s: %d %s, want 400 naming the world name rule", target, a.status, a.raw)
		}
	}
	if a := m.ctl(http.MethodDelete, "/__mock/worlds?name=a%2Fb", nil); a.status != http.StatusBadRequest || !strings.Contains(string(a.raw), "world name") {
		t.Errorf("DELETE ?name=a/b: %d %s, want 400", a.status, a.raw)
	}
	if a := m.ctl(http.MethodDelete, "/__mock/worlds?world=x", nil); a.status != http.StatusBadRequest || !strings.Contains(string(a.raw), "?name=") {
		t.Errorf("DELETE ?world=x: %d %s, want 400 pointing to ?name=", a.status, a.raw)
	}
	off := newMock(t, mockserver.Config{MaxWorlds: -1})
	if a := off.ctl(http.MethodGet, "/__mock/requests?world=a", nil); a.status != http.StatusNotFound || !strings.Contains(string(a.raw), "--max-worlds 0") || strings.Contains(string(a.raw), "makes it") {
		t.Errorf("?world=a with worlds off: %d %s", a.status, a.raw)
	}
}
