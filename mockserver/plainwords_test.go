package mockserver_test

import (
	"net/http"
	"regexp"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// What a user reads from a running mock (the served OpenAPI document, and so every client
// generated from it, and the dashboard with its inline scripts) states our choices in words:
// decision ids stay in docs/decisions.md and the code's comments.
func TestServedDocumentsCarryNoDecisionID(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	did := regexp.MustCompile(`\bD[0-9]{1,3}\b`)
	for _, path := range []string{"/openapi.json", "/openapi.yaml", "/__mock/"} {
		a := m.ctl(http.MethodGet, path, nil).wantStatus(t, 200)
		if ids := did.FindAllString(string(a.raw), 5); len(ids) > 0 {
			t.Errorf("GET %s shows decision ids %v", path, ids)
		}
	}
}
