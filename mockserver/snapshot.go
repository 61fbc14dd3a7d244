package mockserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/opsapi/mocktoolkit/reference"
	"github.com/opsapi/mocktoolkit/spec"
)

// maxSnapshot is the largest snapshot PUT /__mock/state accepts.
const maxSnapshot = 64 << 20

// DecodeState reads a snapshot as GET /__mock/state writes it, for --state-file: JSON of
// reference.State with no unknown fields, whose text is valid UTF-8 (D74: the bytes are
// checked as written, since decoding would turn bad text into U+FFFD). reference.New then
// checks the rules of every record (D76).
func DecodeState(b []byte) (reference.State, error) {
	var st reference.State
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&st); err != nil {
		return reference.State{}, fmt.Errorf("decode snapshot: %w", err)
	}
	if bad := spec.InvalidText(b); len(bad) > 0 {
		return reference.State{}, fmt.Errorf("decode snapshot: %s must be valid UTF-8 text", strings.Join(bad, ", "))
	}
	return st, nil
}

// handleStateGet answers the whole state of the request's world as JSON (reference.State).
func (s *Server) handleStateGet(w http.ResponseWriter, r *http.Request) {
	if err := writeJSON(w, http.StatusOK, s.worldOf(r).state().store.State()); err != nil {
		s.logger.Error("encode state", "err", err)
	}
}

// handleStatePut replaces the world with the snapshot in the body. A snapshot that is not
// JSON answers 400 and one that does not load (unknown fields, text that is not UTF-8, broken
// field rules or references: D65, D74, D76) 422; the old world stays in both cases. The
// fixture manifest is checked against the new records (D102).
func (s *Server) handleStatePut(w http.ResponseWriter, r *http.Request) {
	var st reference.State
	if !decodeControl(w, r, &st, maxSnapshot) {
		return
	}
	if err := s.loadState(s.worldOf(r), st); err != nil {
		writeValidation(w, map[string][]string{"state": {"The snapshot does not load: " + err.Error() + "."}})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"loaded": true, "users": len(st.Users), "cards": len(st.Cards)})
}
