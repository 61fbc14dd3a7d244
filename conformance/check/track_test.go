package check_test

import (
	"context"
	"net/http"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/conformance/check"
	"github.com/opsapi/mocktoolkit/conformance/rules"
	"github.com/opsapi/mocktoolkit/spec"
)

func op(t *testing.T, id string) spec.Operation {
	t.Helper()
	doc, err := spec.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	o, ok := spec.OperationByID(doc, id)
	if !ok {
		t.Fatalf("no operation %s", id)
	}
	return o
}

// answer is a 2xx exchange of op with the rate-limit headers and body given.
func answer(o spec.Operation, remaining, req, body string) check.Exchange {
	return check.Exchange{Op: o, ReqBody: []byte(req), Status: http.StatusOK,
		Header: http.Header{"X-Ratelimit-Limit": {"60"}, "X-Ratelimit-Remaining": {remaining}}, Body: []byte(body)}
}

// step is one exchange of a caller: sent at ms milliseconds, answered 10 ms later.
type step struct {
	ex check.Exchange
	ms int
}

// trackStart is the time a step's ms count from.
var trackStart = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// watched is a tracker that has seen every request since long before trackStart.
func watched() *check.Tracker {
	tr := check.NewTracker()
	tr.Watching(trackStart.Add(-time.Hour))
	return tr
}

func run(tr *check.Tracker, steps ...step) []rules.ID {
	start := trackStart
	var ids []rules.ID
	for _, s := range steps {
		sent := start.Add(time.Duration(s.ms) * time.Millisecond)
		for _, v := range tr.Judge("Bearer t", s.ex, sent, sent.Add(10*time.Millisecond)) {
			ids = append(ids, v.Rule)
		}
	}
	return ids
}

