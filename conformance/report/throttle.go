package report

import (
	"fmt"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/opsapi/mocktoolkit/conformance"
)

// StormThreshold is how many 429 answers the suite may wait out in one run before it says why
// the run was slow (ThrottleNote, D163).
const StormThreshold = 10

// ThrottleNote returns one line explaining a 429 storm: the 429 answers the client waited out
// (Retry-After) outside the specs that ask for a 429 themselves, once there are StormThreshold
// or more; "" otherwise. procs is the run's CONFORMANCE_PARALLEL. The verdicts stand (every
// waited-out request was sent again), only the run's time suffers.
func ThrottleNote(report types.Report, procs int) string {
	waited, ops := 0, map[string]bool{}
	for _, sr := range report.SpecReports {
		for _, r := range conformance.Records(sr) {
			if r.Status == 429 && r.WaitedOut {
				waited += r.Count
				ops[r.Op] = true
			}
		}
	}
	if waited < StormThreshold {
		return ""
	}
	fix := "raise the limit for the suite's users"
	if procs > 1 {
		fix = fmt.Sprintf("lower %s, now %d, or %s", conformance.EnvParallel, procs, fix)
	}
	return fmt.Sprintf("conformance: the deployment answered 429 (rate limited) %d times on %d operations outside the rate-limit specs; the suite waited out each (Retry-After) and sent it again, so the verdicts stand but the run was slow: %s",
		waited, len(ops), fix)
}
