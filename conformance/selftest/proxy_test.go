package selftest_test

import (
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance/rules"
	"github.com/opsapi/mocktoolkit/proxy"
)

// singleAnswerRules are the rules one answer shows broken: the variants that break them are
// judged alike by the suite and by the proxy in front of the same deployment.
var singleAnswerRules = []string{"HDR-1", "HDR-2", "ENV-1", "ENV-3", "ENV-4", "ERR-5", "DOC-1", "STATUS-1"}

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
			up, err := url.Parse(startMock(t, v.wrap))
			if err != nil {
				t.Fatal(err)
			}
			p, err := proxy.New(proxy.Config{Upstream: up})
			if err != nil {
				t.Fatal(err)
			}
			front := httptest.NewServer(p)
			t.Cleanup(front.Close)
			filter := brokenFilter(v)
			if v.wrap == nil && full() {
				filter = "contract" // the reference, windows and all: the proxy under that load names nothing
			}
			specs, ok, out := runSuite(t, front.URL, "-ginkgo.label-filter="+filter)
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

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
