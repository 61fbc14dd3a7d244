package mockserver

import (
	"crypto/subtle"
	"net/http"
	"strings"
)

// AdminTokenHeader carries the admin token (Config.AdminToken) to the /__mock/ endpoints.
const AdminTokenHeader = "X-Mock-Admin-Token"

// admitted guards the /__mock/ endpoints with the admin token, when one is set: the token
// comes in X-Mock-Admin-Token, or for the dashboard page (GET /__mock/) also as ?token=.
// Without it, 401 shape (b); the dashboard page answers its token prompt instead.
func (s *Server) admitted(w http.ResponseWriter, r *http.Request) bool {
	want := s.steering.admin
	if want == "" || !strings.HasPrefix(r.URL.Path, "/__mock/") {
		return true
	}
	got := r.Header.Get(AdminTokenHeader)
	if got == "" && r.Method == http.MethodGet && r.URL.Path == dashboardPath {
		got = r.URL.Query().Get("token")
	}
	if subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1 {
		return true
	}
	if r.URL.Path == dashboardPath && r.Method == http.MethodGet {
		s.writeTokenPrompt(w, got != "")
		return false
	}
	writeShapeB(w, http.StatusUnauthorized, "This mock needs its admin token: send it in the "+AdminTokenHeader+" header.")
	return false
}
