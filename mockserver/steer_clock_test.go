package mockserver_test

import (
	"math"
	"net/http"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// advance moves the mock's clock forward by d.
func (m *mock) advance(d time.Duration) {
	m.t.Helper()
	m.ctl(http.MethodPost, "/__mock/clock", map[string]any{"advance_seconds": int64(d / time.Second)}).wantStatus(m.t, 200)
}

// clockNow reads GET /__mock/clock.
func (m *mock) clockNow() time.Time {
	m.t.Helper()
	a := m.ctl(http.MethodGet, "/__mock/clock", nil).wantStatus(m.t, 200)
	now, err := time.Parse(time.RFC3339, a.field("now").(string))
	if err != nil {
		m.t.Fatalf("clock answer %s: %v", a.raw, err)
	}
	return now
}

func TestClockShowsAndAdvances(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	start := m.clockNow()
	if d := start.Sub(testNow); d < 0 || d > 5*time.Second {
		t.Fatalf("clock reads %s, want about %s", start, testNow)
	}
	a := m.ctl(http.MethodPost, "/__mock/clock", map[string]any{"advance_seconds": 86400}).wantStatus(t, 200)
	got, _ := time.Parse(time.RFC3339, a.field("now").(string))
	if d := got.Sub(start) - 24*time.Hour; d < 0 || d > 5*time.Second {
		t.Errorf("after advancing a day the clock reads %s, started at %s", got, start)
	}
}

func TestClockRejectsBadInput(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	tests := []struct {
		name, body string
		status     int
	}{
		{"a negative advance is refused: the clock only moves forward", `{"advance_seconds": -1}`, 422},
		{"a missing advance is refused", `{}`, 422},
		{"a fractional advance is refused", `{"advance_seconds": 1.5}`, 422},
		{"a string advance is refused", `{"advance_seconds": "60"}`, 422},
		{"an advance over ten years is refused", `{"advance_seconds": 9999999999}`, 422},
		{"malformed JSON is a bad request", `{"advance_seconds": }`, 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := m.clockNow()
			a := m.ctl(http.MethodPost, "/__mock/clock", tt.body).wantStatus(t, tt.status)
			if tt.status == 422 && !a.fieldErrorOf("advance_seconds") {
				t.Errorf("422 does not name advance_seconds: %s", a.raw)
			}
			if after := m.clockNow(); after.Sub(before) > 5*time.Second {
				t.Errorf("a refused advance moved the clock from %s to %s", before, after)
			}
		})
	}
}

// Rate-limit windows read the mock's clock: advancing a minute opens a new window (D14, D39).
func TestRateWindowFollowsTheClock(t *testing.T) {
	m := newMock(t, mockserver.Config{RateLimit: 1})
	body := map[string]any{"email": "nobody@example.com", "password": "x"}
	m.post(pAuthenticate, "", body).wantStatus(t, http.StatusUnauthorized)
	m.post(pAuthenticate, "", body).wantStatus(t, http.StatusTooManyRequests)
	m.advance(time.Minute)
	m.post(pAuthenticate, "", body).wantStatus(t, http.StatusUnauthorized)
}

// The thumbnail window (5 per project per 10 minutes, D15) reads the mock's clock.
func TestThumbnailWindowFollowsTheClock(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	member := m.login(m.manifest.Users.Member)
	body := map[string]any{"type": "page", "entity_id": m.manifest.Websites.PageID}
	for range 5 {
		m.post(pThumbnails, member, body).wantStatus(t, http.StatusOK)
	}
	m.post(pThumbnails, member, body).wantStatus(t, http.StatusTooManyRequests)
	m.advance(10 * time.Minute)
	m.post(pThumbnails, member, body).wantStatus(t, http.StatusOK)
}

// Snoozed cards wake up when the clock passes snoozed_until (D29).
func TestSnoozesFollowTheClock(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	member := m.login(m.manifest.Users.Member)
	body := map[string]any{"tool_key": m.manifest.Operations.ToolKey}
	before := m.post(pWidgetList, member, body).wantStatus(t, 200).data()["snoozed_count"].(float64)
	if before == 0 {
		t.Fatal("the seeded world has no snoozed widget card")
	}
	m.advance(5 * 365 * 24 * time.Hour)
	if after := m.post(pWidgetList, member, body).wantStatus(t, 200).data()["snoozed_count"].(float64); after != 0 {
		t.Errorf("snoozed_count after five years: %v, want 0", after)
	}
}