func TestTrackerJudgesRemainingAcrossAnswers(t *testing.T) {
	tags := op(t, "tagsList")
	same := func(ms int) step { return step{answer(tags, "42", "{}", `{"data":{"tags":[]}}`), ms} }
	for _, c := range []struct {
		name  string
		steps []step
		want  []rules.ID
	}{
		{"three quick answers in a row leaving Remaining where it was break LIMIT-1", []step{same(0), same(20), same(40)}, []rules.ID{rules.LIMIT1}},
		{"two are not enough: a window may reset between them", []step{same(0), same(20)}, nil},
		{"answers counting down keep the rule", []step{same(0), {answer(tags, "41", "{}", `{"data":{"tags":[]}}`), 20}, {answer(tags, "40", "{}", `{"data":{"tags":[]}}`), 40}}, nil},
		{"answers seconds apart are not in a row", []step{same(0), same(3000), same(6000)}, nil},
		{"overlapping requests are not in a row", []step{same(0), same(5), same(10)}, nil},
		// At 60 a minute a token bucket refills one request a second, and a sliding window in
		// its steady state lets one old request go for each new one: polled once a second (or
		// every 600 ms), both rightly answer the same Remaining every time.
		{"a poll once a second is a token bucket's steady state", []step{same(0), same(1000), same(2000), same(3000)}, nil},
		{"a poll every 600 ms spans more than one request's share", []step{same(0), same(600), same(1200)}, nil},
		{"within one request's share of the minute, after a slow start", []step{same(0), same(1500), same(1800), same(2100)}, []rules.ID{rules.LIMIT1}},
		// A sliding window lets the requests of a minute ago go: after a burst then, answers
		// in a row may keep Remaining however quickly they come.
		{"a minute after a request: a sliding window may let it go meanwhile", []step{same(-60000), same(0), same(20), same(40)}, nil},
		{"a minute after a refused request, which may have counted", []step{{check.Exchange{Op: tags, ReqBody: []byte("{}"), Status: http.StatusTooManyRequests}, -59990}, same(0), same(20), same(40)}, nil},
		{"half a minute after a request: none can leave the window during the run", []step{same(-30000), same(0), same(20), same(40)}, []rules.ID{rules.LIMIT1}},
		{"two minutes after a request", []step{same(-120000), same(0), same(20), same(40)}, []rules.ID{rules.LIMIT1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := run(watched(), c.steps...); !slices.Equal(got, c.want) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}

func TestTrackerJudgesCreatesInTheNextList(t *testing.T) {
	list, create := op(t, "tagsList"), op(t, "tagsCreate")
	comments, comment := op(t, "commentsList"), op(t, "commentsCreate")
	lagged := 200 + int(check.ListSettle/time.Millisecond) // ms: sent past ListSettle after the create
	tags := func(n int, ms int) step {
		return step{answer(list, "50", "{}", `{"data":{"tags":[`+strings.TrimSuffix(strings.Repeat("{},", n), ",")+`]}}`), ms}
	}
	created := func(ms int) step { return step{answer(create, "50", `{"name":"x"}`, `{"data":{"tag":{}}}`), ms} }
	total := func(card string, n string, ms int) step {
		return step{answer(comments, "50", `{"card_id":`+card+`}`, `{"data":{"comments":[],"pagination":{"total":`+n+`}}}`), ms}
	}
	commented := func(card string, ms int) step {
		return step{answer(comment, "50", `{"card_id":`+card+`,"comment":"x"}`, `{"data":{"comment":{}}}`), ms}
	}
	for _, c := range []struct {
		name  string
		steps []step
		want  []rules.ID
	}{
		{"a tag created but not listed breaks LIST-1", []step{tags(2, 0), created(100), tags(2, lagged)}, []rules.ID{rules.LIST1}},
		// A list may be read from a replica behind the writes: within ListSettle of the create it
		// is not judged, and the next list is judged against the count before the create.
		{"a list lagging the create is not judged", []step{tags(2, 0), created(100), tags(2, 200)}, nil},
		{"a lagging list, then one showing the create", []step{tags(2, 0), created(100), tags(2, 200), tags(3, lagged)}, nil},
		{"a lagging list, then one still short", []step{tags(2, 0), created(100), tags(2, 200), tags(2, lagged)}, []rules.ID{rules.LIST1}},
		{"a tag created and listed keeps it", []step{tags(2, 0), created(100), tags(3, 200)}, nil},
		{"others' tags may show up too", []step{tags(2, 0), created(100), tags(5, 200)}, nil},
		{"a create overlapping the first list is not judged", []step{tags(2, 0), created(5), tags(2, 200)}, nil},
		{"a create before any list is not judged", []step{created(0), tags(2, 100)}, nil},
		{"a comment not counted by its card's list breaks COMMENT-1", []step{total("7", "4", 0), commented("7", 100), total("7", "4", lagged)}, []rules.ID{rules.COMMENT1}},
		{"a comment list lagging the create is not judged", []step{total("7", "4", 0), commented("7", 100), total("7", "4", 1600)}, nil},
		{"a comment on another card is not this card's", []step{total("7", "4", 0), commented("8", 100), total("7", "4", 200)}, nil},
		// Where a create's codes are not shown, a 2xx with `error: true` is a refusal (D209): it
		// creates nothing, so the next list counts no more.
		{"a create refused in a 200 with error: true is not counted", []step{tags(2, 0), {answer(create, "50", `{"name":"x"}`, `{"error":true,"message":"Tag quota reached."}`), 100}, tags(2, lagged)}, nil},
		{"a reply may be listed under its parent, so it is not counted", []step{total("7", "4", 0), {answer(comment, "50", `{"card_id":7,"comment":"x","parent_comment_id":3}`, `{"data":{"comment":{}}}`), 100}, total("7", "4", 200)}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := run(check.NewTracker(), c.steps...); !slices.Equal(got, c.want) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}

// A tracker judges LIMIT-1 only over runs whose minute before it watched: a proxy started a
// moment ago cannot tell whether a burst a minute earlier is leaving a sliding window.
func TestTrackerJudgesRemainingOnlyAfterWatchingTheMinuteBefore(t *testing.T) {
	tags := op(t, "tagsList")
	same := func(ms int) step { return step{answer(tags, "42", "{}", `{"data":{"tags":[]}}`), ms} }
	other := func(ms int) step { return step{answer(tags, "17", "{}", `{"data":{"tags":[]}}`), ms} }
	if got := run(check.NewTracker(), same(0), same(20), same(40)); len(got) > 0 {
		t.Errorf("a tracker that began with the run judged it: %v", got)
	}
	if got := run(check.NewTracker(), other(-70000), same(0), same(20), same(40)); len(got) > 0 {
		t.Errorf("a tracker that watched only 70 s before the run judged it: %v", got)
	}
	if got := run(check.NewTracker(), other(-130000), same(0), same(20), same(40)); !slices.Equal(got, []rules.ID{rules.LIMIT1}) {
		t.Errorf("a tracker that saw the two minutes before the run quiet: %v, want [LIMIT-1]", got)
	}
}

// A sliding-window counter weighs the previous clock minute down as the current one goes on:
// after as many requests as the limit (60 here) within the two minutes before a run, refused
// ones counted, it may shed one per request however quickly they come; fewer cannot.
func TestTrackerAllowsASlidingWindowCountersDecay(t *testing.T) {
	tags := op(t, "tagsList")
	same := func(ms int) step { return step{answer(tags, "42", "{}", `{"data":{"tags":[]}}`), ms} }
	burst := func(n, at int) []step {
		var out []step
		for i := range n {
			out = append(out, step{check.Exchange{Op: tags, ReqBody: []byte("{}"), Status: http.StatusTooManyRequests}, at + i*10})
		}
		return out
	}
	run3 := []step{same(0), same(20), same(40)}
	if got := run(watched(), append(burst(60, -100000), run3...)...); len(got) > 0 {
		t.Errorf("a run 100 s after 60 requests (the limit) was judged: %v", got)
	}
	if got := run(watched(), append(burst(50, -100000), run3...)...); !slices.Equal(got, []rules.ID{rules.LIMIT1}) {
		t.Errorf("a run 100 s after 50 requests (under the limit): %v, want [LIMIT-1]", got)
	}
}

// The checker judges and nothing else: it imports spec (and its number reader), the registry,
// the Prefer, one-JSON-text and nesting readers and the clip of quoted values it shares with the
// mock (standard library only),
// kin-openapi and the standard library, never the suite's test framework or the mock.
func TestCheckImportsNeitherTheSuiteNorTheMock(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/opsapi/mocktoolkit/conformance/check").Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "github.com/onsi/") || (strings.HasPrefix(dep, "github.com/opsapi/mocktoolkit/") &&
			dep != "github.com/opsapi/mocktoolkit/spec" && dep != "github.com/opsapi/mocktoolkit/internal/jsonnum" && dep != "github.com/opsapi/mocktoolkit/conformance/rules" && dep != "github.com/opsapi/mocktoolkit/conformance/check" && dep != "github.com/opsapi/mocktoolkit/internal/prefer" && dep != "github.com/opsapi/mocktoolkit/internal/jsonone" && dep != "github.com/opsapi/mocktoolkit/internal/jsonnest" && dep != "github.com/opsapi/mocktoolkit/internal/text") {
			t.Errorf("conformance/check depends on %s", dep)
		}
	}
}
