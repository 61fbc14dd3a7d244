package mockserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/opsapi/mocktoolkit/reference"
	"github.com/opsapi/mocktoolkit/spec"
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
	if err := checkSnapshotText(b); err != nil {
		return reference.State{}, fmt.Errorf("decode snapshot: %w", err)
	}
	return st, nil
}

// checkSnapshotText names the places of a snapshot whose text is not valid UTF-8 (D74).
func checkSnapshotText(b []byte) error {
	bad := spec.InvalidText(b)
	if len(bad) == 0 {
		return nil
	}
	return fmt.Errorf("%s must be valid UTF-8 text", strings.Join(bad, ", "))
}

// handleStateGet answers the whole state as JSON (reference.State).
func (s *server) handleStateGet(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, s.store().State())
}

// handleStatePut replaces the world with the snapshot in the body. A snapshot that is not
// JSON answers 400 and one that does not load (unknown fields, text that is not UTF-8, broken
// field rules or references: D65, D74, D76) 422; the old world stays in both cases. The fixture manifest is kept: it describes the seed's world.
func (s *server) handleStatePut(w http.ResponseWriter, r *http.Request) {
	var st reference.State
	var raw bytes.Buffer
	r.Body = readCloser{io.TeeReader(r.Body, &raw), r.Body} // the bytes as sent, for D74
	if !decodeControlMax(w, r, &st, maxSnapshot) {
		return
	}
	err := checkSnapshotText(raw.Bytes())
	if err == nil {
		err = s.loadState(st)
	}
	if err != nil {
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