// A card due in an hour becomes overdue once the clock has moved past it (D31).
func TestOverdueFollowsTheClock(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	member := m.login(m.manifest.Users.Member)
	due := m.clockNow().Add(time.Hour).Format(time.RFC3339)
	card := m.post(pCardsCreate, member, map[string]any{"title": "Due soon", "due_date": due}).wantStatus(t, 200).data()["card"].(map[string]any)
	if card["is_overdue"] != false {
		t.Fatalf("a card due in an hour is overdue: %v", card)
	}
	m.advance(2 * time.Hour)
	found := false
	for _, c := range m.post(pCardsList, member, nil).wantStatus(t, 200).data()["cards"].([]any) {
		if c := c.(map[string]any); c["id"] == card["id"] {
			found = true
			if c["is_overdue"] != true {
				t.Errorf("two hours later the card is not overdue: %v", c)
			}
		}
	}
	if !found {
		t.Errorf("card %v not in cards/list", card["id"])
	}
}

// DELETE /__mock/clock is the way back from a set and frozen clock, which a reset keeps (D62):
// the world's clock reads the system time again, running; a body is refused and changes nothing.
func TestClockReleaseGoesBackToSystemTime(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	m.ctl(http.MethodPost, "/__mock/clock", map[string]any{"set": "2030-01-01T09:00:00Z", "freeze": true}).wantStatus(t, 200)
	m.ctl(http.MethodPost, "/__mock/reset", nil).wantStatus(t, 200)
	if got := m.clockNow(); !got.Equal(time.Date(2030, 1, 1, 9, 0, 0, 0, time.UTC)) {
		t.Fatalf("after a reset the frozen clock reads %s, want it kept at 2030-01-01T09:00:00Z", got)
	}
	m.ctl(http.MethodDelete, "/__mock/clock", map[string]any{"freeze": false}).wantStatus(t, 400)
	if got := m.clockNow(); !got.Equal(time.Date(2030, 1, 1, 9, 0, 0, 0, time.UTC)) {
		t.Fatalf("a refused DELETE moved the clock to %s", got)
	}
	a := m.ctl(http.MethodDelete, "/__mock/clock", nil).wantStatus(t, 200)
	if a.field("frozen") != false {
		t.Errorf("after DELETE the clock answer %s, want frozen false", a.raw)
	}
	if d := time.Since(m.clockNow()); d < -2*time.Second || d > 2*time.Second {
		t.Errorf("after DELETE the clock reads %s, want the system time %s", m.clockNow(), time.Now().UTC())
	}
}

// The Go handles read and move the clock as the HTTP control does: whole seconds (a set
// instant's fraction is not read back), and an advance of whole seconds up to ten years (a
// part of a second, or 292 years at once, was taken).
func TestWorldHandleClockInWholeSeconds(t *testing.T) {
	srv, err := mockserver.New(mockserver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := srv.World("e2")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2030, 1, 1, 9, 0, 0, 900_000_000, time.UTC)
	if err := w.SetClock(at); err != nil {
		t.Fatal(err)
	}
	w.Freeze(true)
	if got := w.Now(); !got.Equal(at.Truncate(time.Second)) {
		t.Errorf("frozen at %s: Now %s, want %s", at, got, at.Truncate(time.Second))
	}
	if err := srv.Default().SetClock(at); err != nil {
		t.Fatal(err)
	}
	if got := srv.Now(); got.Nanosecond() != 0 {
		t.Errorf("Server.Now %s keeps a part of a second", got)
	}
	for _, d := range []time.Duration{1500 * time.Millisecond, math.MaxInt64, 10*365*24*time.Hour + time.Second} {
		if err := w.Advance(d); err == nil {
			t.Errorf("Advance(%s) taken", d)
		}
	}
	if got := w.Now(); !got.Equal(at.Truncate(time.Second)) {
		t.Errorf("after refused advances: Now %s, want it unmoved", got)
	}
	if err := w.Advance(2 * time.Second); err != nil || !w.Now().Equal(at.Truncate(time.Second).Add(2*time.Second)) {
		t.Errorf("Advance(2s): %v, Now %s", err, w.Now())
	}
}
