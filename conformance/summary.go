package conformance

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/onsi/ginkgo/v2/types"
)

// Tally counts the specs of one row of the summary.
type Tally struct {
	Passed, Failed, Skipped int
}

func (t *Tally) add(state types.SpecState) {
	switch {
	case state == types.SpecStatePassed:
		t.Passed++
	case state.Is(types.SpecStateFailureStates):
		t.Failed++
	case state == types.SpecStateSkipped || state == types.SpecStatePending:
		t.Skipped++
	}
}

// Summary is the per-operation and per-aspect outcome of a run; specs the label filter left out
// are not counted.
type Summary struct {
	Profile     map[string]*Tally            // contract, reference
	ByOperation map[string]map[string]*Tally // op id -> aspect -> tally
	Failures    []string                     // full names of failed specs
	Skips       []string                     // full names of specs skipped with a reason, and the reason
	// Run is how the run was narrowed; LeftOut counts, per reason, the specs the readonly
	// profile left out (D110).
	Run     Run
	LeftOut map[string]int
}

// LeftOutByFilter reports whether the label filter or a focus left the spec out of the run.
func LeftOutByFilter(sr types.SpecReport) bool {
	return sr.State == types.SpecStateSkipped && sr.Failure.Message == "" && sr.RunTime == 0
}

// Summarize tallies the spec reports of a suite run.
func Summarize(report types.Report) Summary { return SummarizeRun(report, Run{}) }

// SummarizeRun tallies the spec reports of a suite run narrowed by run, counting what the
// readonly profile left out.
func SummarizeRun(report types.Report, run Run) Summary {
	s := Summary{Profile: map[string]*Tally{}, ByOperation: map[string]map[string]*Tally{}, Run: run, LeftOut: map[string]int{}}
	for _, sr := range report.SpecReports {
		if sr.LeafNodeType != types.NodeTypeIt || sr.State == types.SpecStateInvalid {
			continue
		}
		if LeftOutByFilter(sr) {
			// Left out by the label filter or focus: not part of this run; the readonly
			// profile says why it left a spec out.
			if why := run.LeftOutReason(sr.Labels()); why != "" {
				s.LeftOut[why]++
			}
			continue
		}
		labels := sr.Labels()
		op, aspect := LabelValue(labels, "op"), LabelValue(labels, "aspect")
		if op == "" {
			op = "(no operation)"
		}
		for _, l := range labels {
			if l == LabelContract || l == LabelReference {
				if s.Profile[l] == nil {
					s.Profile[l] = &Tally{}
				}
				s.Profile[l].add(sr.State)
			}
		}
		if s.ByOperation[op] == nil {
			s.ByOperation[op] = map[string]*Tally{}
		}
		if s.ByOperation[op][aspect] == nil {
			s.ByOperation[op][aspect] = &Tally{}
		}
		s.ByOperation[op][aspect].add(sr.State)
		if sr.State.Is(types.SpecStateFailureStates) {
			s.Failures = append(s.Failures, sr.FullText())
		}
		if sr.State == types.SpecStateSkipped && sr.Failure.Message != "" {
			s.Skips = append(s.Skips, sr.FullText()+": "+sr.Failure.Message)
		}
	}
	sort.Strings(s.Failures)
	sort.Strings(s.Skips)
	return s
}

// Verdict is an operation's verdict: FAIL when a spec failed, PARTIAL when a spec was skipped
// (the deployment was not judged on everything), PASS only when every spec passed.
func Verdict(t Tally) string {
	switch {
	case t.Failed > 0:
		return "FAIL"
	case t.Skipped > 0 || t.Passed == 0:
		return "PARTIAL"
	}
	return "PASS"
}

func (t Tally) String() string {
	if t.Passed+t.Failed+t.Skipped == 0 {
		return "-"
	}
	return fmt.Sprintf("%d/%d/%d", t.Passed, t.Failed, t.Skipped)
}

// Write renders the summary as a plain-text table: one row per operation (interface order), one
// column per aspect, each cell passed/failed/skipped.
func (s Summary) Write(w io.Writer) error {
	var b strings.Builder
	b.WriteString("Conformance summary (cells: passed/failed/skipped)\n")
	for _, p := range []string{LabelContract, LabelReference} {
		if t := s.Profile[p]; t != nil {
			fmt.Fprintf(&b, "  %-9s %d passed, %d failed, %d skipped\n", p, t.Passed, t.Failed, t.Skipped)
		}
	}
	fmt.Fprintf(&b, "\n%-24s %-9s", "operation", "verdict")
	for _, a := range Aspects {
		fmt.Fprintf(&b, " %-10s", a)
	}
	b.WriteString("\n")
	ids := make([]string, 0, len(Operations)+1)
	for _, op := range Operations {
		ids = append(ids, op.ID)
	}
	if _, ok := s.ByOperation["(no operation)"]; ok {
		ids = append(ids, "(no operation)")
	}
	for _, id := range ids {
		row := s.ByOperation[id]
		if row == nil {
			continue
		}
		var total Tally
		for _, t := range row {
			total.Passed += t.Passed
			total.Failed += t.Failed
			total.Skipped += t.Skipped
		}
		verdict := Verdict(total)
		fmt.Fprintf(&b, "%-24s %-9s", id, verdict)
		for _, a := range Aspects {
			t := Tally{}
			if row[a] != nil {
				t = *row[a]
			}
			fmt.Fprintf(&b, " %-10s", t.String())
		}
		b.WriteString("\n")
	}
	if len(s.Failures) > 0 {
		b.WriteString("\nFailed specs:\n")
		for _, f := range s.Failures {
			fmt.Fprintf(&b, "  - %s\n", f)
		}
	}
	if len(s.Skips) > 0 {
		b.WriteString("\nSkipped specs (an operation with skipped specs is PARTIAL, not PASS):\n")
		for _, f := range s.Skips {
			fmt.Fprintf(&b, "  - %s\n", f)
		}
	}
	if s.Run.ReadOnly {
		fmt.Fprintf(&b, "\nLeft out by the readonly profile (%s):\n", s.Run)
		if len(s.LeftOut) == 0 {
			b.WriteString("  nothing\n")
		}
		for _, why := range s.LeftOutReasons() {
			fmt.Fprintf(&b, "  %4d  %s\n", s.LeftOut[why], why)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// LeftOutReasons lists the reasons of LeftOut, sorted.
func (s Summary) LeftOutReasons() []string {
	out := make([]string, 0, len(s.LeftOut))
	for why := range s.LeftOut {
		out = append(out, why)
	}
	sort.Strings(out)
	return out
}
