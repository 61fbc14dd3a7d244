package proxy_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/conformance/check"
	"github.com/opsapi/mocktoolkit/conformance/rules"
	"github.com/opsapi/mocktoolkit/internal/fulltest"
	"github.com/opsapi/mocktoolkit/mockserver"
	"github.com/opsapi/mocktoolkit/proxy"
)

// The proxy judges the rules that span one caller's exchanges through the checker's tracker: a
// deployment that keeps X-RateLimit-Remaining where it was breaks LIMIT-1 on the third answer
// in a row (once the proxy has watched the two minutes before the run: TestProxyJudgesRemaining
// below), and one whose tag list does not grow after a create breaks LIST-1; the reference
// mock breaks neither.
func TestProxyJudgesAcrossOneCallersExchanges(t *testing.T) {
	const pTagsCreate = "/services/operations/v1/operations/tags/create"
	stuck := func(_ *int, h http.Header, _ map[string]any) {
		h.Set("X-RateLimit-Remaining", h.Get("X-RateLimit-Limit"))
	}
	frozen := func(_ *int, _ http.Header, body map[string]any) {
		body["data"] = map[string]any{"tags": []any{}}
	}
	// 30 a minute: LIMIT-1 judges runs within one request's share of the minute (D123), 2 s
	// here, so a loaded machine (the race detector beside the self-test) stays inside it.
	limited := func() http.Handler {
		m, err := mockserver.New(mockserver.Config{Now: mockNow, RateLimit: 30})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	for _, c := range []struct {
		name     string
		upstream http.Handler
		want     []string
	}{
		{"the reference mock", limited(), nil},
		{"a Remaining that never counts down, in the proxy's first minute", breakAnswer(limited(), pTagsList, stuck), nil},
		{"a tag list that never grows", breakAnswer(limited(), pTagsList, frozen), []string{string(rules.LIST1)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := startProxyWith(t, c.upstream, proxy.Config{ListLag: -1}) // lists show creates at once
			token := s.login(t, manifest().Users.Member)
			var got []string
			for _, call := range []struct{ path, body string }{
				{pTagsList, `{}`}, {pTagsList, `{}`}, {pTagsList, `{}`},
				{pTagsCreate, `{"name": "proxy tracked"}`}, {pTagsList, `{}`},
			} {
				for _, id := range violations(s.post(t, call.path, token, call.body)) {
					if !slices.Contains(got, id) {
						got = append(got, id)
					}
				}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("violations %v, want %v", got, c.want)
			}
		})
	}
}

// A list read from a replica behind the writes is one verdict with the suite's: the proxy does
// not judge a list asked for within the lag (20 s by default, as CONFORMANCE_PUSH_WAIT) after
// the create it does not show yet; with no lag, the same exchanges break LIST-1 (D123).
func TestProxyAllowsListsToLagTheWrites(t *testing.T) {
	const pTagsCreate = "/services/operations/v1/operations/tags/create"
	stale := func(_ *int, _ http.Header, body map[string]any) { // a replica that never catches up
		body["data"] = map[string]any{"tags": []any{}}
	}
	for _, c := range []struct {
		lag  time.Duration
		want []string
	}{{0, nil}, {-1, []string{string(rules.LIST1)}}} {
		s := startProxyWith(t, breakAnswer(newMock(t), pTagsList, stale), proxy.Config{ListLag: c.lag})
		token := s.login(t, manifest().Users.Member)
		var got []string
		for _, call := range []struct{ path, body string }{{pTagsList, `{}`}, {pTagsCreate, `{"name": "lagged"}`}, {pTagsList, `{}`}} {
			got = append(got, violations(s.post(t, call.path, token, call.body))...)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("ListLag %s: violations %v, want %v", c.lag, got, c.want)
		}
		if c.lag >= 0 {
			continue
		}
		// The list shows it; the create broke it: the report charges tagsCreate, as the suite's
		// LIST-1 spec and explore do.
		var buf bytes.Buffer
		if err := s.proxy.WriteJSONReport(&buf); err != nil {
			t.Fatal(err)
		}
		var r proxy.Report
		if err := json.Unmarshal(buf.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		for _, op := range r.Operations {
			charged := slices.ContainsFunc(op.Violations, func(rc proxy.RuleCount) bool { return rc.Rule == rules.LIST1 })
			if charged != (op.Operation == "tagsCreate") {
				t.Errorf("the report charges LIST-1 to %s: %v, want only to tagsCreate", op.Operation, charged)
			}
		}
	}
}

// Moving a mock's clock through the proxy moves its rate windows (the mock's own rule): answers
// that then start a fresh window each are not a Remaining stuck in place, for the clock as for
// a reset (D123).
func TestProxyForgetsRateRunsWhenTheMockClockMoves(t *testing.T) {
	s := startProxy(t, newMock(t))
	token := s.login(t, manifest().Users.Member)
	for _, move := range []string{`{"advance_seconds": 61}`, `{"set": "2031-01-01T00:00:00Z"}`} {
		var got []string
		for i := 0; i < 3; i++ {
			got = append(got, violations(s.post(t, pTagsList, token, `{}`))...)
			if a := s.post(t, "/__mock/clock", "", move); a.status != http.StatusOK {
				t.Fatalf("move the clock %s: %d %s", move, a.status, a.body)
			}
			move = strings.Replace(move, "2031", fmt.Sprint(2032+i), 1)
		}
		if len(got) > 0 {
			t.Errorf("clock moved by %s between calls: violations %v, want none", move, got)
		}
	}
}

// LIMIT-1 is judged over a run whose two minutes before the proxy watched and saw quiet: a
// sliding log lets the requests of a minute ago go at once, and a sliding-window counter weighs
// the last minute down, so right after the proxy starts (or after a burst) a run keeping
// Remaining proves nothing; two quiet minutes later, it breaks the rule.
func TestProxyJudgesRemainingAfterQuietMinutes(t *testing.T) {
	fulltest.Require(t, "two minutes' wait before LIMIT-1 is judged")
	t.Parallel()
	stuck := func(_ *int, h http.Header, _ map[string]any) {
		h.Set("X-RateLimit-Remaining", h.Get("X-RateLimit-Limit"))
	}
	m, err := mockserver.New(mockserver.Config{Now: mockNow, RateLimit: 30})
	if err != nil {
		t.Fatal(err)
	}
	s := startProxy(t, breakAnswer(m, pTagsList, stuck))
	token := s.login(t, manifest().Users.Member)
	_ = s.post(t, pTagsList, token, `{}`) // the proxy's watch begins
	time.Sleep(slidingQuiet)
	var got []string
	for range 3 {
		got = append(got, violations(s.post(t, pTagsList, token, `{}`))...)
	}
	if !slices.Contains(got, string(rules.LIMIT1)) {
		t.Errorf("three answers in a row keeping Remaining after a quiet minute: violations %v, want %s", got, rules.LIMIT1)
	}
}

// slidingQuiet is how long a tracker must have watched before a run for LIMIT-1 to judge it:
// the two minutes a sliding-window counter looks back and the slack (check.SlidingQuiet).
const slidingQuiet = check.SlidingQuiet + time.Second

// A card the caller created and then updates is found (ERR-8): a deployment answering 404 to
// the update breaks it once the list lag has passed; within the lag (a replica behind the
// writes) it is not judged, and the reference mock breaks nothing.
func TestProxyJudgesACreatedRecordIsFound(t *testing.T) {
	const pCardsCreate, pCardsUpdate = "/services/operations/v1/operations/cards/create", "/services/operations/v1/operations/cards/update"
	lost := func(status *int, _ http.Header, body map[string]any) {
		*status, body["error"], body["message"], body["data"] = http.StatusNotFound, true, "Card not found.", []any{}
	}
	for _, c := range []struct {
		name     string
		upstream http.Handler
		lag      time.Duration
		want     []string
	}{
		{"the reference mock", newMock(t), -1, nil},
		{"an update that never finds the card, past the lag", breakAnswer(newMock(t), pCardsUpdate, lost), -1, []string{string(rules.ERR8)}},
		{"an update that does not find it yet, within the lag", breakAnswer(newMock(t), pCardsUpdate, lost), time.Minute, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := startProxyWith(t, c.upstream, proxy.Config{ListLag: c.lag})
			token := s.login(t, manifest().Users.Member)
			created := s.post(t, pCardsCreate, token, `{"title": "to be found"}`)
			got := violations(s.post(t, pCardsUpdate, token, fmt.Sprintf(`{"id": %d, "title": "found"}`, cardID(t, created.body))))
			if !slices.Equal(got, c.want) {
				t.Errorf("violations %v, want %v", got, c.want)
			}
		})
	}
}

// A card in a group deleted since may rightly be gone (what becomes of a deleted group's cards
// is not stated; the reference removes them, D25): the mock's 404 for it breaks nothing.
func TestProxyDoesNotJudgeACardOfADeletedGroup(t *testing.T) {
	const pCardsCreate, pCardsUpdate, pGroupsDelete = "/services/operations/v1/operations/cards/create", "/services/operations/v1/operations/cards/update", "/services/operations/v1/operations/groups/delete"
	s := startProxyWith(t, newMock(t), proxy.Config{ListLag: -1})
	token := s.login(t, manifest().Users.Member)
	group := manifest().Operations.GroupID
	created := s.post(t, pCardsCreate, token, fmt.Sprintf(`{"title": "in a group to delete", "group_id": %d}`, group))
	card := cardID(t, created.body)
	if del := s.post(t, pGroupsDelete, token, fmt.Sprintf(`{"id": %d}`, group)); del.status != http.StatusOK {
		t.Fatalf("groups/delete: %d %s", del.status, del.body)
	}
	up := s.post(t, pCardsUpdate, token, fmt.Sprintf(`{"id": %d, "title": "gone?"}`, card))
	if up.status != http.StatusNotFound {
		t.Fatalf("the mock kept the card of a deleted group (D25): %d %s", up.status, up.body)
	}
	if got := violations(up); len(got) > 0 {
		t.Errorf("violations %v for a card of a deleted group, want none", got)
	}
}

// cardID reads the id of the card a cards/create answer holds.
func cardID(t *testing.T, body []byte) int64 {
	t.Helper()
	var answer struct {
		Data struct {
			Card struct{ ID int64 } `json:"card"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &answer); err != nil || answer.Data.Card.ID == 0 {
		t.Fatalf("cards/create: %s", body)
	}
	return answer.Data.Card.ID
}
