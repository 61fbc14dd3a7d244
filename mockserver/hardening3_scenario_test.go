package mockserver_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// A scenario file naming its own seed is built from it, and the reset answer, GET
// /__mock/worlds and the dashboard say so (D145).
func TestScenarioSeedIsReported(t *testing.T) {
	f, err := fixtures.ParseScenario([]byte("name: seeded\nseed: 4242\nbase: empty\n"), "seeded.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m := newMock(t, mockserver.Config{Scenarios: map[string]*fixtures.ScenarioFile{"seeded": f}})
	a := m.ctl(http.MethodPost, "/__worlds/s/__mock/reset", map[string]any{"scenario": "seeded"}).wantStatus(t, 200)
	if a.field("seed") != float64(4242) {
		t.Errorf("reset answers seed %v, want the file's 4242", a.field("seed"))
	}
	for _, w := range m.ctl(http.MethodGet, "/__mock/worlds", nil).list(t, "worlds") {
		if w["name"] == "s" && w["seed"] != float64(4242) {
			t.Errorf("GET /__mock/worlds lists seed %v, want 4242", w["seed"])
		}
	}
	page := m.ctl(http.MethodGet, "/__worlds/s/__mock/", nil, "Accept", "text/html").wantStatus(t, 200)
	if !strings.Contains(string(page.raw), `<b id="seed">4242</b>`) {
		t.Error("the dashboard does not show the file's seed 4242")
	}
}

// Resetting a world whose clock is late in year 9995 to a scenario whose relative dates then
// pass year 9999 answers 422 naming the line and field, never 500 (D145).
func TestScenarioOverflowAtWorldClock(t *testing.T) {
	f, err := fixtures.ParseScenario([]byte("name: later\ncards:\n  - title: far\n    due_date: now+3650d\n"), "later.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m := newMock(t, mockserver.Config{Scenarios: map[string]*fixtures.ScenarioFile{"later": f}})
	m.ctl(http.MethodPost, "/__worlds/late/__mock/clock", map[string]any{"set": "9995-01-01T00:00:00Z"}).wantStatus(t, 200)
	a := m.ctl(http.MethodPost, "/__worlds/late/__mock/reset", map[string]any{"scenario": "later"})
	a.wantStatus(t, http.StatusUnprocessableEntity)
	if !strings.Contains(string(a.raw), "line 4: cards[0]: due_date") {
		t.Errorf("422 %s does not name the line and field", a.raw)
	}
}
