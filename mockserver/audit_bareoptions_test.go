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

// A preflight to a path that is no route answers 404 under a world not made as in the default
// world (it answered 400 "no such world"), and makes none.
func TestPreflightToNoRouteUnderAWorldNotMade(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	for _, path := range []string{"/nosuch", "/__worlds/nx/nosuch", "/__worlds/nx/services/operations/v1/operations/nosuch"} {
		m.ctl(http.MethodOptions, path, nil, "Origin", "http://x.example", "Access-Control-Request-Method", "POST").wantStatus(t, http.StatusNotFound)
	}
	if names := m.worldNames(t); strings.Contains(names, "nx") {
		t.Errorf("a preflight to no route made the world: %s", names)
	}
}
