package report

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// Tally counts the specs of one row of the summary.
type Tally struct {
	Passed, Failed, Skipped int
	// NotRun counts the specs an interrupted run never ran or cut off (a signal, a CI timeout):
	// they judged nothing.
	NotRun int
	// Differed counts reference specs whose target made another choice than the reference's
	// (skipped with DiffersPrefix); LeftOut the specs the readonly profile left out (D110).
	Differed, LeftOut int
}

// DiffersPrefix opens the message of a reference spec whose target chose otherwise than the
// reference where the interface is silent: the spec is skipped, not failed, since reference
// specs never judge conformance.
const DiffersPrefix = "differs from the reference's choice: "

func (t *Tally) add(sr types.SpecReport) {
	switch state := sr.State; {
	case cutOff(sr):
		t.NotRun++
	case state == types.SpecStatePassed:
		t.Passed++
	case state.Is(types.SpecStateFailureStates):
		t.Failed++
	case state == types.SpecStateSkipped && strings.HasPrefix(sr.Failure.Message, DiffersPrefix):
		t.Differed++
	case state == types.SpecStateSkipped || state == types.SpecStatePending:
		t.Skipped++
	}
}

func (t *Tally) plus(u Tally) {
	t.Passed += u.Passed
	t.Failed += u.Failed
	t.Skipped += u.Skipped
	t.Differed += u.Differed
	t.LeftOut += u.LeftOut
	t.NotRun += u.NotRun
}

// notRun counts the specs the interrupted run did not run.
func (s Summary) notRun() int {
	n := 0
	for _, t := range s.Profile {
		n += t.NotRun
	}
	return n
}

// inFilter tells whether a spec of labels is one the run's label filter takes (a spec skipped
// with no message and no time is then one an interrupt kept from running, not one left out).
func inFilter(report types.Report, labels []string) bool {
	f := report.SuiteConfig.LabelFilter
	if f == "" {
		return true
	}
	match, err := types.ParseLabelFilter(f)
	return err == nil && match(labels)
}

// cutOff tells a spec an interrupt stopped or kept from running: not run, never a failure. The
// spec that ended the run (AbortSuite: the deployment stopped answering, or refuses everything
// with 429) is one too: the cause is the run's, named in its INTERRUPTED line, not the
// operation the spec happened to be sending (an all-429 deployment showed whichever operation
// was running then as FAIL, citing no rule).
func cutOff(sr types.SpecReport) bool {
	return sr.State == types.SpecStateInterrupted || sr.State == types.SpecStateAborted
}

// interruptedMessage tells the message Ginkgo gives a spec a signal or a timeout stopped.
func interruptedMessage(msg string) bool { return strings.Contains(msg, "nterrupted") }

// Summary is the per-operation and per-aspect outcome of a run; specs the label filter left out
// are not counted, except those the readonly profile left out (LeftOut).
type Summary struct {
	Profile     map[string]*Tally            // contract, reference
	ByOperation map[string]map[string]*Tally // op id -> aspect -> tally
	Failures    []string                     // full names of failed specs
	// Broken counts, per rule a failure message cites as broken, the specs that failed on it:
	// the rules to read, where the table's cells are the aspects of the specs that saw them.
	Broken  map[rules.ID]int
	Skips   []string // full names of specs skipped with a reason, and the reason
	Differs []string // reference specs the target chose otherwise on, and the choice
	// Explore says what explore mode did: off, or its counts.
	Explore string
	// No429 lists the operations whose rate-limit specs passed without a 429 answer: only the
	// rate-limit headers were checked.
	No429 []string
	// Run is how the run was narrowed; LeftOut counts, per reason, the specs the readonly
	// profile left out (D110).
	Run     conformance.Run
	LeftOut map[string]int
	// Interrupted says why the run stopped before its end ("" when it ran whole): its
	// reports judge only the specs that ran.
	Interrupted string
	// NothingRan says why no spec ran ("" when one did): a label filter that matches none.
	NothingRan string
	// Unreported counts the specs the run meant to run of which no report came (a parallel
	// process lost): no operation is PASS then, since their specs may be among them.
	Unreported int
}

