package mockserver_test

import (
	"net/http"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// An origin of "null" (a sandboxed iframe, a file:// page) is never echoed with credentials
// (D148), and cannot be listed.
func TestCORSNullOriginNeverGetsCredentials(t *testing.T) {
	if _, err := mockserver.New(mockserver.Config{CORSOrigins: []string{"null"}}); err == nil {
		t.Error("null listed as an origin was taken")
	}
	m := newMock(t, mockserver.Config{})
	for _, path := range []string{pTagsList, "/__mock/clock"} {
		a := m.ctl(http.MethodOptions, path, nil, "Origin", "null", "Access-Control-Request-Method", "POST")
		if got := a.header.Get("Access-Control-Allow-Origin"); got == "null" || a.header.Get("Access-Control-Allow-Credentials") != "" {
			t.Errorf("%s: Allow-Origin %q, Allow-Credentials %q for Origin null", path, got, a.header.Get("Access-Control-Allow-Credentials"))
		}
	}
	m.ctl(http.MethodPost, "/__mock/reset", map[string]any{}, "Origin", "null").wantStatus(t, http.StatusForbidden)
}

// The clock's set takes offsets RFC 3339 allows only: +24:00 is refused (D148).
func TestClockSetRefusesOffsetPastADay(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	before := m.ctl(http.MethodGet, "/__mock/clock", nil).field("now")
	for _, set := range []string{"2026-06-01T09:00:00+24:00", "2026-06-01T09:00:00-24:00", "2026-06-01T09:00:00+24:30"} {
		m.ctl(http.MethodPost, "/__mock/clock", map[string]any{"set": set}).wantFieldError(t, "set")
	}
	if after := m.ctl(http.MethodGet, "/__mock/clock", nil).field("now"); after != before {
		t.Errorf("the clock moved from %v to %v", before, after)
	}
	m.ctl(http.MethodPost, "/__mock/clock", map[string]any{"set": "2026-06-01T09:00:00+23:59"}).wantStatus(t, 200)
}
