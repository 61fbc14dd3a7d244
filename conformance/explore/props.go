package explore

import (
	"fmt"
	"slices"
	"strings"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/check"
	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// A violation is a property an answer broke. Reason is stable across replays of the same case
// (no ids, no times): rapid compares failures by their message while it shrinks.
type violation struct {
	Rule   rules.ID
	Reason string
	Detail string // values, for the report
	// Go is the Gomega assertion that states the property on the reproduction's own exchanges
	// (ex1, ex2, ...; ex is the last), for the pasted spec: across answers it compares them with
	// each other, never with a value this run saw.
	Go string
	// Sh is the same property as lines of the reproduction script (reprocheck.go): it exits 1
	// when the answers the script received break it ("": the script cannot judge it).
	Sh string
	// Op is the operation whose answer broke the property when that is not the case's last
	// call (LIST-1: the create, read back by a list after it); "" for the last call's.
	Op string
}

func (v *violation) Error() string { return string(v.Rule) + ": " + v.Reason }

// assertions are the suite's matchers that state each rule the contract checker judges, for
// the pasted spec.
var assertions = map[rules.ID]string{
	rules.DOC1: "Expect(ex).To(ConformToSpec())", rules.STATUS1: "Expect(ex).To(KeepTheContract())",
	rules.ENV1: "Expect(ex).To(HaveSuccessEnvelope())", rules.ENV2: "Expect(ex).To(HaveEnvelopeA())",
	rules.ENV4: "Expect(ex).To(HaveEnvelopeC())", rules.HDR1: "Expect(ex).To(HaveRateLimitHeaders())",
	rules.HDR2: "Expect(ex).To(HaveRetryAfter())", rules.ERR5: "Expect(ex).To(KeepTheContract())",
	rules.ERR6: "Expect(ex).To(KeepTheContract())", rules.PAGE1: "Expect(ex).To(KeepTheContract())",
	rules.CART1: "Expect(ex).To(KeepTheContract())", rules.TRANS3: "Expect(ex).To(KeepTheContract())",
}

// checkAnswer checks what every answer must satisfy, as the one contract checker judged it (the
// client's Exchange.Violations), then what the request's intent asks.
func checkAnswer(req request, ex *conformance.Exchange) *violation {
	op := ex.Op
	if len(ex.Violations) > 0 {
		v := ex.Violations[0]
		assert := assertions[v.Rule]
		if v.Rule == rules.ENV3 {
			assert = "Expect(ex).To(HaveEnvelopeB())"
			if ex.Status == 403 {
				assert = "Expect(ex).To(HaveEnvelopeAOrB())"
			}
		}
		return &violation{Rule: v.Rule, Reason: fmt.Sprintf("%s answered %d, breaking %s", op.ID, ex.Status, v.Rule),
			Detail: v.Detail, Go: assert, Sh: shChecker(v.Rule, ex)}
	}
	if ex.Status == 429 {
		return nil // a 429 says nothing of the request itself
	}
	switch req.intent {
	case refusedID, unauthenticated, foreign:
		return checkProbe(req, ex)
	case outOfScope:
		return checkScope(ex)
	case strayAuth:
		return checkStray(req, ex)
	case invalidField:
		return checkInvalid(req, ex)
	case accepted:
		if keys := check.ErrorKeys(ex.Body); ex.Status == 422 && !namesOnly(keys, req.repeated) {
			return &violation{Rule: rules.ERR7, Reason: fmt.Sprintf("%s refused a valid body with 422", op.ID),
				Detail: "errors: " + strings.Join(keys, ", "), Go: "Expect(ex.Status).NotTo(Equal(422))", Sh: shNotStatus(422)}
		}
		if ex.Status == 404 && op.Listed(404) && req.found {
			return &violation{Rule: rules.ERR8, Reason: fmt.Sprintf("%s answered 404 to a valid body naming records that exist", op.ID),
				Go: "Expect(ex.Status).NotTo(Equal(404))", Sh: shNotStatus(404)}
		}
	case notFound:
		// A 422 whose errors name only other fields refused their valid values, not the
		// missing record: that is ERR-7, whatever the record (a length counted in bytes, say),
		// unless they are fields a rule the interface leaves open may refuse (a date in the
		// past, a text used before: request.repeated), as for an accepted body.
		keys := check.ErrorKeys(ex.Body)
		if ex.Status == 422 && namesOnly(keys, req.repeated) {
			return nil // such a rule may be judged before the record is looked up
		}
		if ex.Status == 422 && len(keys) > 0 && !slices.Contains(keys, primaryID[op.ID]) {
			return &violation{Rule: rules.ERR7, Reason: fmt.Sprintf("%s refused a valid body with 422", op.ID),
				Detail: "errors: " + strings.Join(keys, ", "), Go: "Expect(ex.Status).NotTo(Equal(422))", Sh: shNotStatus(422)}
		}
		if op.Listed(404) && ex.Status != 404 && ex.Status != 401 {
			return &violation{Rule: rules.ERR4, Reason: fmt.Sprintf("%s answered %d for a record that does not exist", op.ID, ex.Status),
				Go: "Expect(ex).To(HaveStatus(404))", Sh: shStatus(404)}
		}
	}
	return nil
}

func checkInvalid(req request, ex *conformance.Exchange) *violation {
	op := ex.Op
	if !op.Listed(422) && op.CodesShown() {
		if ex.Status != 400 {
			return &violation{Rule: rules.ERR1, Reason: fmt.Sprintf("%s answered %d to a body whose %s breaks its %s (it lists no 422: 400)", op.ID, ex.Status, req.field, req.how),
				Go: "Expect(ex).To(HaveStatus(400))", Sh: shStatus(400)}
		}
		return nil
	}
	// Where the codes are not shown, the status is not judged (422 is our choice there, D1); the
	// body still is a validation error keyed by the field.
	if op.CodesShown() && ex.Status != 422 {
		return &violation{Rule: rules.ERR1, Reason: fmt.Sprintf("%s answered %d to a body whose %s breaks its %s", op.ID, ex.Status, req.field, req.how),
			Go: fmt.Sprintf("Expect(ex).To(HaveStatus(422))\n\tExpect(ex).To(HaveValidationErrorFor(%q))", req.field),
			Sh: shStatus(422) + "\n" + shKeyed(req.field)}
	}
	if vs := check.KeyedBy(ex.Body, []string{req.field}); len(vs) > 0 {
		return &violation{Rule: rules.ERR5, Reason: fmt.Sprintf("%s answered %d to a body whose %s breaks its %s without naming %s in errors", op.ID, ex.Status, req.field, req.how, req.field),
			Detail: vs[0].Detail, Go: fmt.Sprintf("Expect(ex).To(HaveValidationErrorFor(%q))", req.field), Sh: shKeyed(req.field)}
	}
	return nil
}

// namesOnly tells whether every key of a 422's errors names one of fields (and there is one).
func namesOnly(keys, fields []string) bool {
	for _, k := range keys {
		if !slices.ContainsFunc(fields, func(f string) bool { return check.Names(k, f) }) {
			return false
		}
	}
	return len(keys) > 0
}
