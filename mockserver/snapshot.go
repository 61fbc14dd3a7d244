package mockserver

import (
	"net/http"

	"github.com/opsapi/mocktoolkit/reference"
)

// maxSnapshot is the largest snapshot PUT /__mock/state accepts.
const maxSnapshot = 64 << 20

// handleStateGet answers the whole state as JSON (reference.State).
func (s *Server) handleStateGet(w http.ResponseWriter, _ *http.Request) {
	if err := writeJSON(w, http.StatusOK, s.Snapshot()); err != nil {
		s.logger.Error("encode state", "err", err)
	}
}

// handleStatePut replaces the world with the snapshot in the body. A snapshot that is not
// JSON answers 400 and one that does not load (unknown fields, broken references) 422; the
// old world stays in both cases. The fixture manifest is kept: it describes the seed's world.
func (s *Server) handleStatePut(w http.ResponseWriter, r *http.Request) {
	var st reference.State
	if !decodeControl(w, r, &st, maxSnapshot) {
		return
	}
	if err := s.LoadState(st); err != nil {
		writeValidation(w, map[string][]string{"state": {"The snapshot does not load: " + err.Error() + "."}})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"loaded": true, "users": len(st.Users), "cards": len(st.Cards)})
}