// anySpecRan tells whether a spec of the report ran (a merged report of parallel processes
// may carry no pre-run counts).
func anySpecRan(report types.Report) bool {
	for _, sr := range report.SpecReports {
		if sr.LeafNodeType == types.NodeTypeIt && !LeftOutByFilter(sr) {
			return true
		}
	}
	return false
}

// LeftOutByFilter reports whether the label filter or a focus left the spec out of the run.
func LeftOutByFilter(sr types.SpecReport) bool {
	return sr.State == types.SpecStateSkipped && sr.Failure.Message == "" && sr.RunTime == 0
}

// ReportEntryExploreOp names the report entry the explore spec adds when a case broke a
// property: the operation of the case's last call, so the failure lands on its operation.
const ReportEntryExploreOp = "explore-op"

// ReportEntryChargedOp names the report entry a spec adds when it fails on another operation's
// request (a login it needed got no answer): the failure lands on that operation's row.
const ReportEntryChargedOp = "charged-op"

// Summarize tallies the spec reports of a suite run narrowed by run, counting what the
// readonly profile left out.
func Summarize(report types.Report, run conformance.Run) Summary {
	s := Summary{Profile: map[string]*Tally{}, ByOperation: map[string]map[string]*Tally{}, Run: run, LeftOut: map[string]int{}}
	if report.PreRunStats.SpecsThatWillRun == 0 && !report.SuiteConfig.DryRun && !anySpecRan(report) {
		s.NothingRan = fmt.Sprintf("no spec was selected, so nothing was checked: the label filter %q matches no spec", report.SuiteConfig.LabelFilter)
	}
	for _, sr := range report.SpecReports { // a spec that ended the run (AbortSuite): the rest never ran
		if sr.State == types.SpecStateAborted && s.Interrupted == "" {
			s.Interrupted = "aborted: " + firstLine(sr.Failure.Message)
		}
	}
	for _, sr := range report.SpecReports {
		// The run's setup (reading the manifest, logging in) failed before any spec: no spec
		// ran, and the summary said nothing, with no failure counted.
		if sr.LeafNodeType.Is(types.NodeTypeBeforeSuite|types.NodeTypeSynchronizedBeforeSuite) && sr.State.Is(types.SpecStateFailureStates) && s.Interrupted == "" {
			s.Interrupted = "the run's setup failed: " + firstLine(sr.Failure.Message)
		}
	}
	for _, why := range report.SpecialSuiteFailureReasons {
		// The spec's reason first: in a parallel run the other processes say only "Interrupted
		// by Other Ginkgo Process", which named no cause when it came first.
		if interruptedMessage(why) && s.Interrupted == "" {
			s.Interrupted = why
		}
	}
	if s.Interrupted != "" {
		ran := 0
		for _, sr := range report.SpecReports {
			if sr.LeafNodeType == types.NodeTypeIt && !LeftOutByFilter(sr) {
				ran++
			}
		}
		s.Unreported = max(report.PreRunStats.SpecsThatWillRun-ran, 0)
	}
	got429 := map[string]bool{}
	for _, sr := range report.SpecReports {
		if sr.LeafNodeType != types.NodeTypeIt || sr.State == types.SpecStateInvalid {
			continue
		}
		labels := sr.Labels()
		op, aspect := LabelValue(labels, "op"), LabelValue(labels, "aspect")
		if charged := entryValue(sr, ReportEntryChargedOp); charged != "" && sr.State.Is(types.SpecStateFailureStates) {
			op = charged
		}
		if s.Interrupted != "" && LeftOutByFilter(sr) && inFilter(report, labels) {
			sr.State = types.SpecStateInterrupted // never run: the run stopped before it
		}
		if LeftOutByFilter(sr) {
			// Left out by the label filter or focus: not part of this run; the readonly
			// profile says why it left a spec out, and the operation was not judged on it.
			if why := run.LeftOutReason(labels); why != "" {
				s.LeftOut[why]++
				switch {
				case op != "":
					s.tally(op, aspect).LeftOut++
				case slices.Contains(labels, conformance.LabelFlow):
					s.tally(FlowsRow, aspect).LeftOut++ // a flow left out leaves the flows' row PARTIAL
				}
			}
			continue
		}
		if slices.Contains(labels, conformance.LabelExplore) {
			if op = s.explore(sr); op == "" {
				if sr.State == types.SpecStatePassed {
					s.profile(sr, labels) // it ran: a contract spec that passed, on no row
				}
				continue
			}
			aspect = conformance.LabelExplore
		}
		for _, rec := range conformance.Records(sr) {
			if rec.Status == 429 {
				got429[rec.Op] = true
			}
		}
		s.count(sr, labels, op, aspect)
	}
	for op, row := range s.ByOperation {
		// Only a cell that passed says HEADERS ONLY: one whose window specs did not run (an
		// interrupted run) is NOT RUN, and the note named it as if they had passed.
		if t := row[conformance.AspectRateLimit]; t != nil && t.Passed > 0 && !got429[op] && Verdict(*t) == "PASS" {
			s.No429 = append(s.No429, op)
		}
	}
	for _, l := range [][]string{s.Failures, s.Skips, s.Differs, s.No429} {
		sort.Strings(l)
	}
	return s
}

