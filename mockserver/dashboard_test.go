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
	page := string(a.raw)
	u, o := m.manifest.Users, m.manifest.Operations
	for _, want := range []string{
		u.Member.Email, u.Member.Password, u.Superadmin.Email, u.Outsider.Email,
		fmt.Sprint(o.CardID), fmt.Sprint(o.BoardID), o.ToolKey,
		`id="reset"`, `id="advance"`, `id="fault-add"`, `id="journal"`, "tagsList",
		"/v1/authenticate", "stop working",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the dashboard lacks %q", want)
		}
	}
	if strings.Contains(page, "<script>alert(1)") {
		t.Error("the dashboard does not escape what it shows")
	}
}
