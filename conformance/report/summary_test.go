package report_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/report"
)

func TestVerdictIsNeverPassWithSkippedSpecs(t *testing.T) {
	for _, c := range []struct {
		t    report.Tally
		want string
	}{
		{report.Tally{Passed: 3}, "PASS"},
		{report.Tally{Passed: 3, Skipped: 1}, "PARTIAL"},
		{report.Tally{Skipped: 2}, "PARTIAL"},
		{report.Tally{Passed: 3, Failed: 1, Skipped: 1}, "FAIL"},
	} {
		if got := report.Verdict(c.t); got != c.want {
			t.Errorf("Verdict(%+v) = %s, want %s", c.t, got, c.want)
		}
	}
}

func TestGroupJUnitByOperation(t *testing.T) {
	path := filepath.Join(t.TempDir(), "junit.xml")
	in := `<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="5" disabled="2"><testsuite name="Conformance" tests="5" skipped="2">
<testcase name="[It] Domain registration area domainCartRemove removes an item [contract, op:domainCartRemove, area:domains]" classname="Conformance" status="passed" time="0.1"></testcase>
<testcase name="[It] Tags area tagsList answers 401 [contract, op:tagsList]" classname="Conformance" status="skipped" time="0"><skipped message="skipped"></skipped></testcase>
<testcase name="[It] Tags area tagsCreate spends a window [contract, op:tagsCreate]" classname="Conformance" status="skipped" time="0"><skipped message="skipped - the window is spent"></skipped></testcase>
<testcase name="[SynchronizedBeforeSuite]" classname="Conformance" status="passed" time="0"></testcase>
<testcase name="[It] Recorded flows replays checkout (checkout.json) [flow, effect:write]" classname="Conformance" status="passed" time="0.1"></testcase>
<testcase name="[It] Operations area commentsList pages [contract, op:commentsList]" classname="Conformance" status="failed" time="0.1"><failure message="rule PAGE-1 is broken: total_pages 2" type="failed">rule PAGE-1 is broken: total_pages 2, want 3</failure></testcase>
</testsuite></testsuites>`
	if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := report.GroupJUnitByOperation(path); err != nil {
		t.Fatal(err)
	}
	out, _ := os.ReadFile(path)
	if !strings.Contains(string(out), `classname="domainCartRemove"`) || !strings.Contains(string(out), `classname="Conformance"`) || !strings.Contains(string(out), `classname="flow"`) {
		t.Errorf("classnames not grouped by operation:\n%s", out)
	}
	if !strings.Contains(string(out), `type="rule PAGE-1"`) {
		t.Errorf("a failure's type does not name the rule it cites:\n%s", out)
	}
	if strings.Contains(string(out), "answers 401") || !strings.Contains(string(out), "the window is spent") ||
		!strings.Contains(string(out), `<testsuites tests="4" disabled="1"`) || !strings.Contains(string(out), `tests="4" disabled="0" skipped="1"`) {
		t.Errorf("want the filtered-out spec dropped and counted out, the spec skipped for a reason kept:\n%s", out)
	}
}

func TestReportFiles(t *testing.T) {
	f := report.Resolve(conformance.Config{ReportsDir: "/reports", HTMLFile: "x.html"}, "", "my.json")
	want := report.Files{JUnit: "/reports/junit.xml", JSON: "my.json", HTML: "x.html", Summary: "/reports/summary.txt"}
	if f != want {
		t.Errorf("Resolve = %+v, want %+v", f, want)
	}
	if err := report.CheckWritable("/dev/null/report.xml"); err == nil {
		t.Errorf("CheckWritable of a path under a file succeeded")
	}
	if w := report.WriteFile("HTML", "/dev/null/report.html", nil); w == "" {
		t.Errorf("WriteFile to a path that cannot be created gave no warning")
	}
}

// A report path that is a FIFO (no reader) or a device is refused when the run starts, not
// opened: the open blocked, and the run never ended after its specs passed.
func TestReportPathMustBeARegularFile(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "report.html")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, path := range []string{fifo, "/dev/null"} {
		if err := report.Prepare(path); err == nil {
			t.Errorf("Prepare(%s) succeeded", path)
		}
	}
	if err := report.Prepare(filepath.Join(t.TempDir(), "new", "r.html")); err != nil {
		t.Errorf("Prepare of a new file in a new folder: %v", err)
	}
}