// tally is the tally of op and aspect, made when missing.
func (s *Summary) tally(op, aspect string) *Tally {
	if s.ByOperation[op] == nil {
		s.ByOperation[op] = map[string]*Tally{}
	}
	if s.ByOperation[op][aspect] == nil {
		s.ByOperation[op][aspect] = &Tally{}
	}
	return s.ByOperation[op][aspect]
}

// count adds one spec that ran to the tallies and lists.
func (s *Summary) count(sr types.SpecReport, labels []string, op, aspect string) {
	switch {
	case op == "" && slices.Contains(labels, conformance.LabelFlow):
		op = FlowsRow
	case op == "":
		op = NoOperation
	}
	s.profile(sr, labels)
	s.tally(op, aspect).add(sr)
	msg := sr.Failure.Message
	switch {
	case cutOff(sr):
	case sr.State.Is(types.SpecStateFailureStates):
		s.Failures = append(s.Failures, sr.FullText())
		for _, r := range specOf(sr).Broken {
			if s.Broken == nil {
				s.Broken = map[rules.ID]int{}
			}
			s.Broken[r.ID]++
		}
	case sr.State == types.SpecStateSkipped && strings.HasPrefix(msg, DiffersPrefix):
		s.Differs = append(s.Differs, sr.FullText()+": "+firstLine(strings.TrimPrefix(msg, DiffersPrefix)))
	case sr.State == types.SpecStateSkipped && msg != "":
		s.Skips = append(s.Skips, sr.FullText()+": "+msg)
	}
}

// profile counts sr in the tally of its profile (contract or reference).
func (s *Summary) profile(sr types.SpecReport, labels []string) {
	for _, l := range labels {
		if l == conformance.LabelContract || l == conformance.LabelReference {
			if s.Profile[l] == nil {
				s.Profile[l] = &Tally{}
			}
			s.Profile[l].add(sr)
		}
	}
}

// explore reads the explore spec: off (skipped) or passed, it is a line of its own and no
// operation's row (""); a failure lands on the operation of the failing case's last call.
func (s *Summary) explore(sr types.SpecReport) string {
	switch {
	case cutOff(sr):
		s.Explore = "not run to its end: the run was interrupted"
		s.profile(sr, sr.Labels())
		return ""
	case sr.State == types.SpecStateSkipped:
		s.Explore = sr.Failure.Message
		return ""
	case sr.State == types.SpecStatePassed:
		s.Explore = "passed"
		for _, e := range sr.ReportEntries {
			if e.Name == "explore" {
				s.Explore = "passed: " + firstLine(e.StringRepresentation())
			}
		}
		return ""
	}
	s.Explore = "a generated case broke a property (see the failed specs)"
	if op := entryValue(sr, ReportEntryExploreOp); op != "" {
		return op
	}
	return NoOperation
}

// entryValue is the text of sr's report entry name ("" when it has none).
func entryValue(sr types.SpecReport, name string) string {
	for _, e := range sr.ReportEntries {
		if e.Name == name {
			return strings.Trim(e.StringRepresentation(), `"`)
		}
	}
	return ""
}

