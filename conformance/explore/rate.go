package explore

import (
	"fmt"

	"pgregory.net/rapid"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// rateRun is the number of answers in a row LIMIT-4 reads.
const rateRun = 3

// readingOps are the operations that only read and need a token: the same request sent again
// changes nothing, so answers in a row differ only by the window they spend.
var readingOps = func() []conformance.Operation {
	var out []conformance.Operation
	for _, op := range conformance.Operations {
		if op.Change() == "" && op.Access != conformance.Public {
			out = append(out, op)
		}
	}
	return out
}()

// actScopeOrRate is one step of the machine for the properties added last (SCOPE-1, LIMIT-4,
// AUTH-7): one key of the state machine between them, so the other steps keep most of their
// weight.
func (r *runner) actScopeOrRate(t *rapid.T) {
	switch rapid.IntRange(0, 2).Draw(t, "added") {
	case 0:
		r.actScope(t)
	case 1:
		r.actRateCount(t)
	default:
		r.actPublicStray(t)
	}
}

// actRateCount sends one reading operation rateRun times in a row by one caller and reads the
// rate-limit headers of the answers: LIMIT-4. A window may end between two answers (Remaining
// goes up, or stays in a sliding window): one such step is allowed for, more say nothing.
func (r *runner) actRateCount(t *rapid.T) {
	op := rapid.SampledFrom(readingOps).Draw(t, "rate.op")
	body, _ := validBody(t, op, r.schemas[op.ID], manifestView{r.target})
	req := request{op: op, as: callerOf(op), body: body}
	r.both(t, op.ID+" answers in a row", func(e *env) string {
		tok := e.tokens[req.as]
		steps := make([]*conformance.Exchange, 0, rateRun)
		first := -1
		for range rateRun {
			ex, idx, ok := r.send(t, e, req)
			if !ok {
				return errSkip.Error()
			}
			if first < 0 {
				first = idx
			}
			steps = append(steps, ex)
		}
		if e.tokens[req.as] != tok {
			return "inconclusive" // a token was renewed between the answers: another request
		}
		if v := rateCountDown(steps, first); v != nil {
			r.check(t, e, v)
			return "broken"
		}
		return "counted"
	})
}

// rateCountDown judges LIMIT-4 on answers in a row (the first is call first of the trace); nil
// when they keep it or say nothing (a 429, a wait, a header missing: HDR-1's, more than one
// window end).
func rateCountDown(steps []*conformance.Exchange, first int) *violation {
	var lim, rem []int64
	for _, ex := range steps {
		l, okL := ex.HeaderInt("X-RateLimit-Limit")
		m, okR := ex.HeaderInt("X-RateLimit-Remaining")
		if !okL || !okR || ex.Status == 429 || ex.Retries > 0 {
			return nil
		}
		lim, rem = append(lim, l), append(rem, m)
	}
	op := steps[0].Op.ID
	for i := range steps {
		if rem[i] >= lim[0] {
			return &violation{Rule: rules.LIMIT4, Reason: op + " answered X-RateLimit-Remaining not below X-RateLimit-Limit",
				Detail: fmt.Sprintf("Limit %d, Remaining %d", lim[0], rem[i]),
				Go:     fmt.Sprintf("l, _ := ex%d.HeaderInt(\"X-RateLimit-Limit\")\n\tn, _ := ex%d.HeaderInt(\"X-RateLimit-Remaining\")\n\tExpect(n).To(BeNumerically(\"<\", l))", first+i+1, first+i+1)}
		}
	}
	rolls := 0
	var broken *violation
	for i := 1; i < len(steps); i++ {
		if lim[i] != lim[0] {
			return &violation{Rule: rules.LIMIT4, Reason: op + " changed X-RateLimit-Limit between answers in a row",
				Detail: fmt.Sprintf("Limit %d, then %d", lim[0], lim[i]),
				Go:     fmt.Sprintf("a, _ := ex%d.HeaderInt(\"X-RateLimit-Limit\")\n\tb, _ := ex%d.HeaderInt(\"X-RateLimit-Limit\")\n\tExpect(b).To(Equal(a))", first+1, first+i+1)}
		}
		switch d := rem[i-1] - rem[i]; {
		case d <= 0:
			rolls++
		case d != 1 && broken == nil:
			broken = &violation{Rule: rules.LIMIT4, Reason: op + " counted X-RateLimit-Remaining down by other than one between answers in a row",
				Detail: fmt.Sprintf("Remaining %d, then %d", rem[i-1], rem[i]),
				Go:     fmt.Sprintf("a, _ := ex%d.HeaderInt(\"X-RateLimit-Remaining\")\n\tb, _ := ex%d.HeaderInt(\"X-RateLimit-Remaining\")\n\tExpect(a - b).To(BeEquivalentTo(1))", first+i, first+i+1)}
		}
	}
	if rolls > 1 {
		return nil
	}
	return broken
}
