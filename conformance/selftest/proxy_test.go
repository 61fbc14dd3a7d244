package selftest_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/onsi/ginkgo/v2/types"
	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/rules"
	"github.com/opsapi/mocktoolkit/proxy"
)

// singleAnswerRules are the rules one answer shows broken (TRANS-1 unless another update of the
// card overlapped it, which no spec does): the variants that break them are judged alike by the
// suite and by the proxy in front of the same deployment.
var singleAnswerRules = []string{"HDR-1", "HDR-2", "ENV-1", "ENV-3", "ENV-4", "ERR-5", "DOC-1", "STATUS-1", "TRANS-1", "TRANS-3"}

// TestSuiteThroughTheProxy runs the contract profile through the validating proxy: in front of
// the reference mock both are green; in front of each broken variant whose fault shows in
// single answers, the suite's failures and the proxy's report name the variant's rule.
func TestSuiteThroughTheProxy(t *testing.T) {
	t.Parallel() // the sweeps wait on answers and windows more than they compute: they overlap
	needFull(t)
	run := []variant{{name: "the reference mock"}}
	for _, v := range variants {
		if slices.Contains(singleAnswerRules, v.rule) {
			run = append(run, v)
		}
	}
	if !full() && len(run) > 2 {
		run = run[:2] // the quick loop: the reference and one broken variant; the full loop runs all
	}
	cited := regexp.MustCompile(`\brule ([A-Z]+(?:-[A-Z0-9]+)+)\b`)
	for _, v := range run {
		t.Run(v.name, func(t *testing.T) {
			t.Parallel()
			p, front := startProxy(t, startMock(t, v.wrap))
			filter := brokenFilter(v)
			if v.wrap == nil && full() {
				filter = "contract" // the reference, windows and all: the proxy under that load names nothing
			}
			specs, ok, out := runSuite(t, front, "-ginkgo.label-filter="+filter)
			byProxy := map[string]bool{}
			report := p.Report()
			for _, op := range report.Operations {
				for _, rc := range op.Violations {
					if r, _ := rules.ByID(rc.Rule); !r.Client {
						byProxy[string(rc.Rule)] = true
					}
				}
			}
			bySuite := map[string]bool{}
			for _, s := range specs {
				for _, m := range cited.FindAllStringSubmatch(s.Failure, -1) {
					bySuite[m[1]] = true
				}
			}
			if v.wrap == nil {
				if !ok || len(byProxy) > 0 {
					t.Fatalf("through the proxy in front of the reference: suite passes %v, proxy names %v\n%s", ok, byProxy, tail(out, 3000))
				}
				return
			}
			if ok || !bySuite[v.rule] || !byProxy[v.rule] {
				t.Errorf("the mock that %s breaks %s: the suite fails %v citing %v, the proxy names %v", v.name, v.rule, !ok, keys(bySuite), keys(byProxy))
			}
		})
	}
}

// startProxy starts the validating proxy in front of upstream; it returns the proxy and its URL.
func startProxy(t *testing.T, upstream string) (*proxy.Proxy, string) {
	t.Helper()
	up, err := url.Parse(upstream)
	if err != nil {
		t.Fatal(err)
	}
	p, err := proxy.New(proxy.Config{Upstream: up})
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(p)
	t.Cleanup(front.Close)
	return p, front.URL
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// A deployment that drops a connection now and then under load (every 20th tags list here)
// breaks no rule the interface states (it bounds no concurrency): the rate-limit flood sent to
// it directly gets no answer on some requests and proves nothing. Through the proxy those requests are the proxy's own 502 (UP-1),
// which the flood takes as no answer too, so the suite gives one verdict, with or without the
// proxy: the flood is skipped, not failed, and nothing else fails.
func TestFloodDroppingConnectionsIsNoVerdictThroughTheProxy(t *testing.T) {
	t.Parallel()
	needFull(t)
	dropsUnderBurst := func(h httpHandler) httpHandler {
		var n atomic.Int64
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == conformance.OpTagsList.Path && n.Add(1)%20 == 0 && n.Load() > 20 {
				if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
					_ = conn.Close()
					return
				}
			}
			h.ServeHTTP(w, r)
		})
	}
	_, front := startProxy(t, startMock(t, dropsUnderBurst)) // a mock of its own: the direct run spends part of its window
	for _, base := range []string{startMock(t, dropsUnderBurst), front} {
		specs, ok, out := runSuite(t, base, "-ginkgo.label-filter=contract && op:"+conformance.OpTagsList.ID+" && "+conformance.LabelRule+"LIMIT-2")
		skipped := slices.ContainsFunc(specs, func(s specResult) bool {
			return !s.LeftOut && s.State == types.SpecStateSkipped && strings.Contains(s.Name, "once X-RateLimit-Limit is spent")
		})
		if !ok || !skipped {
			t.Errorf("against %s: suite passes %v, flood skipped %v; want it skipped as no verdict, nothing failed\n%s", base, ok, skipped, tail(out, 3000))
		}
	}
}
