package mockserver_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// A verification read through a world's prefix of a world that is not there answers 404 and
// makes none: made afresh (and another pushed out for it) it answered "never called" for a
// world dropped with its calls (audit 20).
func TestJournalReadOfAnAbsentWorldMakesNone(t *testing.T) {
	m := newMock(t, mockserver.Config{MaxWorlds: 2})
	for _, w := range []string{"w1", "w2"} {
		m.ctl(http.MethodGet, "/__worlds/"+w+"/__mock/clock", nil).wantStatus(t, http.StatusOK)
	}
	for _, path := range []string{"/__worlds/w3/__mock/requests/count?operation=tagsList", "/__worlds/w3/__mock/requests"} {
		a := m.ctl(http.MethodGet, path, nil).wantStatus(t, http.StatusNotFound)
		a.wantShape(t, "a")
		if !strings.Contains(string(a.raw), "no world named") {
			t.Errorf("%s: %s, want it to say there is no such world", path, a.raw)
		}
	}
	if names := m.worldNames(t); !strings.Contains(names, "w1") || !strings.Contains(names, "w2") || strings.Contains(names, "w3") {
		t.Errorf("worlds %s after reading an absent world's journal, want w1 and w2 only", names)
	}
}
