package mockserver_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// GET /__mock/ is a server-rendered page with the fixture credentials and ids, the controls,
// the journal, and the warning that a reset ends issued tokens (D10).
func TestDashboardShowsTheFixtures(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	m.post(pAuthenticate, "", map[string]any{"email": "<script>alert(1)</script>@x.co", "password": "x"})
	a := m.ctl(http.MethodGet, "/__mock/", nil).wantStatus(t, 200)
	if ct := a.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Errorf("Content-Type %q", ct)
	}
	if a.header.Get("X-Frame-Options") != "DENY" || !strings.Contains(a.header.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
		t.Errorf("the dashboard may be framed by another site: %v", a.header)
	}
	page := string(a.raw)
	u, o := m.manifest.Users, m.manifest.Operations
	for _, want := range []string{
		u.Member.Email, u.Member.Password, u.Superadmin.Email, u.Outsider.Email, u.Teammate.Email,
		fmt.Sprint(o.CardID), fmt.Sprint(o.BoardID), o.ToolKey,
		`id="reset"`, `id="advance"`, `id="fault-add"`, `id="journal"`, `id="flow-download"`, "tagsList",
		"/v1/authenticate", "stop working",
		`data-role="member"`, `data-role="teammate"`, `data-role="superadmin"`, `data-role="outsider"`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the dashboard lacks %q", want)
		}
	}
	if strings.Contains(page, "<script>alert(1)") {
		t.Error("the dashboard does not escape what it shows")
	}
}

// The reset form holds the world's own seed, so Reset rebuilds the world shown: the seed was a
// placeholder, sent as nothing, and a world of seed 7 came back built from --seed, its logins
// changed, its scenario kept.
func TestDashboardResetKeepsTheWorldsSeed(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	m.ctl(http.MethodPost, "/__worlds/seven/__mock/reset", map[string]any{"seed": 7}).wantStatus(t, 200)
	page := string(m.ctl(http.MethodGet, "/__worlds/seven/__mock/", nil).wantStatus(t, 200).raw)
	if !strings.Contains(page, `id="reset-seed" name="seed" type="number" value="7"`) {
		t.Errorf("the reset form does not hold the world's seed 7:\n%s", page)
	}
}

// GET /__mock (no trailing slash) redirects to the dashboard, keeping ?token=.
func TestDashboardRedirect(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Get(m.url + "/__mock?token=abc")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusMovedPermanently || res.Header.Get("Location") != "/__mock/?token=abc" {
		t.Errorf("GET /__mock: %d Location %q, want 301 to /__mock/?token=abc", res.StatusCode, res.Header.Get("Location"))
	}
}

// With named worlds off (--max-worlds 0), the page does not offer to open a new world: its Open
// led to a raw JSON 400; it says the mock serves only its default world. With them on, it does.
func TestDashboardOffersNewWorldsOnlyWhenThereAreAny(t *testing.T) {
	for _, c := range []struct {
		max    int
		offers bool
	}{{-1, false}, {0, true}} {
		page := string(newMock(t, mockserver.Config{MaxWorlds: c.max}).ctl(http.MethodGet, "/__mock/", nil).wantStatus(t, 200).raw)
		if got := strings.Contains(page, `id="world-new"`); got != c.offers {
			t.Errorf("MaxWorlds %d: the page offers a new world: %v, want %v", c.max, got, c.offers)
		}
		if !c.offers && !strings.Contains(page, "only its default world") {
			t.Errorf("MaxWorlds %d: the page does not say it serves only the default world", c.max)
		}
	}
}
