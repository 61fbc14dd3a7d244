package report_test

import (
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/report"
)

// reportWith is a suite report of one spec that made the exchanges recs.
func reportWith(recs ...conformance.ExchangeRecord) types.Report {
	sr := types.SpecReport{LeafNodeType: types.NodeTypeIt, State: types.SpecStatePassed}
	sr.ReportEntries = append(sr.ReportEntries, types.ReportEntry{Name: conformance.ReportEntryExchanges, Value: types.WrapEntryValue(recs)})
	return types.Report{SpecReports: types.SpecReports{sr}}
}

func TestThrottleNoteExplainsA429Storm(t *testing.T) {
	storm := reportWith(
		conformance.ExchangeRecord{Op: "cardsList", Status: 429, WaitedOut: true, Count: report.StormThreshold - 1},
		conformance.ExchangeRecord{Op: "tagsList", Status: 429, WaitedOut: true, Count: 1},
		conformance.ExchangeRecord{Op: "tagsList", Status: 200, Count: 40},
	)
	note := report.ThrottleNote(storm, 8)
	for _, want := range []string{"429", "10 times on 2 operations", conformance.EnvParallel, "now 8"} {
		if !strings.Contains(note, want) {
			t.Errorf("note %q lacks %q", note, want)
		}
	}
	if one := report.ThrottleNote(storm, 1); one == "" || strings.Contains(one, conformance.EnvParallel) {
		t.Errorf("a one-process run's note %q must not ask to lower %s", one, conformance.EnvParallel)
	}
	if strings.Count(note, "\n") != 0 {
		t.Errorf("note is more than one line: %q", note)
	}
	// The 429 answers a rate-limit spec asks for itself, those not waited out (a 10-minute
	// thumbnail window explore spends on purpose), and a few waited out, are no storm.
	calm := reportWith(
		conformance.ExchangeRecord{Op: "tagsList", Status: 429, NoRetry: true, Count: 500},
		conformance.ExchangeRecord{Op: "thumbnailsRegenerate", Status: 429, Count: 67},
		conformance.ExchangeRecord{Op: "cardsList", Status: 429, WaitedOut: true, Count: report.StormThreshold - 1},
	)
	if note := report.ThrottleNote(calm, 8); note != "" {
		t.Errorf("a run without a storm gets the note %q", note)
	}
}
