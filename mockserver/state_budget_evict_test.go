package mockserver_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// crossSite are the headers a browser adds to a fetch from a page of another site.
var crossSite = []string{"Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "cors"}

// fillWorlds makes worlds w1…wn from the mock's own site and returns the names the mock holds
// afterwards (the first may have made room for the last).
func fillWorlds(t *testing.T, m *mock, n int) []string {
	t.Helper()
	for i := 1; i <= n; i++ {
		m.ctl(http.MethodGet, fmt.Sprintf("/__worlds/w%d/__mock/clock", i), nil).wantStatus(t, http.StatusOK)
	}
	return strings.Split(m.worldNames(t), ",")
}

// wantWorlds fails unless every name of before is still a world of m.
func wantWorlds(t *testing.T, m *mock, before []string, after string) {
	t.Helper()
	now := "," + m.worldNames(t) + ","
	for _, name := range before {
		if !strings.Contains(now, ","+name+",") {
			t.Errorf("%s: the world %s was dropped (worlds now %s)", after, name, strings.Trim(now, ","))
		}
	}
}

// A page of another site never pushes a test worker's world out, whichever bound is full
// (D141, D206): with --max-state-mb reached, its fetch naming a new world is refused, and its
// writes into a world it made are refused, instead of dropping idle worlds.
func TestStateBudgetNeverEvictsForAPageOfAnotherSite(t *testing.T) {
	m := newMock(t, mockserver.Config{MaxStateMB: 1})
	before := fillWorlds(t, m, 16)
	for i := 1; i <= 3; i++ {
		headers := append([]string{"Content-Type", "application/json"}, crossSite...)
		a := m.ctl(http.MethodPost, fmt.Sprintf("/__worlds/evil%d/services/operations/v1/operations/tags/list", i), "{}", headers...)
		if a.status != http.StatusServiceUnavailable {
			t.Errorf("a cross-site fetch naming a new world with the records bound full: %d %s, want 503", a.status, a.raw)
		}
	}
	wantWorlds(t, m, before, "after cross-site fetches naming new worlds")

	// Room for one world, made by the page, which then writes into it.
	m.ctl(http.MethodDelete, "/__mock/worlds?name="+before[0], nil).wantStatus(t, http.StatusOK)
	m.ctl(http.MethodDelete, "/__mock/worlds?name="+before[1], nil).wantStatus(t, http.StatusOK)
	before = before[2:]
	creds := m.manifest.Users.Member
	login := m.ctl(http.MethodPost, "/__worlds/evil/v1/authenticate", map[string]any{"email": creds.Email, "password": creds.Password}, crossSite...).wantStatus(t, http.StatusOK)
	tok := login.data()["token"].(string)
	desc := strings.Repeat("x", 100<<10)
	refused := false
	for range 20 {
		a := m.ctl(http.MethodPost, "/__worlds/evil"+cardsCreate, map[string]any{"title": "Big", "group_id": m.manifest.Operations.GroupID, "description": desc},
			append([]string{"Authorization", "Bearer " + tok}, crossSite...)...)
		if a.status != http.StatusOK {
			refused = a.status == http.StatusBadRequest && strings.Contains(string(a.raw), "--max-state-mb")
			break
		}
	}
	if !refused {
		t.Error("the page's writes were never refused for --max-state-mb")
	}
	wantWorlds(t, m, before, "after cross-site writes")
}

// A reset that cannot fit even with every idle world dropped drops none (D206): the workers'
// worlds are not lost to a request bound to fail.
func TestStateBudgetDropsNothingForAChangeThatCannotFit(t *testing.T) {
	m := newMock(t, mockserver.Config{MaxStateMB: 1})
	before := fillWorlds(t, m, 3)
	a := m.ctl(http.MethodPost, "/__worlds/w4/__mock/reset", map[string]any{"scenario": "busy"}).wantStatus(t, http.StatusServiceUnavailable)
	if !strings.Contains(string(a.raw), "more than the mock's limit for every world together") {
		t.Errorf("the refusal does not say no world's room would be enough: %s", a.raw)
	}
	wantWorlds(t, m, before, "after a reset too large for the bound")
}

// A page of another site fills at most half of --max-state-mb, even in the default world, which
// never goes: its writes there once filled the bound, and the workers' next writes pushed their
// idle worlds out for the room the page took (D206).
func TestPageOfAnotherSiteFillsAtMostHalfTheBound(t *testing.T) {
	m := newMock(t, mockserver.Config{MaxStateMB: 2})
	before := fillWorlds(t, m, 4)
	creds := m.manifest.Users.Member
	login := m.ctl(http.MethodPost, "/v1/authenticate", map[string]any{"email": creds.Email, "password": creds.Password}, crossSite...).wantStatus(t, http.StatusOK)
	tok := login.data()["token"].(string)
	desc := strings.Repeat("x", 100<<10)
	refused := false
	for range 40 {
		a := m.ctl(http.MethodPost, cardsCreate, map[string]any{"title": "Big", "group_id": m.manifest.Operations.GroupID, "description": desc},
			append([]string{"Authorization", "Bearer " + tok}, crossSite...)...)
		if a.status != http.StatusOK {
			refused = a.status == http.StatusBadRequest && strings.Contains(string(a.raw), "page of another site")
			break
		}
	}
	if !refused {
		t.Fatal("the page's writes into the default world were never refused for half the bound")
	}
	// A worker's own writes still fit without pushing another worker's world out.
	wtok := m.ctl(http.MethodPost, "/__worlds/"+before[0]+"/v1/authenticate", map[string]any{"email": creds.Email, "password": creds.Password}).wantStatus(t, http.StatusOK).data()["token"].(string)
	for range 3 {
		m.ctl(http.MethodPost, "/__worlds/"+before[0]+cardsCreate, map[string]any{"title": "Mine", "group_id": m.manifest.Operations.GroupID, "description": desc}, "Authorization", "Bearer "+wtok).wantStatus(t, http.StatusOK)
	}
	wantWorlds(t, m, before, "after the page's writes and a worker's")
}
