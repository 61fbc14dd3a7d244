package report_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/report"
)

// spec makes the report of one spec that ran (or, with state skipped, no message and no run
// time, one the label filter left out).
func spec(state types.SpecState, msg string, labels ...string) types.SpecReport {
	sr := types.SpecReport{LeafNodeType: types.NodeTypeIt, LeafNodeText: strings.Join(labels, " "), LeafNodeLabels: labels, State: state, RunTime: time.Millisecond}
	sr.Failure.Message = msg
	if state == types.SpecStateSkipped && msg == "" {
		sr.RunTime = 0
	}
	return sr
}

func withEntry(sr types.SpecReport, name string, v any) types.SpecReport {
	sr.ReportEntries = append(sr.ReportEntries, types.ReportEntry{Name: name, Value: types.WrapEntryValue(v)})
	return sr
}

func render(t *testing.T, rep types.Report, run conformance.Run) (string, string) {
	t.Helper()
	var text, page bytes.Buffer
	if err := report.Summarize(rep, run).Write(&text); err != nil {
		t.Fatal(err)
	}
	if err := report.BuildHTML(rep, run, "http://target", time.Now()).WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	return text.String(), page.String()
}

func row(text, op string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, op+" ") {
			return l
		}
	}
	return ""
}

// A clean run with explore mode off shows no "(no operation)" row and counts no skipped
// contract spec: it says explore mode is off.
func TestExploreOffIsNoSkippedContractSpec(t *testing.T) {
	rep := types.Report{SpecReports: []types.SpecReport{
		spec(types.SpecStatePassed, "", "contract", "op:tagsList", "aspect:envelope"),
		spec(types.SpecStateSkipped, "explore mode is off: set CONFORMANCE_EXPLORE=N", "contract", "explore"),
	}}
	text, page := render(t, rep, conformance.Run{})
	if strings.Contains(text, report.NoOperation) || strings.Contains(page, report.NoOperation) {
		t.Errorf("explore mode off shows a %s row:\n%s", report.NoOperation, text)
	}
	if !strings.Contains(text, "contract  1 passed, 0 failed, 0 skipped") || !strings.Contains(text, "explore mode is off") {
		t.Errorf("the summary does not count explore mode apart:\n%s", text)
	}
	if !strings.Contains(page, "Explore mode: explore mode is off") {
		t.Errorf("the HTML report does not say explore mode is off")
	}
}

// A broken property found by explore mode lands on the operation of the failing call.
func TestExploreFailureLandsOnItsOperation(t *testing.T) {
	failed := withEntry(spec(types.SpecStateFailed, "case 3 broke a property", "contract", "explore"), report.ReportEntryExploreOp, "cardsCreate")
	rep := types.Report{SpecReports: []types.SpecReport{failed, spec(types.SpecStatePassed, "", "contract", "op:cardsCreate", "aspect:envelope")}}
	text, page := render(t, rep, conformance.Run{})
	if r := row(text, "cardsCreate"); !strings.Contains(r, "FAIL") {
		t.Errorf("cardsCreate's row is %q, want FAIL:\n%s", r, text)
	}
	if strings.Contains(text, report.NoOperation) || !strings.Contains(page, `<td>cardsCreate</td><td class="fail">FAIL`) {
		t.Errorf("the explore failure is not on cardsCreate:\n%s", text)
	}
}

// The readonly profile leaves out most specs of a create: the create is PARTIAL, with how many
// were left out, never PASS.
func TestReadOnlyLeftOutIsPartial(t *testing.T) {
	run := conformance.RunFilter("", conformance.Config{Profile: conformance.ProfileReadOnly})
	rep := types.Report{SpecReports: []types.SpecReport{
		spec(types.SpecStatePassed, "", "contract", "op:tagsCreate", "aspect:auth", "effect:read"),
		spec(types.SpecStateSkipped, "", "contract", "op:tagsCreate", "aspect:validation", "effect:write"),
		spec(types.SpecStateSkipped, "", "contract", "op:tagsCreate", "aspect:envelope", "effect:write"),
	}}
	text, page := render(t, rep, run)
	if r := row(text, "tagsCreate"); !strings.Contains(r, "PARTIAL") || !strings.Contains(r, "(2 specs left out)") {
		t.Errorf("tagsCreate's row is %q, want PARTIAL with 2 left out", r)
	}
	if !strings.Contains(page, `<td>tagsCreate</td><td class="partial">PARTIAL <span class="muted">(2 left out)`) {
		t.Errorf("the HTML report does not mark tagsCreate PARTIAL")
	}
}

