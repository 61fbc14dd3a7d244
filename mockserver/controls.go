package mockserver

import "net/http"

// handleHealth answers the readiness probe.
func (s *Server) handleHealth(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// handleFixtures answers the fixture manifest of the request's world (D102).
func (s *Server) handleFixtures(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.worldOf(r).state().manifest)
}

// handleDashboardRedirect sends GET / and GET /__mock to the dashboard at /__mock/ (of the
// request's world), keeping the query (the dashboard takes ?token=).
func (s *Server) handleDashboardRedirect(w http.ResponseWriter, r *http.Request) {
	target := dashboardPath
	if wl := s.worldOf(r); wl.name != DefaultWorld {
		target = WorldPrefix + wl.name + dashboardPath
	}
	if r.URL.RawQuery != "" {
		target += "?" + r.URL.RawQuery
	}
	w.Header().Set("Location", target)
	writeJSON(w, http.StatusMovedPermanently, map[string]string{"location": target})
}

// handleFavicon answers browsers' favicon request with 204, so opening the dashboard leaves
// nothing in the journal.
func handleFavicon(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }
