package mockserver_test

import (
	"fmt"
	"net/http"
	"regexp"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// A clock set outside the instants the mock keeps, and an advance past the latest of them, are
// refused with a sentence from the one sentence writer, naming the bounds (D104, D5).
func TestClockBoundsAreWorded(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	broken := regexp.MustCompile(`must be want|\. [a-z]|[^.]$`)
	a := m.ctl(http.MethodPost, "/__mock/clock", map[string]any{"set": "0000-01-01T00:00:00Z"}).wantStatus(t, 422)
	msg := fmt.Sprint(a.body["errors"].(map[string]any)["set"].([]any)[0])
	if want := "The set field must be between 0001-01-01T00:00:01Z and 9998-12-31T23:59:59Z."; msg != want {
		t.Errorf("set before the earliest instant: %q, want %q", msg, want)
	}
	m.ctl(http.MethodPost, "/__mock/clock", map[string]any{"set": "9998-12-31T00:00:00Z"}).wantStatus(t, 200)
	a = m.ctl(http.MethodPost, "/__mock/clock", map[string]any{"advance_seconds": 86401}).wantStatus(t, 422)
	msg = fmt.Sprint(a.body["errors"].(map[string]any)["advance_seconds"].([]any)[0])
	if broken.MatchString(msg) {
		t.Errorf("advance past the latest instant: %q is not worded as sentences", msg)
	}
}

// A clock request that is refused changes nothing: a set with an advance that together pass
// the latest instant leaves the clock, its freeze and the set world list as they were (D104).
func TestRefusedClockMoveAppliesNothing(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	before := m.ctl(http.MethodGet, "/__mock/clock", nil)
	m.ctl(http.MethodPost, "/__mock/clock", map[string]any{"set": "9998-12-31T00:00:00Z", "freeze": true, "advance_seconds": 86401}).wantFieldError(t, "advance_seconds")
	after := m.ctl(http.MethodGet, "/__mock/clock", nil)
	if after.field("frozen") != before.field("frozen") || fmt.Sprint(after.field("now"))[:4] == "9998" {
		t.Errorf("a refused move changed the clock: %v frozen %v", after.field("now"), after.field("frozen"))
	}
	m.ctl(http.MethodPost, "/__worlds/late/__mock/clock", map[string]any{"set": "9998-12-31T00:00:00Z", "advance_seconds": 86401}).wantFieldError(t, "advance_seconds")
	if names := m.worldNames(t); names != "default" {
		t.Errorf("a refused clock move made a world: %s", names)
	}
	m.ctl(http.MethodPost, "/__mock/clock", map[string]any{"set": "9998-12-31T00:00:00Z", "freeze": true}).wantStatus(t, 200)
	m.ctl(http.MethodPost, "/__mock/clock", map[string]any{"freeze": false, "advance_seconds": 86401}).wantFieldError(t, "advance_seconds")
	if after := m.ctl(http.MethodGet, "/__mock/clock", nil); after.field("frozen") != true {
		t.Errorf("a refused advance unfroze the clock")
	}
}
