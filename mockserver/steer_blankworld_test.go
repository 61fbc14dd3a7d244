package mockserver_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// A world named blank — an X-Mock-World header or a ?world= sent empty, as a worker whose world
// variable is unset sends them — is refused, never read as the default world every worker
// shares: a reset with a blank header reset the default world.
func TestBlankWorldNamesAreRefused(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	m.ctl(http.MethodPost, "/__mock/faults", map[string]any{"operation": "tagsList", "status": 500}).wantStatus(t, http.StatusCreated)
	a := m.ctl(http.MethodPost, "/__mock/reset", map[string]any{}, mockserver.WorldHeader, " ")
	a.wantStatus(t, http.StatusBadRequest).wantShape(t, "a")
	if msg, _ := a.field("message").(string); !strings.Contains(msg, "empty") {
		t.Errorf("a blank %s: %q, want it said empty", mockserver.WorldHeader, msg)
	}
	if f := m.ctl(http.MethodGet, "/__mock/faults", nil).list(t, "faults"); len(f) != 1 {
		t.Errorf("the default world's fault rules after a reset with a blank world header: %v", f)
	}
	m.ctl(http.MethodGet, "/__mock/requests?world=", nil).wantFieldError(t, "world")
	m.ctl(http.MethodGet, "/__mock/requests/count?world=", nil).wantFieldError(t, "world")
}
