package conformance

import "github.com/opsapi/mocktoolkit/conformance/check"

// RateCountDown judges LIMIT-4 over answers in a row with the one checker (check.CountDown):
// the rules broken, or why the answers say nothing.
func RateCountDown(steps ...*Exchange) (vs []check.Violation, skip string) {
	run := make([]check.RateStep, len(steps))
	for i, ex := range steps {
		run[i] = check.RateStep{Status: ex.Status, Header: ex.Header, Retried: ex.Retries > 0}
	}
	return check.CountDown(run)
}
