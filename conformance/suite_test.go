package conformance_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/formatter"
	"github.com/onsi/ginkgo/v2/types"
	. "github.com/onsi/gomega"

	"github.com/onsi/ginkgo/v2/reporters"
	. "github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/explore"
	mf "github.com/opsapi/mocktoolkit/conformance/manifest"
	"github.com/opsapi/mocktoolkit/conformance/report"
)

var (
	cfg      Config
	client   *Client
	manifest mf.Manifest
	// missing lists what the manifest lacks (manifest.Check); specs needing it skip.
	missing []string
)

// checkManifest names a manifest file to check instead of running the suite.
var checkManifest = flag.String("check-manifest", "", "check this manifest file against manifest.schema.json and say what a whole run needs that it lacks, then exit")

// TestMain answers -check-manifest alone, before any test runs: its line is the whole output
// (testing's PASS or FAIL after it read as a suite verdict), and the exit status says whether
// the file is a manifest.
func TestMain(m *testing.M) {
	flag.Parse()
	if *checkManifest != "" {
		os.Exit(checkManifestFile(*checkManifest))
	}
	os.Exit(m.Run())
}

// checkManifestFile checks path against the manifest's schema and says what a whole run needs
// that it lacks; it returns the exit status.
func checkManifestFile(path string) int {
	missing, err := mf.CheckFile(path)
	switch {
	case err != nil:
		fmt.Fprintf(os.Stderr, "conformance: manifest %v\n", err)
		return 1
	case len(missing) > 0:
		fmt.Printf("conformance: %s matches manifest.schema.json; a whole run also needs %s (or leave out the operations that need them)\n", path, strings.Join(missing, ", "))
	default:
		fmt.Printf("conformance: %s matches manifest.schema.json and holds everything a whole run needs\n", path)
	}
	return 0
}

func TestConformance(t *testing.T) {
	RegisterFailHandler(judge)
	suiteConfig, reporterConfig := GinkgoConfiguration()
	if fi, err := os.Stdout.Stat(); err == nil && fi.Mode()&os.ModeCharDevice == 0 {
		reporterConfig.NoColor = true // a log file or a container's log: no escape codes in it
		// Ginkgo words some failures (a parallel process's SynchronizedBeforeSuite) with its
		// package formatter, which the reporter's setting does not reach.
		formatter.SingletonFormatter.ColorMode = formatter.ColorModeNone
	}
	c, cfgErr := LoadConfig(os.Getenv)
	if cfgErr == nil {
		_, cfgErr = explore.OptionsFromEnv(os.Getenv) // refused at the start, not after the fixed specs
	}
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
		if err := (Target{BaseURL: strings.TrimRight(c.BaseURL, "/")}).Ping(context.Background(), 5*time.Second); err != nil {
			fmt.Fprintf(os.Stderr, "conformance: %v\n", err)
			t.FailNow()
		}
	}
	// Reports that cannot be written (a directory the user may not write to) are a warning,
	// never a failed verdict: Ginkgo would fail the run for a report it cannot write, so such a
	// report is dropped before the run.
	// A report's folder that does not exist yet is made.
	files = report.Resolve(c, reporterConfig.JUnitReport, reporterConfig.JSONReport)
	for _, r := range []struct {
		what string
		path *string
	}{{"JUnit", &files.JUnit}, {"JSON", &files.JSON}, {"HTML", &files.HTML}, {"summary", &files.Summary}} {
		if *r.path == "" {
			continue
		}
		if err := report.Prepare(*r.path); err != nil {
			fmt.Fprintln(os.Stderr, report.Warning(r.what, *r.path, err))
			*r.path = ""
		}
	}
	reporterConfig.JUnitReport, reporterConfig.JSONReport = files.JUnit, files.JSON
	labelFilter = suiteConfig.LabelFilter
	if c.Parallel > 1 && suiteConfig.ParallelTotal == 1 && !suiteConfig.DryRun {
		// This process coordinates; the processes it starts run the specs (D160).
		p := ParallelRun{Procs: c.Parallel, Binary: os.Args[0], Args: os.Args[1:], Seed: suiteConfig.RandomSeed, Test: "TestConformance", Reporter: reporterConfig}
		merged, ok, err := p.Run(context.Background())
		if err != nil {
			fmt.Fprintf(os.Stderr, "conformance: %v\n", err)
		}
		if !ok && len(merged.SpecReports) > 0 {
			writeLostReports(merged) // a lost process 1 never wrote them; a lost other one left them unmarked
		}
		if len(merged.SpecReports) > 0 {
			_ = report.Summarize(merged, run).Write(os.Stdout) // process 1 writes only the file
		}
		if note := report.ThrottleNote(merged, c.Parallel); note != "" {
			fmt.Fprintln(os.Stderr, note)
		}
		if err != nil || !ok {
			t.Fail()
		}
		return
	}
	RunSpecs(t, "Conformance", suiteConfig, reporterConfig)
	// The JUnit report exists here when this process wrote it: alone, or as process 1 of a
	// parallel run (not under the ginkgo CLI's -p, which merges the processes' reports itself).
	if path := reporterConfig.JUnitReport; path != "" && fileExists(path) {
		if err := report.GroupJUnitByOperation(path); err != nil {
			fmt.Fprintln(os.Stderr, report.Warning("JUnit (grouped by operation)", path, err))
		}
	}
}

