package mockserver_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// A path under /__mock/ that is no endpoint is an unknown path: it spends the rate window and
// is journaled as any other (it was rate-limited and left out of the journal); the mock's own
// endpoints stay out of it.
func TestUnknownMockPathIsJournaled(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	m.ctl(http.MethodGet, "/__mock/nope", nil).wantStatus(t, 404)
	m.ctl(http.MethodGet, "/__mock/clock", nil).wantStatus(t, 200)
	var j struct {
		Requests []struct{ Path string }
	}
	if err := json.Unmarshal(m.ctl(http.MethodGet, "/__mock/requests", nil).wantStatus(t, 200).raw, &j); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, r := range j.Requests {
		paths = append(paths, r.Path)
	}
	if len(paths) != 1 || paths[0] != "/__mock/nope" {
		t.Errorf("journal paths %q, want the unknown /__mock/nope alone", paths)
	}
}
