package mockserver

import (
	"net/http"
)

// New returns the mock server for cfg as an http.Handler.
func New(cfg Config) (http.Handler, error) {
	return http.NotFoundHandler(), nil // TEMPORARY: replaced by the real pipeline.
}
