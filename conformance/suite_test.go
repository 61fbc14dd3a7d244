package conformance_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	. "github.com/onsi/gomega"

	. "github.com/opsapi/mocktoolkit/conformance"
)

var (
	cfg      Config
	client   *Client
	manifest Manifest
	// missing lists what the manifest lacks (CheckManifest); specs needing it skip.
	missing []string
)

func TestConformance(t *testing.T) {
	RegisterFailHandler(Fail)
	suiteConfig, reporterConfig := GinkgoConfiguration()
	c, cfgErr := LoadConfig(os.Getenv)
	if cfgErr != nil {
		fmt.Fprintf(os.Stderr, "conformance: %v\n", cfgErr)
		t.FailNow()
	}
	// The profile narrows the label filter (readonly: only specs that change nothing, D110);
	// every spec still appears in the reports, the ones left out as skipped.
	run = RunFilter(suiteConfig.LabelFilter, c)
	suiteConfig.LabelFilter = run.Filter
	if c.BaseURL != "" && !suiteConfig.DryRun {
		// An unreachable deployment fails the run at once, in one line, before any spec.
		if err := Probe(context.Background(), strings.TrimRight(c.BaseURL, "/"), 5*time.Second); err != nil {
			fmt.Fprintf(os.Stderr, "conformance: %v\n", err)
			t.FailNow()
		}
	}
	// Reports that cannot be written (a directory the user may not write to) are a warning,
	// never a failed verdict: Ginkgo would fail the run for a report it cannot write, so such a
	// report is dropped before the run.
	files = ResolveReports(c, reporterConfig.JUnitReport, reporterConfig.JSONReport)
	for _, r := range []struct {
		what string
		path *string
	}{{"JUnit", &files.JUnit}, {"JSON", &files.JSON}, {"HTML", &files.HTML}, {"summary", &files.Summary}} {
		if *r.path == "" {
			continue
		}
		if err := CheckWritable(*r.path); err != nil {
			fmt.Fprintln(os.Stderr, ReportWarning(r.what, *r.path, err))
			*r.path = ""
		}
	}
	reporterConfig.JUnitReport, reporterConfig.JSONReport = files.JUnit, files.JSON
	labelFilter = suiteConfig.LabelFilter
	RunSpecs(t, "Conformance", suiteConfig, reporterConfig)
	// The JUnit report exists here when this process wrote it (not under the ginkgo CLI's -p,
	// which merges the processes' reports itself).
	if path := reporterConfig.JUnitReport; path != "" && fileExists(path) {
		if err := GroupJUnitByOperation(path); err != nil {
			fmt.Fprintln(os.Stderr, ReportWarning("JUnit (grouped by operation)", path, err))
		}
	}
}

var (
	// run is the run's label filter and profile.
	run Run
	// files are the reports the run writes.
	files ReportFiles
)

// labelFilter is the run's label filter.
var labelFilter string

// checkPartialManifest accepts a manifest that lacks parts only when the label filter leaves
// out every operation whose specs use them; it returns what is missing.
func checkPartialManifest(m Manifest) ([]string, error) {
	missing := CheckManifest(m)
	if len(missing) == 0 {
		return nil, nil
	}
	var inRun []string
	for _, op := range Operations {
		if need := MissingFor(op.ID, missing); len(need) > 0 && OperationInRun(labelFilter, op) {
			inRun = append(inRun, fmt.Sprintf("%s (needs %s)", op.ID, strings.Join(need, ", ")))
		}
	}
	if len(inRun) > 0 {
		return missing, fmt.Errorf("the manifest lacks %s; the run includes operations that need it: %s (complete the manifest, or leave them out with the label filter, e.g. '&& !op:%s')",
			strings.Join(missing, "; "), strings.Join(inRun, "; "), strings.SplitN(inRun[0], " ", 2)[0])
	}
	fmt.Fprintf(GinkgoWriter, "the manifest lacks %s; the label filter leaves out every operation that needs it\n", strings.Join(missing, "; "))
	return missing, nil
}

