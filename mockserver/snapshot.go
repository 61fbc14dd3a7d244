package mockserver

import (
	"errors"
	"net/http"

	"github.com/opsapi/mocktoolkit/reference"
)

// maxSnapshot is the largest snapshot PUT /__mock/state accepts.
const maxSnapshot = 64 << 20

// mockHandler is what New returns: the whole mock as an http.Handler, with the server behind
// it for Snapshot.
type mockHandler struct {
	http.Handler
	s *server
}

// Snapshot returns the whole state of the world behind h, which must be a handler returned by
// New: what GET /__mock/state answers and Config.State loads.
func Snapshot(h http.Handler) (reference.State, error) {
	m, ok := h.(*mockHandler)
	if !ok {
		return reference.State{}, errors.New("snapshot: not a handler returned by mockserver.New")
	}
	return m.s.store().State(), nil
}

// handleStateGet answers the whole state as JSON (reference.State).
func (s *server) handleStateGet(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, s.store().State())
}

// handleStatePut replaces the world with the snapshot in the body. A snapshot that is not
// JSON answers 400 and one that does not load (unknown fields, broken references) 422; the
// old world stays in both cases. The fixture manifest is kept: it describes the seed's world.
func (s *server) handleStatePut(w http.ResponseWriter, r *http.Request) {
	var st reference.State
	if !decodeControlMax(w, r, &st, maxSnapshot) {
		return
	}
	if err := s.loadState(st); err != nil {
		writeValidation(w, map[string][]string{"state": {"The snapshot does not load: " + err.Error() + "."}})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"loaded": true, "users": len(st.Users), "cards": len(st.Cards)})
}

// loadState swaps in a world made of st, keeping the current manifest.
func (s *server) loadState(st reference.State) error {
	store, err := reference.New(st, s.storeOptions()...)
	if err != nil {
		return err
	}
	old := s.world.Load()
	s.world.Store(&world{store: store, manifest: old.manifest})
	return nil
}
