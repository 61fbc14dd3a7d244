package conformance

import (
	"fmt"
	"strings"

	"github.com/onsi/gomega/types"

	"github.com/opsapi/mocktoolkit/conformance/check"
	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// exchangeMatcher is a Gomega matcher of an *Exchange whose messages carry the whole exchange.
type exchangeMatcher struct {
	want  string
	check func(ex *Exchange) (ok bool, why string)
	why   string
}

func (m *exchangeMatcher) Match(actual any) (bool, error) {
	ex, ok := actual.(*Exchange)
	if !ok || ex == nil {
		return false, fmt.Errorf("expected an *conformance.Exchange, got %T", actual)
	}
	ok, m.why = m.check(ex)
	return ok, nil
}

// FailureMessage is escaped whole (printable), as the exchange it ends with: the reason quotes
// the answer's values (HaveJSON's "is a string: …") and the checker's details.
func (m *exchangeMatcher) FailureMessage(actual any) string {
	return printable(fmt.Sprintf("expected the answer to %s, but %s\n\n%s", m.want, m.why, actual.(*Exchange).Describe()))
}

func (m *exchangeMatcher) NegatedFailureMessage(actual any) string {
	return printable(fmt.Sprintf("expected the answer not to %s\n\n%s", m.want, actual.(*Exchange).Describe()))
}

func matcher(want string, check func(ex *Exchange) (bool, string)) types.GomegaMatcher {
	return &exchangeMatcher{want: want, check: check}
}

// HaveStatus matches an answer whose status is one of codes.
func HaveStatus(codes ...int) types.GomegaMatcher {
	s := make([]string, len(codes))
	for i, c := range codes {
		s[i] = fmt.Sprint(c)
	}
	want := "have status " + strings.Join(s, " or ")
	return matcher(want, func(ex *Exchange) (bool, string) {
		for _, c := range codes {
			if ex.Status == c {
				return true, ""
			}
		}
		return false, fmt.Sprintf("it is %d", ex.Status)
	})
}

// HaveSuccessStatus matches a 2xx answer that is not a refusal (check.RefusedInSuccess).
func HaveSuccessStatus() types.GomegaMatcher {
	return matcher("have a success (2xx) status", func(ex *Exchange) (bool, string) {
		if ex.RefusedInSuccess() {
			return false, fmt.Sprintf("it is %d with `error: true`, a refusal", ex.Status)
		}
		return ex.Succeeded(), fmt.Sprintf("it is %d", ex.Status)
	})
}

// HaveErrorStatus matches a refusal: a 4xx or 5xx answer, or, where the operation's codes are
// not shown, a 2xx with `error: true` (check.RefusedInSuccess, D209).
func HaveErrorStatus() types.GomegaMatcher {
	return matcher("refuse the request (a 4xx or 5xx status, or `error: true` where the operation's codes are not shown)", func(ex *Exchange) (bool, string) {
		return ex.Status >= 400 || ex.RefusedInSuccess(), fmt.Sprintf("it is %d", ex.Status)
	})
}

// Succeeded tells a success: a 2xx answer that is no refusal. Where an operation's codes are not
// shown, a 2xx with `error: true` is a refusal (check.RefusedInSuccess, D209), which creates
// nothing: the suite, explore and the proxy's tracker count only successes.
func (ex *Exchange) Succeeded() bool {
	return ex.Status >= 200 && ex.Status < 300 && !ex.RefusedInSuccess()
}

// RefusedInSuccess tells a 2xx whose body says `error: true` where the operation's codes are
// not shown: a refusal (check.RefusedInSuccess, D209).
func (ex *Exchange) RefusedInSuccess() bool {
	return check.RefusedInSuccess(ex.Op.Operation, ex.Status, ex.Body)
}

// judged turns the checker's violations into a matcher's verdict: the first names its rule, so
// the suite's failure and the proxy's report cite one id for one broken fact.
func judged(vs []check.Violation) (bool, string) {
	if len(vs) == 0 {
		return true, ""
	}
	whys := make([]string, len(vs))
	for i, v := range vs {
		whys[i] = fmt.Sprintf("rule %s is broken: %s", v.Rule, v.Detail)
	}
	return false, strings.Join(whys, "; ") + "\n" + Cite(vs[0].Rule)
}

// inShape matches an answer whose body has shape s, as the checker judges it.
func inShape(want string, s check.Shape) types.GomegaMatcher {
	return matcher(want, func(ex *Exchange) (bool, string) {
		return judged(check.InShape(s, ex.Op.Operation, ex.Status, ex.Body))
	})
}

// HaveSuccessEnvelope matches a body with `error` boolean, `message` string and `data` (ENV-1).
func HaveSuccessEnvelope() types.GomegaMatcher {
	return inShape("have the success envelope (`error` boolean, `message` string, `data`)", check.Success)
}

// HaveEnvelopeA matches error body shape (a): `error` boolean, `message` string, `data` array
// (ENV-2).
func HaveEnvelopeA() types.GomegaMatcher {
	return inShape("have body shape (a) (`error` boolean, `message` string, `data` array)", check.ShapeA)
}

// HaveEnvelopeB matches error body shape (b): `error` boolean and `message` string only (ENV-3).
func HaveEnvelopeB() types.GomegaMatcher {
	return inShape("have body shape (b) (`error` boolean and `message` string only)", check.ShapeB)
}

// HaveEnvelopeAOrB matches shape (a) or shape (b), as a 403 may be either (ENV-3).
func HaveEnvelopeAOrB() types.GomegaMatcher {
	return inShape("have body shape (a) or (b)", check.ShapeAOrB)
}

// HaveEnvelopeC matches the validation error shape (c): `message` string, `errors` an object
// (ENV-4).
func HaveEnvelopeC() types.GomegaMatcher {
	return inShape("be a validation error (shape (c))", check.ShapeC)
}

// HaveValidationErrorFor matches a shape (c) body (ENV-4) whose `errors` names field (ERR-5).
func HaveValidationErrorFor(field string) types.GomegaMatcher {
	return matcher(fmt.Sprintf("be a validation error (shape (c)) with `errors` keyed by %q", field), func(ex *Exchange) (bool, string) {
		if ex.Succeeded() {
			return judged([]check.Violation{{Rule: rules.ERR6, Detail: fmt.Sprintf("%q breaks its rule, yet the answer is %d, a success", field, ex.Status)}})
		}
		if ex.Status != 422 && !ex.Op.CodesShown() {
			// Where the codes are not shown, any refusal is the validation error (ERR-1): its
			// `errors` names the field (ERR-5), as the proxy judges it; ENV-4 is a 422's shape.
			return judged(check.RefusalKeyedBy(ex.Body, []string{field}))
		}
		if vs := check.InShape(check.ShapeC, ex.Op.Operation, ex.Status, ex.Body); len(vs) > 0 {
			return judged(vs)
		}
		return judged(check.KeyedBy(ex.Body, []string{field}))
	})
}

// AcceptField matches an answer that is not a validation error for field (rule ERR-3): no
// `errors` object names the field, and a 422 names some other field.
func AcceptField(field string) types.GomegaMatcher {
	return matcher(fmt.Sprintf("accept the value of %q (no validation error for it)", field), func(ex *Exchange) (bool, string) {
		keys := check.ErrorKeys(ex.Body)
		for _, k := range keys {
			if check.Names(k, field) {
				return false, fmt.Sprintf("`errors` names %q", field)
			}
		}
		// A 422 naming only other fields refused something else of the body (a name another
		// record holds, where uniqueness is not shown), not this value.
		if ex.Status == 422 && len(keys) == 0 {
			return false, "it is 422, naming no field"
		}
		return true, ""
	})
}

// HaveRateLimitHeaders matches an answer carrying X-RateLimit-Limit and X-RateLimit-Remaining
// as integers, with 0 <= Remaining <= Limit (HDR-1). A 422 is a validation error, for which the
// interface lists no headers: it may leave them out (where it has them they are judged), even
// where a spec's request is refused with a 422 by a deployment's own choice.
func HaveRateLimitHeaders() types.GomegaMatcher {
	return matcher("carry integer X-RateLimit-Limit and X-RateLimit-Remaining headers", func(ex *Exchange) (bool, string) {
		var vs []check.Violation
		for _, v := range check.Headers(ex.Status, ex.Header) {
			if v.Rule == rules.HDR1 {
				vs = append(vs, v)
			}
		}
		return judged(vs)
	})
}

// HaveRetryAfter matches an answer with a Retry-After header of whole seconds (HDR-2).
func HaveRetryAfter() types.GomegaMatcher {
	return matcher("carry a Retry-After header of integer seconds", func(ex *Exchange) (bool, string) {
		if _, why := check.HeaderInt(ex.Header, "Retry-After"); why != "" {
			return judged([]check.Violation{{Rule: rules.HDR2, Detail: why}})
		}
		return true, ""
	})
}

// ConformToSpec matches an answer that the OpenAPI document accepts (DOC-1).
func ConformToSpec() types.GomegaMatcher {
	return matcher("match the OpenAPI document", func(ex *Exchange) (bool, string) {
		return judged(ex.Broken(rules.DOC1))
	})
}

// KeepTheContract matches an answer that breaks none of the rules one answer can show, as the
// one contract checker judges it (package conformance/check): its status, envelope, rate-limit
// headers, validation keys and the OpenAPI document.
func KeepTheContract() types.GomegaMatcher {
	return matcher("keep every rule one answer can show", func(ex *Exchange) (bool, string) {
		return judged(ex.Violations)
	})
}

// HaveJSON matches an answer whose value at a dotted path satisfies holds; what says what it
// should be ("a string", "the id 7").
func HaveJSON(path, what string, holds func(v any, ok bool) bool) types.GomegaMatcher {
	return matcher(fmt.Sprintf("have `%s` %s", path, what), func(ex *Exchange) (bool, string) {
		v, ok := ex.Get(path)
		if holds(v, ok) {
			return true, ""
		}
		if !ok {
			return false, fmt.Sprintf("`%s` is missing", path)
		}
		return false, fmt.Sprintf("`%s` is %s: %v", path, check.Kind(v), v)
	})
}

// HaveKind matches an answer whose value at path has the JSON kind: "a string", "an integer",
// "a boolean", "an array", "an object", "a number".
func HaveKind(path, kind string) types.GomegaMatcher {
	return HaveJSON(path, "that is "+kind, func(v any, ok bool) bool {
		if !ok {
			return false
		}
		if kind == "an integer" {
			_, whole := Integer(v)
			return whole
		}
		return check.Kind(v) == kind
	})
}

// HavePresent matches an answer whose body has a value other than null at path.
func HavePresent(path string) types.GomegaMatcher {
	return HaveJSON(path, "present (not null)", func(v any, ok bool) bool { return ok && v != nil })
}
