package mockserver

import (
	"net/http"
	"strconv"

	"github.com/opsapi/mocktoolkit/spec"
)

// handleOpenAPIJSON serves the spec as JSON (the loaded document, marshalled).
func (s *Server) handleOpenAPIJSON(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, s.doc)
}

// handleOpenAPIYAML serves the spec as embedded, YAML.
func (s *Server) handleOpenAPIYAML(w http.ResponseWriter, _ *http.Request) {
	b := spec.Bytes()
	h := w.Header()
	h.Set("Content-Type", "application/yaml")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
}