// An interrupted run (a signal, a CI timeout) says so: the specs it never ran or cut off are
// counted as not run, never as the deployment's failures, and an operation they belong to is
// NOT RUN, not PASS.
func TestInterruptedRunIsReportedAsSuch(t *testing.T) {
	labels := func(op string) []string { return []string{"contract", "op:" + op, "aspect:auth"} }
	spec := func(op string, state types.SpecState, runTime time.Duration) types.SpecReport {
		return types.SpecReport{LeafNodeType: types.NodeTypeIt, LeafNodeText: op, LeafNodeLabels: labels(op), State: state, RunTime: runTime}
	}
	rep := types.Report{
		SuiteConfig:                types.SuiteConfig{LabelFilter: "contract"},
		SpecialSuiteFailureReasons: []string{"Interrupted by User"},
		SpecReports: []types.SpecReport{
			spec("tagsList", types.SpecStatePassed, time.Millisecond),
			spec("tagsList", types.SpecStateSkipped, 0),                     // never run
			spec("cardsList", types.SpecStateInterrupted, time.Millisecond), // cut off
		},
	}
	s := report.Summarize(rep, conformance.Run{})
	var b strings.Builder
	_ = s.Write(&b)
	out := b.String()
	if !strings.Contains(out, "INTERRUPTED") || !strings.Contains(out, "2 not run") || strings.Contains(out, "Failed specs") {
		t.Errorf("summary of an interrupted run:\n%s", out)
	}
	for _, r := range s.Rows() {
		if (r.Op == "tagsList" || r.Op == "cardsList") && r.Verdict != "NOT RUN" {
			t.Errorf("%s: verdict %s, want NOT RUN", r.Op, r.Verdict)
		}
	}
}

// A parallel run whose process was lost counts the specs never heard of, and no operation is
// PASS: its specs may be among them.
func TestLostProcessLeavesNoOperationPass(t *testing.T) {
	rep := types.Report{
		SpecialSuiteFailureReasons: []string{"Interrupted: a parallel process ended before reporting"},
		PreRunStats:                types.PreRunStats{SpecsThatWillRun: 5},
		SpecReports: []types.SpecReport{
			{LeafNodeType: types.NodeTypeIt, LeafNodeLabels: []string{"contract", "op:tagsList", "aspect:auth"}, State: types.SpecStatePassed, RunTime: time.Millisecond},
		},
	}
	s := report.Summarize(rep, conformance.Run{})
	if s.Unreported != 4 {
		t.Errorf("unreported %d, want 4", s.Unreported)
	}
	for _, r := range s.Rows() {
		if r.Verdict == "PASS" {
			t.Errorf("%s is PASS though a process's specs never reported", r.Op)
		}
	}
}

// A run a spec aborted (the deployment stopped answering) says so, and the specs it never ran
// leave their operations NOT RUN, not PASS.
func TestAbortedRunIsReportedAsSuch(t *testing.T) {
	spec := func(op string, state types.SpecState, msg string, runTime time.Duration) types.SpecReport {
		sr := types.SpecReport{LeafNodeType: types.NodeTypeIt, LeafNodeLabels: []string{"contract", "op:" + op, "aspect:auth"}, State: state, RunTime: runTime}
		sr.Failure.Message = msg
		return sr
	}
	rep := types.Report{
		SuiteConfig: types.SuiteConfig{LabelFilter: "contract"},
		// A parallel run: the other processes say only that one of them ended the run.
		SpecialSuiteFailureReasons: []string{"Interrupted by Other Ginkgo Process"},
		SpecReports: []types.SpecReport{
			spec("cardsList", types.SpecStateAborted, "the deployment stopped answering: …", time.Second),
			spec("tagsList", types.SpecStatePassed, "", time.Millisecond),
			spec("tagsList", types.SpecStateSkipped, "", 0),
		},
	}
	s := report.Summarize(rep, conformance.Run{})
	var b strings.Builder
	_ = s.Write(&b)
	if !strings.Contains(b.String(), "INTERRUPTED (aborted: the deployment stopped answering") {
		t.Errorf("summary of an aborted run:\n%s", b.String())
	}
	for _, r := range s.Rows() {
		if (r.Op == "tagsList" || r.Op == "cardsList") && r.Verdict == "FAIL" {
			t.Errorf("%s: %s; the run's abort is no failure of an operation", r.Op, r.Verdict)
		}
		if r.Op == "tagsList" && r.Verdict != "NOT RUN" {
			t.Errorf("tagsList: %s, want NOT RUN", r.Verdict)
		}
	}
	if c := s.Profile["contract"]; c != nil && c.Failed != 0 {
		t.Errorf("contract: %d failed, want the aborting spec not counted as a failure", c.Failed)
	}
}