// An operation whose every spec the readonly profile left out (cart removals) keeps its row,
// PARTIAL with how many were left out: left out of the table, it went unchecked unseen.
func TestReadOnlyLeavingOutAWholeOperationKeepsItsRow(t *testing.T) {
	run := conformance.RunFilter("", conformance.Config{Profile: conformance.ProfileReadOnly})
	rep := types.Report{SpecReports: []types.SpecReport{
		spec(types.SpecStatePassed, "", "contract", "op:tagsList", "aspect:auth", "effect:read"),
		spec(types.SpecStateSkipped, "", "contract", "op:domainCartRemove", "aspect:conflict", "effect:write"),
		spec(types.SpecStateSkipped, "", "contract", "op:domainCartRemove", "aspect:notfound", "effect:write"),
	}}
	text, _ := render(t, rep, run)
	if r := row(text, "domainCartRemove"); !strings.Contains(r, "PARTIAL") || !strings.Contains(r, "(2 specs left out)") {
		t.Errorf("domainCartRemove's row is %q, want PARTIAL with 2 left out\n%s", r, text)
	}
	flows := conformance.RunFilter("flow", conformance.Config{Profile: conformance.ProfileReadOnly})
	rep = types.Report{SpecReports: []types.SpecReport{
		spec(types.SpecStatePassed, "", "flow", "effect:read"),
		spec(types.SpecStateSkipped, "", "flow", "effect:write"),
	}}
	text, _ = render(t, rep, flows)
	if r := row(text, report.FlowsRow); !strings.Contains(r, "PARTIAL") {
		t.Errorf("the flows' row is %q with a flow left out, want PARTIAL\n%s", r, text)
	}
}

// A rate-limit aspect whose specs passed without any 429 is not a rate-limit PASS: it says only
// the headers were checked; one that received a 429 passes.
func TestRateLimitPassNeedsA429(t *testing.T) {
	headers := withEntry(spec(types.SpecStatePassed, "", "contract", "op:tagsCreate", "aspect:ratelimit"),
		conformance.ReportEntryExchanges, []conformance.ExchangeRecord{{Op: "tagsCreate", Status: 200, Count: 3}})
	spent := withEntry(spec(types.SpecStatePassed, "", "contract", "op:tagsList", "aspect:ratelimit"),
		conformance.ReportEntryExchanges, []conformance.ExchangeRecord{{Op: "tagsList", Status: 429, Count: 1}})
	text, page := render(t, types.Report{SpecReports: []types.SpecReport{headers, spent}}, conformance.Run{})
	if !strings.Contains(text, "no 429 was received for tagsCreate, so") || strings.Contains(text, "for tagsCreate, tagsList") {
		t.Errorf("the summary does not say tagsCreate's rate limit was never reached:\n%s", text)
	}
	if !strings.Contains(row(text, "tagsCreate"), "1/0/0*") || strings.Contains(row(text, "tagsList"), "*") {
		t.Errorf("the table marks the wrong rate-limit cells HEADERS ONLY:\n%s", text)
	}
	if !strings.Contains(page, "HEADERS ONLY") {
		t.Errorf("the HTML report shows tagsCreate's rate-limit cell as a PASS")
	}

	// Interrupted before its window spec ran, the cell is NOT RUN, and the note does not claim
	// the headers were checked for it.
	cut := spec(types.SpecStateInterrupted, "", "contract", "op:tagsCreate", "aspect:ratelimit")
	text, _ = render(t, types.Report{SpecReports: []types.SpecReport{headers, cut}}, conformance.Run{})
	if strings.Contains(text, "HEADERS ONLY") || !strings.Contains(row(text, "tagsCreate"), "NOT RUN") {
		t.Errorf("an interrupted rate-limit cell is noted HEADERS ONLY, or not NOT RUN:\n%s", text)
	}
}

// A reference spec whose target chose otherwise is DIFFERS, never FAIL: the summary and the HTML
// report say which choice, in words, and count no failure.
func TestDifferingChoiceIsNoFailure(t *testing.T) {
	rep := types.Report{SpecReports: []types.SpecReport{
		spec(types.SpecStateSkipped, report.DiffersPrefix+"the reference answers 200 to every success\nExpected 201 to be 200", "reference", "op:cardsCreate", "aspect:envelope"),
		spec(types.SpecStatePassed, "", "contract", "op:cardsCreate", "aspect:envelope"),
	}}
	text, page := render(t, rep, conformance.Run{})
	if r := row(text, "cardsCreate"); !strings.Contains(r, "DIFFERS") {
		t.Errorf("cardsCreate's row is %q, want DIFFERS", r)
	}
	for _, want := range []string{"reference 0 passed, 0 failed, 0 skipped, 1 differ from the reference's choice", "the reference answers 200 to every success"} {
		if !strings.Contains(text, want) {
			t.Errorf("the summary lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "Failed specs") || !strings.Contains(page, "Differs from the reference's choice (1)") {
		t.Errorf("a differing choice is reported as a failure, or not in the HTML report")
	}
}

// A spec that failed because another operation's request got no answer (a login it needed)
// lands on that operation: masterBoardsList was FAIL for authenticate's dropped connection.
func TestFailureLandsOnTheOperationThatGaveNoAnswer(t *testing.T) {
	failed := withEntry(spec(types.SpecStateFailed, "authenticate: no answer", "contract", "op:masterBoardsList", "aspect:envelope"), report.ReportEntryChargedOp, "authenticate")
	rep := types.Report{SpecReports: []types.SpecReport{failed, spec(types.SpecStatePassed, "", "contract", "op:masterBoardsList", "aspect:auth")}}
	text, _ := render(t, rep, conformance.Run{})
	if r := row(text, "authenticate"); !strings.Contains(r, "FAIL") {
		t.Errorf("authenticate's row is %q, want FAIL:\n%s", r, text)
	}
	if r := row(text, "masterBoardsList"); strings.Contains(r, "FAIL") {
		t.Errorf("masterBoardsList's row is %q, charged with authenticate's failure:\n%s", r, text)
	}
}
