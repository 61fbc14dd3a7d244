package explore

import (
	"fmt"

	"pgregory.net/rapid"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/nearmiss"
	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// strayAuth: a public operation is sent an Authorization header it does not take; the answer
// is never 401 (AUTH-7), and is the answer without the header (judged by the step).
const strayAuth intent = iota + 300

// publicBody is a body of the public operation op that changes nothing: the removal of an item
// no cart holds.
func (r *runner) publicBody(t *rapid.T, op conformance.Operation) map[string]any {
	body, _ := validBody(t, op, r.schemas[op.ID], manifestView{r.target})
	if id := primaryID[op.ID]; id != "" {
		body[id] = ref{pool: "missing"}
	}
	return body
}

// actPublicStray sends a public operation twice, without and with a stray Authorization
// header: AUTH-7.
func (r *runner) actPublicStray(t *rapid.T) {
	var ops []conformance.Operation
	for _, op := range conformance.Operations {
		// Not authenticate: its codes are not shown, and an invalid token's 401 may reach it
		// (AUTH-7 judges the cart removal only).
		if op.Access == conformance.Public && op.ID != conformance.OpAuthenticate.ID {
			ops = append(ops, op)
		}
	}
	op := rapid.SampledFrom(ops).Draw(t, "public.op")
	form := rapid.SampledFrom(nearmiss.StrayAuthForms).Draw(t, "public.form")
	body := r.publicBody(t, op)
	plain := request{op: op, as: callerOf(op), body: body}
	with := request{op: op, as: member, body: body, intent: strayAuth, auth: &form}
	r.both(t, op.ID+" with "+form.What, func(e *env) string {
		a, ai, ok := r.send(t, e, plain)
		if !ok {
			return errSkip.Error()
		}
		b, bi, _ := r.send(t, e, with)
		if a.Status != b.Status && a.Status != 429 && b.Status != 429 {
			goCode, sh := sameStatus(ai, bi)
			r.check(t, e, &violation{Rule: rules.AUTH7, Reason: fmt.Sprintf("%s answered otherwise when sent %s", op.ID, form.What),
				Detail: fmt.Sprintf("%d without the header, %d with it", a.Status, b.Status), Go: goCode, Sh: sh})
		}
		return outcome(a) + ", " + outcome(b)
	})
}

// checkStray checks AUTH-7 on the answer itself: a public operation never answers 401.
func checkStray(req request, ex *conformance.Exchange) *violation {
	if ex.Status != 401 {
		return nil
	}
	return &violation{Rule: rules.AUTH7, Reason: fmt.Sprintf("%s answered 401 when sent %s", ex.Op.ID, req.auth.What),
		Go: "Expect(ex).NotTo(HaveStatus(401))", Sh: shNotStatus(401)}
}
