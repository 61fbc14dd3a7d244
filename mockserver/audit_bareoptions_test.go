package mockserver_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// A bare OPTIONS (no preflight) answers the same 405 and Allow under a world that exists and
// under one not made yet, and makes no world (D213): it answered 404 "does not exist" under
// the one and 405 under the other.
func TestBareOptionsAnswersAlikeInEveryWorld(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	m.ctl(http.MethodPost, "/__worlds/ex1/__mock/reset", nil).wantStatus(t, http.StatusOK)
	for _, c := range []struct{ path, allow string }{
		{pTagsList, "POST"},
		{pAuthenticate, "POST"},
		{"/__mock/reset", "POST"},
		{"/__mock/clock", "DELETE, GET, POST"},
	} {
		for _, via := range []string{"prefix", "header"} {
			for _, world := range []string{"ex1", "nx1"} {
				path, hdr := "/__worlds/"+world+c.path, []string(nil)
				if via == "header" {
					path, hdr = c.path, []string{mockserver.WorldHeader, world}
				}
				a := m.ctl(http.MethodOptions, path, nil, hdr...)
				if a.status != http.StatusMethodNotAllowed || a.header.Get("Allow") != c.allow {
					t.Errorf("OPTIONS %s (world %s by its %s): %d Allow %q %s, want 405 Allow %q", c.path, world, via, a.status, a.header.Get("Allow"), a.raw, c.allow)
				}
			}
		}
	}
	if names := m.worldNames(t); strings.Contains(names, "nx1") {
		t.Errorf("worlds %s: a bare OPTIONS made a world", names)
	}
}