// FlowsRow is the row of the replayed flows (CONFORMANCE_FLOWS).
const FlowsRow = "(recorded flows)"

// NoOperation is the row of specs that belong to no operation.
const NoOperation = "(no operation)"

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// Verdict is an operation's verdict: NOT RUN when, no spec failing, an interrupted run left some
// of its specs unrun; FAIL when a spec failed; DIFFERS when, no spec failing, the
// target chose otherwise than the reference where the interface is silent; PARTIAL when a spec
// was skipped or left out (the deployment was not judged on everything); PASS only when every
// spec of the operation ran and passed.
func Verdict(t Tally) string {
	switch {
	case t.NotRun > 0 && t.Failed == 0:
		return "NOT RUN"
	case t.Failed > 0:
		return "FAIL"
	case t.Differed > 0:
		return "DIFFERS"
	case t.Skipped > 0 || t.LeftOut > 0 || t.Passed == 0:
		return "PARTIAL"
	}
	return "PASS"
}

func (t Tally) String() string {
	if t.Passed+t.Failed+t.Skipped+t.Differed == 0 {
		return "-"
	}
	if t.Differed > 0 {
		return fmt.Sprintf("%d/%d/%d/%d", t.Passed, t.Failed, t.Skipped, t.Differed)
	}
	return fmt.Sprintf("%d/%d/%d", t.Passed, t.Failed, t.Skipped)
}

// headersOnly is the verdict of a rate-limit cell that passed without a 429 (D151).
const headersOnly = "HEADERS ONLY"

// Row is one operation's outcome: its verdict over every aspect, and a cell per Aspects.
type Row struct {
	Op      string
	Verdict string
	Total   Tally
	Cells   []Tally // one per conformance.Aspects
	// CellVerdicts are the cells' verdicts ("" for no spec): a rate-limit cell that passed
	// without a 429 is HEADERS ONLY, not PASS.
	CellVerdicts []string
}

// Rows are the operations the run judged, in interface order, then the specs of no operation.
func (s Summary) Rows() []Row {
	ids := make([]string, 0, len(conformance.Operations)+1)
	for _, op := range conformance.Operations {
		ids = append(ids, op.ID)
	}
	ids = append(ids, FlowsRow, NoOperation)
	var rows []Row
	for _, id := range ids {
		row := s.ByOperation[id]
		if row == nil {
			continue
		}
		r := Row{Op: id}
		for _, t := range row {
			r.Total.plus(*t)
		}
		for _, a := range conformance.Aspects {
			c := Tally{}
			if row[a] != nil {
				c = *row[a]
			}
			v := ""
			if c.String() != "-" {
				v = Verdict(c)
			}
			if v == "PASS" && a == conformance.AspectRateLimit && slices.Contains(s.No429, id) {
				v = headersOnly
			}
			r.Cells, r.CellVerdicts = append(r.Cells, c), append(r.CellVerdicts, v)
		}
		if r.Total.Passed+r.Total.Failed+r.Total.Skipped+r.Total.Differed+r.Total.LeftOut == 0 {
			continue
		}
		// An operation whose every spec the readonly profile left out keeps its row, PARTIAL:
		// left out of the table, one of the 24 went unchecked without a line saying so.
		r.Verdict = Verdict(r.Total)
		if r.Verdict == "PASS" && s.Unreported > 0 {
			r.Verdict = "PARTIAL" // some specs of the run never reported: this operation's may be among them
		}
		rows = append(rows, r)
	}
	return rows
}

