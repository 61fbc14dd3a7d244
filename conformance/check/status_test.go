package check_test

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/conformance/check"
	"github.com/opsapi/mocktoolkit/conformance/rules"
	"github.com/opsapi/mocktoolkit/spec"
)

// A status update answers the card with the status given (TRANS-1), judged on the answer alone;
// what the answer cannot show (a card that is no object, one without a status, a request the
// rule does not cover) is not judged.
func TestGivenStatusJudgesTheAnsweredCard(t *testing.T) {
	tour, master := op(t, "tourCardsUpdate"), op(t, "masterCardsUpdate")
	for _, c := range []struct {
		name   string
		ex     check.Exchange
		broken bool
	}{
		{"the status given", statusAnswer(tour, `{"id": 7, "status": "closed"}`, 200, `{"card": {"id": 7, "status": "closed"}}`), false},
		{"another status", statusAnswer(tour, `{"id": 7, "status": "closed"}`, 200, `{"card": {"id": 7, "status": "open"}}`), true},
		{"null for the status", statusAnswer(tour, `{"id": 7, "status": "closed"}`, 200, `{"card": {"id": 7, "status": null}}`), true},
		{"a master card's other status", statusAnswer(master, `{"id": 7, "status": "blocked"}`, 200, `{"card": {"status": "open"}, "projects_updated": 0}`), true},
		{"a master card's status given", statusAnswer(master, `{"id": 7, "status": "to_check"}`, 200, `{"card": {"status": "to_check"}, "projects_updated": 0}`), false},
		{"a card that is a string", statusAnswer(tour, `{"id": 7, "status": "closed"}`, 200, `{"card": "updated"}`), false},
		{"a card without a status", statusAnswer(tour, `{"id": 7, "status": "closed"}`, 200, `{"card": {"id": 7}}`), false},
		{"no status asked for", statusAnswer(master, `{"id": 7, "title": "x"}`, 200, `{"card": {"status": "open"}, "projects_updated": 0}`), false},
		{"null asked for", statusAnswer(master, `{"id": 7, "status": null}`, 200, `{"card": {"status": "open"}, "projects_updated": 0}`), false},
		{"a status outside the enumeration (ERR-6's)", statusAnswer(tour, `{"id": 7, "status": "done"}`, 200, `{"card": {"status": "open"}}`), false},
		{"a refusal", statusAnswer(tour, `{"id": 7, "status": "closed"}`, 404, `{"card": {"status": "open"}}`), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := check.GivenStatus(c.ex)
			if broken := len(got) > 0; broken != c.broken {
				t.Fatalf("GivenStatus = %v, want broken %v", got, c.broken)
			}
			if c.broken && got[0].Rule != rules.TRANS1 {
				t.Errorf("rule %s, want %s", got[0].Rule, rules.TRANS1)
			}
		})
	}
}

// A successful deprecation answers theme_status "deprecated": the one checker's Judge says
// TRANS-3 for any other value, whoever judges the answer.
func TestJudgeWantsADeprecationToSayDeprecated(t *testing.T) {
	deprecate := op(t, "themeVersionsDeprecate")
	for _, c := range []struct {
		status string
		want   bool
	}{{`"deprecated"`, false}, {`"approved"`, true}, {`null`, true}, {`"Deprecated"`, true}} {
		ex := statusAnswer(deprecate, `{"version_id": 3}`, 200, `{"version_id": "3", "theme_status": `+c.status+`}`)
		got := slices.Contains(check.IDs(check.Judge(context.Background(), ex)), rules.TRANS3)
		if got != c.want {
			t.Errorf("theme_status %s: TRANS-3 %v, want %v (%v)", c.status, got, c.want, check.Judge(context.Background(), ex))
		}
	}
}

// The proxy's tracker excuses an answer showing the status another update of the card gave
// when the two overlapped: a deployment reading the card back after writing it answers what the
// other wrote. An update that did not overlap, or of another card, or that gave another status,
// excuses nothing.
func TestTrackerExcusesAStatusAnOverlappingUpdateGave(t *testing.T) {
	tour := op(t, "tourCardsUpdate")
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return start.Add(time.Duration(ms) * time.Millisecond) }
	closedShowsOpen := statusAnswer(tour, `{"id": 7, "status": "closed"}`, 200, `{"card": {"id": 7, "status": "open"}}`)
	for _, c := range []struct {
		name  string
		other string // the request of the other update
		sent  int    // when the other was sent, in ms (the judged one is sent at 100, answered at 200)
		done  int    // when its answer came, or -1 while it has not
		want  bool   // TRANS-1 is named
	}{
		{"no other update", "", 0, 0, true},
		{"an update to open still under way", `{"id": 7, "status": "open"}`, 150, -1, false},
		{"an update to open answered during it", `{"id": 7, "status": "open"}`, 120, 180, false},
		{"an update to open sent before it and answered after", `{"id": 7, "status": "open"}`, 50, 300, false},
		{"an update to open answered before it was sent", `{"id": 7, "status": "open"}`, 10, 50, true},
		{"an update to open sent after its answer", `{"id": 7, "status": "open"}`, 250, -1, true},
		{"an update of another card", `{"id": 8, "status": "open"}`, 150, -1, true},
		{"an update of the card written 7.0", `{"id": 7.0, "status": "open"}`, 150, -1, false},
		{"an update to closed", `{"id": 7, "status": "closed"}`, 150, -1, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := check.NewTracker()
			if c.other != "" {
				answered := tr.StatusSent(check.Exchange{Op: tour, ReqBody: []byte(c.other)}, at(c.sent))
				if c.done >= 0 {
					answered(at(c.done))
				}
			}
			got := slices.Contains(check.IDs(tr.Judge("Bearer t", closedShowsOpen, at(100), at(200))), rules.TRANS1)
			if got != c.want {
				t.Errorf("TRANS-1 named %v, want %v", got, c.want)
			}
		})
	}
}

// statusAnswer is an exchange of o with the request and data given, answered status with the
// rate-limit headers.
func statusAnswer(o spec.Operation, req string, status int, data string) check.Exchange {
	return check.Exchange{Op: o, ReqBody: []byte(req), Status: status,
		Header: http.Header{"X-Ratelimit-Limit": {"60"}, "X-Ratelimit-Remaining": {"59"}, "Content-Type": {"application/json"}},
		Body:   []byte(`{"error": false, "message": "ok", "data": ` + data + `}`)}
}
