package mockserver_test

import (
	"net/http"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// Requests naming a world the mock does not hold spend a window of their own, not the default
// world's: a worker mistyping world names used up the default world's unknown-path window (and
// its GETs of operation paths answered 429). Their answers still carry the rate-limit headers,
// an unknown path under /__mock/ too (it lacked them).
func TestRequestsToNoWorldSpendTheirOwnWindow(t *testing.T) {
	m := newMock(t, mockserver.Config{RateLimit: 2})
	for _, path := range []string{"/__worlds/nosuch1/nothing", "/__worlds/nosuch2/nothing", "/__worlds/nosuch3/__mock/nothing"} {
		a := m.ctl(http.MethodPost, path, nil)
		if a.status != http.StatusNotFound && a.status != http.StatusTooManyRequests || a.header.Get("X-RateLimit-Limit") != "2" {
			t.Errorf("%s: %d with X-RateLimit-Limit %q, want 404 or 429 with the headers", path, a.status, a.header.Get("X-RateLimit-Limit"))
		}
	}
	a := m.ctl(http.MethodPost, "/nothing", nil)
	if a.status != http.StatusNotFound || a.header.Get("X-RateLimit-Remaining") != "1" {
		t.Errorf("the default world's unknown path after three to worlds not there: %d, remaining %q; want 404 with 1 left of 2", a.status, a.header.Get("X-RateLimit-Remaining"))
	}
}
