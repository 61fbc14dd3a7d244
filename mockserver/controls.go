package mockserver

import "net/http"

// handleHealth answers the readiness probe.
func (s *server) handleHealth(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// handleFixtures answers the fixture manifest of the current world.
func (s *server) handleFixtures(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, s.world.Load().manifest)
}
