package explore

import (
	"fmt"
	"strings"

	"pgregory.net/rapid"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/check"
	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// rateRun is the number of answers in a row LIMIT-4 reads.
const rateRun = check.RateRun

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

// rateCountDown judges LIMIT-4 on answers in a row (the first is call first of the trace) with
// the one checker; nil when they keep it or say nothing.
func rateCountDown(steps []*conformance.Exchange, first int) *violation {
	vs, _ := conformance.RateCountDown(steps...)
	if len(vs) == 0 {
		return nil
	}
	names := make([]string, len(steps))
	for i := range steps {
		names[i] = fmt.Sprintf("ex%d", first+i+1)
	}
	return &violation{Rule: rules.LIMIT4, Reason: steps[0].Op.ID + " broke the rate-limit count-down on answers in a row",
		Detail: vs[0].Detail,
		Go:     fmt.Sprintf("vs, _ := RateCountDown(%s)\n\tExpect(vs).To(BeEmpty())", strings.Join(names, ", "))}
}