// A run whose setup failed before any spec (the manifest could not be read) says so: the
// summary held a title and an empty table, the HTML "Failures (0)".
func TestSetupFailureIsReportedAsSuch(t *testing.T) {
	setup := types.SpecReport{LeafNodeType: types.NodeTypeSynchronizedBeforeSuite, State: types.SpecStateFailed}
	setup.Failure.Message = "the manifest could not be read: GET …/__mock/fixtures answered 502"
	rep := types.Report{
		SuiteConfig: types.SuiteConfig{LabelFilter: "contract"},
		SpecReports: []types.SpecReport{setup,
			{LeafNodeType: types.NodeTypeIt, LeafNodeLabels: []string{"contract", "op:tagsList", "aspect:auth"}, State: types.SpecStateSkipped}},
	}
	s := report.Summarize(rep, conformance.Run{})
	var b strings.Builder
	_ = s.Write(&b)
	if !strings.Contains(b.String(), "setup failed: the manifest could not be read") {
		t.Errorf("summary of a run whose setup failed:\n%s", b.String())
	}
}

// A run whose label filter selects no spec says so in its summary and its HTML report, which
// CI publishes: they read as an empty clean run (a table header, "Failures (0) None"), and the
// reason was only on the terminal and in the JUnit file.
func TestRunSelectingNoSpecSaysSo(t *testing.T) {
	rep := types.Report{
		SuiteConfig: types.SuiteConfig{LabelFilter: "op:tagList"},
		SpecReports: []types.SpecReport{{LeafNodeType: types.NodeTypeIt, LeafNodeLabels: []string{"contract", "op:tagsList", "aspect:auth"}, State: types.SpecStateSkipped}},
	}
	s := report.Summarize(rep, conformance.Run{})
	var b strings.Builder
	_ = s.Write(&b)
	if !strings.Contains(b.String(), `NOTHING CHECKED`) || !strings.Contains(b.String(), `"op:tagList" matches no spec`) {
		t.Errorf("summary of a run selecting no spec:\n%s", b.String())
	}
	var h strings.Builder
	if err := report.BuildHTML(rep, conformance.Run{}, "http://deployment", time.Now()).WriteHTML(&h); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(h.String(), "NOTHING CHECKED") {
		t.Error("the HTML report of a run selecting no spec does not say so")
	}
}

// The summary names the rules the failures cite, the most failed first: the table's cells are
// the aspects of the specs that saw a broken rule, which may be far from it (PAGE-1 broken by a
// comments page, seen by a not-found spec that read one).
func TestSummaryNamesTheBrokenRules(t *testing.T) {
	failed := func(op, aspect, msg string) types.SpecReport {
		return types.SpecReport{LeafNodeType: types.NodeTypeIt, LeafNodeText: op, LeafNodeLabels: []string{"contract", "op:" + op, "aspect:" + aspect},
			State: types.SpecStateFailed, RunTime: time.Millisecond, Failure: types.Failure{Message: msg}}
	}
	rep := types.Report{SuiteConfig: types.SuiteConfig{LabelFilter: "contract"}, SpecReports: []types.SpecReport{
		failed("commentsCreate", "notfound", "rule PAGE-1 is broken: total_pages 2, want 3"),
		failed("commentsList", "validation", "rule PAGE-1 is broken: total_pages 1, want 2"),
		failed("cardsUpdate", "notfound", "rule ERR-8 (conformance/rules.md): A record that exists is found"),
	}}
	var b strings.Builder
	_ = report.Summarize(rep, conformance.Run{}).Write(&b)
	if !strings.Contains(b.String(), "broken    rule PAGE-1 (2 specs), rule ERR-8 (1 spec)") {
		t.Errorf("the summary does not name the broken rules:\n%s", b.String())
	}
}