var (
	// run is the run's label filter and profile.
	run Run
	// files are the reports the run writes.
	files report.Files
)

// judge is the suite's fail handler. A reference spec checks one of our choices where the
// interface is silent: against a deployment other than the reference mock itself (a base URL),
// its failure is no verdict, so the spec is skipped as differing from the reference's choice,
// with the choice in words; a contract spec's failure fails the run.
func judge(message string, callerSkip ...int) {
	skip := 1
	if len(callerSkip) > 0 {
		skip += callerSkip[0]
	}
	if cfg.BaseURL != "" && slices.Contains(CurrentSpecReport().Labels(), LabelReference) {
		Skip(report.DiffersPrefix+message, skip)
	}
	Fail(message, skip)
}

// labelFilter is the run's label filter.
var labelFilter string

// checkPartialManifest accepts a manifest that lacks parts only when the label filter leaves
// out every operation whose specs use them; it returns what is missing.
func checkPartialManifest(m mf.Manifest) ([]string, error) {
	missing := mf.Check(m)
	if len(missing) == 0 {
		return nil, nil
	}
	var inRun []string
	for _, op := range Operations {
		if need := mf.MissingFor(op.ID, missing); len(need) > 0 && (Run{Filter: labelFilter}).Selects(op) {
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
	m, err := c.LoadManifest(ctx, target.BaseURL)
	must(err, "the fixture manifest must name what the suite acts on")
	_, err = checkPartialManifest(m)
	must(err, "the fixture manifest must name what the suite acts on")
	must(c.CheckLogins(ctx, target.BaseURL, m), "the fixture manifest's users must be able to log in")
	fmt.Fprintf(GinkgoWriter, "conformance target: %s (%s)\n", target.BaseURL, target.Kind)
	return []byte(target.BaseURL)
}, func(ctx SpecContext, base []byte) {
	var err error
	cfg, err = LoadConfig(os.Getenv)
	must(err, "read the environment")
	client, err = NewClient(ctx, string(base), cfg)
	must(err, "make the client")
	progress.watch()
	if sc, _ := GinkgoConfiguration(); sc.ParallelTotal > 1 {
		client.ShareLogins(sc.ParallelHost) // one login of a role at a time across the processes (D212)
	}
	client.Retrying = func(op string, wait time.Duration) {
		line := fmt.Sprintf("%s: 429, waiting Retry-After %s before trying again", op, wait)
		fmt.Fprintln(GinkgoWriter, line)
		if wait >= longWait { // a run that pauses this long says why as it happens
			fmt.Fprintln(os.Stderr, "conformance: "+line+" (the deployment's rate limit; against the mock, POST /__mock/reset between runs)")
		}
	}
	manifest, err = cfg.LoadManifest(ctx, string(base))
	must(err, "load the fixture manifest")
	missing = mf.Check(manifest)
	missingID = mf.AbsentID(manifest.Manifest)
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

// longWait is the wait on a 429 the suite tells the terminal about as it happens.
const longWait = 5 * time.Second

// The per-operation and per-aspect summary, on standard output and in the summary file
// (CONFORMANCE_SUMMARY, or summary.txt in CONFORMANCE_REPORTS). A file that cannot be written
// is a warning: the verdict is the specs'.
var _ = ReportAfterSuite("conformance summary", func(rep Report) {
	if rep.SuiteConfig.DryRun { // nothing was sent: no verdict, no summary, no reports of ours
		if rep.SuiteConfig.ParallelTotal == 1 {
			fmt.Printf("dry run: %d specs listed (their names with --ginkgo.v), nothing sent to any target; no verdict\n", rep.PreRunStats.SpecsThatWillRun)
		}
		return
	}
	if rep.PreRunStats.SpecsThatWillRun == 0 { // a typo in a filter must not pass as a verdict
		writeSummary(report.Summarize(rep, run)) // the reports say so, as CI publishes them
		writeHTML(rep)
		if run.ReadOnly && os.Getenv(EnvFlows) != "" {
			Fail(fmt.Sprintf("no spec was selected, so nothing was checked: the readonly profile leaves out every flow of %s that changes the target (a create, an update, a removal) or spends a rate window (a failed login; %s=1 runs those), and the label filter %q selects nothing else", EnvFlows, EnvAllowRateLimit, run.Base))
			return
		}
		Fail(fmt.Sprintf("no spec was selected, so nothing was checked: the label filter %q matches no spec (the labels are listed in conformance/README.md, \"Labels\"), or, for flow, %s names no flow file", rep.SuiteConfig.LabelFilter, EnvFlows))
		return
	}
	s := report.Summarize(rep, run)
	if rep.SuiteConfig.ParallelTotal == 1 {
		_ = s.Write(os.Stdout) // a parallel run's coordinating process prints it, last
	}
	if note := report.ThrottleNote(rep, 1); note != "" && rep.SuiteConfig.ParallelTotal == 1 {
		fmt.Fprintln(os.Stderr, note) // a parallel run's coordinating process says it, last
	}
	writeSummary(s)
	// Against the reference mock in process (go test ./conformance), every spec's effect labels
	// are held to the exchanges it made (D110), so the readonly profile can trust them.
	if client != nil && !rep.SuiteConfig.DryRun && cfg.BaseURL == "" && cfg.Image == "" {
		var problems []string
		for _, sr := range rep.SpecReports {
			if sr.LeafNodeType != types.NodeTypeIt || report.LeftOutByFilter(sr) {
				continue
			}
			for _, p := range report.EffectLabelProblems(sr.Labels(), sr.State, Records(sr)) {
				problems = append(problems, fmt.Sprintf("spec %q: %s", sr.FullText(), p))
			}
		}
		if len(problems) > 0 {
			Fail("effect labels that do not match what the specs sent (conformance/labels.go, the readonly profile's effect labels):\n" + strings.Join(problems, "\n"))
		}
	}
	writeHTML(rep)
})

// writeSummary writes the summary file (CONFORMANCE_SUMMARY, or summary.txt in
// CONFORMANCE_REPORTS); one that cannot be written is a warning: the verdict is the specs'.
func writeSummary(s report.Summary) {
	if path := files.Summary; path != "" {
		if warn := report.WriteFile("summary", path, s.Write); warn != "" {
			fmt.Fprintln(os.Stderr, warn)
		}
	}
}

// writeHTML writes the HTML report (CONFORMANCE_HTML, or conformance.html in CONFORMANCE_REPORTS).
func writeHTML(rep Report) {
	if path := files.HTML; path != "" {
		target := "(not started)"
		if client != nil {
			target = client.BaseURL()
		}
		h := report.BuildHTML(rep, run, target, time.Now())
		if warn := report.WriteFile("HTML", path, h.WriteHTML); warn != "" {
			fmt.Fprintln(os.Stderr, warn)
		}
	}
}

// bg is the context of requests made outside a spec's own context.
var bg = context.Background()

// must fails the setup with a plain message when err is not nil.
func must(err error, what string) {
	GinkgoHelper()
	if err != nil {
		Fail(fmt.Sprintf("%s: %s", what, err))
	}
}

// writeLostReports writes, from what the processes that reported sent, every report file of a
// parallel run that a lost process left empty: a CI system reading a 0-byte JUnit file, or an
// archived blank page, would know nothing of the run. When a process was lost (or the run was
// interrupted), every file is written again from the merged report, so each says why.
func writeLostReports(merged Report) {
	merged = report.Plain(merged)
	lost := len(merged.SpecialSuiteFailureReasons) > 0 // a lost process, or an interrupt
	empty := func(path string) bool {
		fi, err := os.Stat(path)
		return path != "" && (lost || err != nil || fi.Size() == 0)
	}
	warn := func(what, path string, err error) {
		if err != nil {
			fmt.Fprintln(os.Stderr, report.Warning(what, path, err))
		}
	}
	if empty(files.JSON) {
		warn("JSON", files.JSON, reporters.GenerateJSONReport(merged, files.JSON))
	}
	if empty(files.JUnit) {
		warn("JUnit", files.JUnit, reporters.GenerateJUnitReport(merged, files.JUnit))
		warn("JUnit (grouped by operation)", files.JUnit, report.GroupJUnitByOperation(files.JUnit))
	}
	if empty(files.Summary) {
		if w := report.WriteFile("summary", files.Summary, report.Summarize(merged, run).Write); w != "" {
			fmt.Fprintln(os.Stderr, w)
		}
	}
	if empty(files.HTML) {
		h := report.BuildHTML(merged, run, os.Getenv(EnvBaseURL), time.Now())
		if w := report.WriteFile("HTML", files.HTML, h.WriteHTML); w != "" {
			fmt.Fprintln(os.Stderr, w)
		}
	}
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
