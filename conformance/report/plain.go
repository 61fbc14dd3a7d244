package report

import (
	"regexp"

	"github.com/onsi/ginkgo/v2/types"
)

// terminalEscape matches the colour and style sequences Ginkgo writes into some failure messages
// (a ReportAfterSuite that could not fetch the processes' reports, say).
var terminalEscape = regexp.MustCompile("\x1b\\[[0-9;]*[A-Za-z]")

// Plain returns r with terminal escape sequences taken out of every text a report file shows:
// a JUnit or JSON file is read in a browser or a CI page, where they are noise.
func Plain(r types.Report) types.Report {
	strip := func(s *string) { *s = terminalEscape.ReplaceAllString(*s, "") }
	specs := make(types.SpecReports, len(r.SpecReports))
	copy(specs, r.SpecReports)
	for i := range specs {
		sr := &specs[i]
		strip(&sr.Failure.Message)
		strip(&sr.CapturedGinkgoWriterOutput)
		strip(&sr.CapturedStdOutErr)
		failures := make([]types.AdditionalFailure, len(sr.AdditionalFailures))
		copy(failures, sr.AdditionalFailures)
		for j := range failures {
			strip(&failures[j].Failure.Message)
		}
		sr.AdditionalFailures = failures
	}
	r.SpecReports = specs
	return r
}
