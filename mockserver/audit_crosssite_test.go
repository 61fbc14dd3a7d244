package mockserver_test

import (
	"net/http"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// A change to the mock's own endpoints that the browser marks as sent by a page of another
// site is refused 403 shape (b) even without an Origin; same-site, same-origin and none pass
// (D103, D182).
func TestControlChangeFromAnotherSiteIsRefused(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	a := m.ctl(http.MethodPost, "/__mock/reset", nil, "Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "no-cors").wantStatus(t, http.StatusForbidden)
	a.wantShape(t, "b")
	m.ctl(http.MethodPost, "/__worlds/w/__mock/reset", nil, "Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "no-cors").wantStatus(t, http.StatusForbidden)
	for _, site := range []string{"same-site", "same-origin", "none"} {
		m.ctl(http.MethodPost, "/__mock/reset", nil, "Sec-Fetch-Site", site, "Sec-Fetch-Mode", "no-cors").wantStatus(t, http.StatusOK)
	}
	m.ctl(http.MethodGet, "/__mock/clock", nil, "Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "no-cors").wantStatus(t, http.StatusOK)
}
