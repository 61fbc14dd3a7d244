package mockserver

import "net/http"

// handleHealth answers the readiness probe.
func (s *Server) handleHealth(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// handleFixtures answers the fixture manifest of the current world.
func (s *Server) handleFixtures(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, s.world.Load().manifest)
}

// handleDashboardRedirect sends GET /__mock to the dashboard at /__mock/, keeping the query (the
// dashboard takes ?token=).
func (s *Server) handleDashboardRedirect(w http.ResponseWriter, r *http.Request) {
	target := "/__mock/"
	if r.URL.RawQuery != "" {
		target += "?" + r.URL.RawQuery
	}
	w.Header().Set("Location", target)
	writeJSON(w, http.StatusMovedPermanently, map[string]string{"location": target})
}
