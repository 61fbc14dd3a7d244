package check

import (
	"fmt"
	"net/http"

	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// RateRun is the number of answers in a row LIMIT-4 is judged over (D130).
const RateRun = 6

// RateStep is what CountDown reads of one answer in a run of answers in a row.
type RateStep struct {
	Status int
	Header http.Header
	// Retried says the request was sent again after waiting out a refusal: not in a row.
	Retried bool
}

// CountDown is LIMIT-4 over answers in a row of one operation to one caller (D130): each
// answer leaves X-RateLimit-Remaining below X-RateLimit-Limit, the Limit stays the same, and
// Remaining goes down by exactly one between two answers, allowing for one step that does not
// go down (a window that ends, fixed or sliding). skip says why the run says nothing (fewer
// than two answers, a 429, a retried request, a header missing or unreadable: HDR-1's, more
// than one step that does not go down); vs is then empty.
func CountDown(run []RateStep) (vs []Violation, skip string) {
	if len(run) < 2 {
		return nil, "fewer than two answers"
	}
	lim, rem := make([]int64, len(run)), make([]int64, len(run))
	for i, s := range run {
		var whyL, whyR string
		lim[i], whyL = HeaderInt(s.Header, "X-RateLimit-Limit")
		rem[i], whyR = HeaderInt(s.Header, "X-RateLimit-Remaining")
		switch {
		case s.Status == http.StatusTooManyRequests:
			return nil, fmt.Sprintf("answer %d is a 429: the window is spent, there is nothing to count", i+1)
		case s.Retried:
			return nil, fmt.Sprintf("answer %d was sent again after a 429: the answers are not in a row", i+1)
		case whyL != "" || whyR != "":
			return nil, fmt.Sprintf("answer %d: %s%s", i+1, whyL, whyR)
		}
	}
	for i := range run {
		if rem[i] >= lim[i] {
			vs = append(vs, Violation{Rule: rules.LIMIT4, Detail: fmt.Sprintf("answer %d left X-RateLimit-Remaining %d, not below X-RateLimit-Limit %d", i+1, rem[i], lim[i])})
		}
	}
	rolls := 0
	var steps []Violation
	for i := 1; i < len(run); i++ {
		if lim[i] != lim[i-1] {
			vs = append(vs, Violation{Rule: rules.LIMIT4, Detail: fmt.Sprintf("X-RateLimit-Limit went from %d to %d between answers %d and %d", lim[i-1], lim[i], i, i+1)})
		}
		switch d := rem[i-1] - rem[i]; {
		case d <= 0:
			rolls++
		case d != 1:
			steps = append(steps, Violation{Rule: rules.LIMIT4, Detail: fmt.Sprintf("X-RateLimit-Remaining went from %d to %d between answers %d and %d", rem[i-1], rem[i], i, i+1)})
		}
	}
	if rolls > 1 && len(vs) == 0 {
		return nil, fmt.Sprintf("X-RateLimit-Remaining did not go down %d times in %d answers: more than one window end, nothing to judge", rolls, len(run))
	}
	if rolls <= 1 {
		vs = append(vs, steps...)
	}
	return vs, ""
}
