package mockserver_test

import (
	"net/http"
	"strings"
	"testing"
)

// With --admin-token, a world's dashboard asks the token for that world: its prompt sends the
// token to the world's own dashboard and names the world (it sent every world's visitor to the
// default world's dashboard, whose buttons then reset and moved the default world).
func TestTokenPromptStaysInItsWorld(t *testing.T) {
	const token = "s3cret"
	m := newMockWithAdmin(t, token)
	m.ctl(http.MethodPost, "/__worlds/made/__mock/reset", nil, "X-Mock-Admin-Token", token).wantStatus(t, http.StatusOK)
	for _, c := range []struct{ name, path, world, action string }{
		{"the default world posts to /__mock/", "/__mock/", "default", `action="/__mock/"`},
		{"a world not made yet posts to its own dashboard", "/__worlds/w9/__mock/", "w9", `action="/__worlds/w9/__mock/"`},
		{"a world that exists posts to its own dashboard", "/__worlds/made/__mock/", "made", `action="/__worlds/made/__mock/"`},
		{"a world named by X-Mock-World posts to its own dashboard", "/__mock/", "w8", `action="/__worlds/w8/__mock/"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, q := range []string{"", "?token=bad"} {
				var hdr []string
				if !strings.HasPrefix(c.path, "/__worlds/") && c.world != "default" {
					hdr = []string{"X-Mock-World", c.world}
				}
				page := string(m.ctl(http.MethodGet, c.path+q, nil, hdr...).wantStatus(t, http.StatusUnauthorized).raw)
				if !strings.Contains(page, c.action) {
					t.Errorf("GET %s%s: the token prompt's form is not %s:\n%s", c.path, q, c.action, page)
				}
				if !strings.Contains(page, `<b id="world-name">`+c.world+`</b>`) {
					t.Errorf("GET %s%s: the token prompt does not name world %q:\n%s", c.path, q, c.world, page)
				}
			}
		})
	}
	if names := string(m.ctl(http.MethodGet, "/__mock/worlds", nil, "X-Mock-Admin-Token", token).raw); strings.Contains(names, "w9") || strings.Contains(names, "w8") {
		t.Errorf("a token prompt made a world: %s", names)
	}
}
