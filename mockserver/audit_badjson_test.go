package mockserver_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// A body that is not JSON is answered with where and why, on an operation and on a control
// alike (a hand-edited snapshot is the common case): the line and column and the cause, or
// the byte order mark it starts with, in words for the person who wrote it, not the decoder's.
func TestBadJSONSaysWhereAndWhy(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	tok := m.login(m.manifest.Users.Member)
	for _, c := range []struct{ body, want string }{
		{`{"name": "a",}`, "line 1, column 14"},
		{"{\n  \"name\": 'a'\n}", "line 2, column 11"},
		{`{"name": "a"} x`, "more follows the JSON value"},
		{`{"name": "a"`, "the JSON ends before its value does"},
		{`{"name": nul}`, "not true, false or null"},
		{"\xef\xbb\xbf{\"name\": \"a\"}", "byte order mark"},
		{"\xff\xfe{\x00}\x00", "UTF-16"}, // as Windows tools save "Unicode" text
		{"\xfe\xff\x00{\x00}", "UTF-16"},
	} {
		a := m.ctl(http.MethodPost, "/services/operations/v1/operations/tags/create", c.body, "Authorization", "Bearer "+tok, "Content-Type", "application/json")
		if a.status != http.StatusBadRequest || !strings.Contains(string(a.raw), c.want) || strings.Contains(string(a.raw), "literal") {
			t.Errorf("tags/create %q: %d %s; want 400 saying %q", c.body, a.status, a.raw, c.want)
		}
		a = m.ctl(http.MethodPut, "/__worlds/j/__mock/state", c.body)
		if a.status != http.StatusBadRequest || !strings.Contains(string(a.raw), c.want) {
			t.Errorf("PUT /__mock/state %q: %d %s; want 400 saying %q", c.body, a.status, a.raw, c.want)
		}
	}
}