// Write renders the summary as plain text: the profiles' counts, one row per operation
// (interface order) with one column per aspect, each cell passed/failed/skipped (and
// /differed when a reference spec found another choice), then the lists.
func (s Summary) Write(w io.Writer) error {
	var b strings.Builder
	b.WriteString("Conformance summary (cells: passed/failed/skipped[/differs from the reference's choice])\n")
	if s.NothingRan != "" {
		fmt.Fprintf(&b, "  NOTHING CHECKED (%s)\n", s.NothingRan)
	}
	if s.Interrupted != "" {
		fmt.Fprintf(&b, "  INTERRUPTED (%s): %d specs did not run or were cut off", s.Interrupted, s.notRun())
		if s.Unreported > 0 {
			fmt.Fprintf(&b, ", %d never reported", s.Unreported)
		}
		b.WriteString("; the verdicts judge only what ran\n")
	}
	for _, p := range []string{conformance.LabelContract, conformance.LabelReference} {
		if t := s.Profile[p]; t != nil {
			fmt.Fprintf(&b, "  %-9s %d passed, %d failed, %d skipped", p, t.Passed, t.Failed, t.Skipped)
			if t.NotRun > 0 {
				fmt.Fprintf(&b, ", %d not run (the run was interrupted)", t.NotRun)
			}
			if t.Differed > 0 {
				fmt.Fprintf(&b, ", %d differ from the reference's choice (not a failure: the interface leaves it open)", t.Differed)
			}
			b.WriteString("\n")
		}
	}
	if s.Explore != "" {
		fmt.Fprintf(&b, "  explore   %s\n", s.Explore)
	}
	if line := s.brokenLine(); line != "" {
		fmt.Fprintf(&b, "  broken    %s (conformance/rules.md states each)\n", line)
	}
	fmt.Fprintf(&b, "\n%-24s %-9s", "operation", "verdict")
	for _, a := range conformance.Aspects {
		fmt.Fprintf(&b, " %-10s", a)
	}
	b.WriteString("\n")
	for _, r := range s.Rows() {
		fmt.Fprintf(&b, "%-24s %-9s", r.Op, r.Verdict)
		for i, c := range r.Cells {
			cell := c.String()
			if r.CellVerdicts[i] == headersOnly {
				cell += "*" // the note under the table says what the mark means
			}
			fmt.Fprintf(&b, " %-10s", cell)
		}
		if r.Total.LeftOut > 0 {
			fmt.Fprintf(&b, " (%d specs left out)", r.Total.LeftOut)
		}
		b.WriteString("\n")
	}
	s.writeNotes(&b)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeNotes writes what qualifies the table: failures, choices that differ, skips, rate limits
// never reached and what the readonly profile left out.
func (s Summary) writeNotes(b *strings.Builder) {
	list := func(title string, items []string) {
		if len(items) == 0 {
			return
		}
		fmt.Fprintf(b, "\n%s:\n", title)
		for _, f := range items {
			fmt.Fprintf(b, "  - %s\n", f)
		}
	}
	list("Failed specs", s.Failures)
	list("Differs from the reference's choice (where the interface is silent; never a failure)", s.Differs)
	list("Skipped specs (an operation with skipped specs is PARTIAL, not PASS)", s.Skips)
	if len(s.No429) > 0 {
		fmt.Fprintf(b, "\n* HEADERS ONLY: no 429 was received for %s, so their ratelimit cells (marked *) checked the rate-limit headers only.\n", strings.Join(s.No429, ", "))
	}
	if s.Run.ReadOnly {
		fmt.Fprintf(b, "\nLeft out by the readonly profile (%s; an operation with specs left out is PARTIAL, not PASS):\n", s.Run)
		if len(s.LeftOut) == 0 {
			b.WriteString("  nothing\n")
		}
		for _, why := range s.LeftOutReasons() {
			fmt.Fprintf(b, "  %4d  %s\n", s.LeftOut[why], why)
		}
	}
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

// brokenLine lists the rules failures cite, the most failed first: "PAGE-1 (17 specs), ERR-8
// (1 spec)".
func (s Summary) brokenLine() string {
	ids := make([]rules.ID, 0, len(s.Broken))
	for id := range s.Broken {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b rules.ID) int {
		if c := s.Broken[b] - s.Broken[a]; c != 0 {
			return c
		}
		return strings.Compare(string(a), string(b))
	})
	parts := make([]string, len(ids))
	for i, id := range ids {
		word := "specs"
		if s.Broken[id] == 1 {
			word = "spec"
		}
		parts[i] = fmt.Sprintf("rule %s (%d %s)", id, s.Broken[id], word)
	}
	return strings.Join(parts, ", ")
}