// The target is chosen once, on the first process; every parallel process gets its base URL.
var _ = SynchronizedBeforeSuite(func(ctx SpecContext) []byte {
	c, err := LoadConfig(os.Getenv)
	must(err, "read the environment")
	target, err := StartTarget(ctx, c)
	DeferCleanup(target.Stop)
	must(err, "the deployment under test must answer")
	m, err := LoadManifest(ctx, c, target.BaseURL)
	must(err, "the fixture manifest must name what the suite acts on")
	_, err = checkPartialManifest(m)
	must(err, "the fixture manifest must name what the suite acts on")
	fmt.Fprintf(GinkgoWriter, "conformance target: %s (%s)\n", target.BaseURL, target.Kind)
	return []byte(target.BaseURL)
}, func(ctx SpecContext, base []byte) {
	var err error
	cfg, err = LoadConfig(os.Getenv)
	must(err, "read the environment")
	client, err = NewClient(ctx, string(base), cfg)
	must(err, "make the client")
	client.Logf = func(format string, args ...any) { fmt.Fprintf(GinkgoWriter, format+"\n", args...) }
	manifest, err = LoadManifest(ctx, cfg, string(base))
	must(err, "load the fixture manifest")
	missing = CheckManifest(manifest)
})

// Every spec's exchanges, counted by the client, go into its report (ReportEntryExchanges):
// the HTML report's coverage and the self-test's check of the effect labels read them. The
// cleanup is registered first, so it runs last, after the spec's own cleanups.
var _ = BeforeEach(func() {
	client.Recorder.Take() // what came before this spec (suite setup) is not its own
	DeferCleanup(func() {
		AddReportEntry(ReportEntryExchanges, client.Recorder.Take(), ReportEntryVisibilityNever)
	})
})

// The per-operation and per-aspect summary, on standard output and in the summary file
// (CONFORMANCE_SUMMARY, or summary.txt in CONFORMANCE_REPORTS). A file that cannot be written
// is a warning: the verdict is the specs'.
var _ = ReportAfterSuite("conformance summary", func(report Report) {
	s := SummarizeRun(report, run)
	_ = s.Write(os.Stdout)
	if path := files.Summary; path != "" {
		if warn := WriteReportFile("summary", path, s.Write); warn != "" {
			fmt.Fprintln(os.Stderr, warn)
		}
	}
	// Against the reference mock in process (go test ./conformance), every spec's effect labels
	// are held to the exchanges it made (D110), so the readonly profile can trust them.
	if client != nil && !report.SuiteConfig.DryRun && cfg.BaseURL == "" && cfg.Image == "" {
		var problems []string
		for _, sr := range report.SpecReports {
			if sr.LeafNodeType != types.NodeTypeIt || LeftOutByFilter(sr) {
				continue
			}
			for _, p := range EffectLabelProblems(sr.Labels(), sr.State, Records(sr)) {
				problems = append(problems, fmt.Sprintf("spec %q: %s", sr.FullText(), p))
			}
		}
		if len(problems) > 0 {
			Fail("effect labels that do not match what the specs sent (conformance/labels.go, D110):\n" + strings.Join(problems, "\n"))
		}
	}
	// The HTML report (CONFORMANCE_HTML, or conformance.html in CONFORMANCE_REPORTS).
	if path := files.HTML; path != "" {
		target := "(not started)"
		if client != nil {
			target = client.BaseURL()
		}
		h := BuildHTMLReport(report, run, target, time.Now())
		if warn := WriteReportFile("HTML", path, h.WriteHTML); warn != "" {
			fmt.Fprintln(os.Stderr, warn)
		}
	}
})

// bg is the context of requests made outside a spec's own context.
var bg = context.Background()

// must fails the setup with a plain message when err is not nil.
func must(err error, what string) {
	GinkgoHelper()
	if err != nil {
		Fail(fmt.Sprintf("%s: %s", what, err))
	}
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
