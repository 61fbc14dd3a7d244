package explore

import (
	"fmt"
	"sort"
	"strings"

	"github.com/opsapi/mocktoolkit/conformance"
)

// A violation is a property an answer broke. Reason is stable across replays of the same case
// (no ids, no times): rapid compares failures by their message while it shrinks.
type violation struct {
	Rule   string
	Reason string
	Detail string // values, for the report
	// Go is the Gomega assertion that states the property on the reproduction's last exchange
	// (ex), for the pasted spec.
	Go string
}

func (v *violation) Error() string { return v.Rule + ": " + v.Reason }

// checkAnswer checks what every answer must satisfy, then what the request's intent asks.
func checkAnswer(req request, ex *conformance.Exchange) *violation {
	op := ex.Op
	if ex.SpecErr != nil {
		return &violation{Rule: RuleSpecAnswer, Reason: fmt.Sprintf("%s answered %d not as the OpenAPI document says", op.ID, ex.Status),
			Detail: ex.SpecErr.Error(), Go: "Expect(ex).To(ConformToSpec())"}
	}
	if op.CodesShown() && !op.Listed(ex.Status) && ex.Status != 413 {
		return &violation{Rule: RuleStatusListed, Reason: fmt.Sprintf("%s answered %d, which it does not list", op.ID, ex.Status),
			Detail: fmt.Sprintf("listed: %v", op.Codes), Go: fmt.Sprintf("Expect(ex).To(HaveStatus(%s))", joinInts(op.Codes))}
	}
	if why := shapeProblem(ex); why != "" {
		return &violation{Rule: shapeRule(ex.Status), Reason: fmt.Sprintf("%s answered %d in the wrong shape: %s", op.ID, ex.Status, why),
			Go: shapeAssertion(ex.Status)}
	}
	if ex.Status != 422 {
		if why := headerProblem(ex); why != "" {
			return &violation{Rule: RuleHeaders, Reason: fmt.Sprintf("%s answered %d with %s", op.ID, ex.Status, why),
				Go: "Expect(ex).To(HaveRateLimitHeaders())"}
		}
	}
	if ex.Status == 429 {
		if _, ok := conformance.RetryAfter(ex.Header); !ok {
			return &violation{Rule: RuleRetryAfter, Reason: fmt.Sprintf("%s answered 429 without Retry-After in seconds", op.ID),
				Go: "Expect(ex).To(HaveRetryAfter())"}
		}
		return nil // a 429 says nothing of the request itself
	}
	switch req.intent {
	case invalidField:
		return checkInvalid(req, ex)
	case accepted:
		if ex.Status == 422 {
			return &violation{Rule: RuleValidAccepted, Reason: fmt.Sprintf("%s refused a valid body with 422", op.ID),
				Detail: "errors: " + strings.Join(errorKeys(ex), ", "), Go: "Expect(ex.Status).NotTo(Equal(422))"}
		}
	case notFound:
		if op.Listed(404) && ex.Status != 404 && ex.Status != 401 {
			return &violation{Rule: RuleNotFound, Reason: fmt.Sprintf("%s answered %d for a record that does not exist", op.ID, ex.Status),
				Go: "Expect(ex).To(HaveStatus(404))"}
		}
	}
	return nil
}

func checkInvalid(req request, ex *conformance.Exchange) *violation {
	op := ex.Op
	if !op.Listed(422) && op.CodesShown() {
		if ex.Status != 400 {
			return &violation{Rule: RuleInvalidField, Reason: fmt.Sprintf("%s answered %d to a body whose %s breaks its %s (it lists no 422: 400)", op.ID, ex.Status, req.field, req.how),
				Go: "Expect(ex).To(HaveStatus(400))"}
		}
		return nil
	}
	// Where the codes are not shown, the status is not judged (422 is our choice there, D1); the
	// body still is a validation error keyed by the field.
	if op.CodesShown() && ex.Status != 422 {
		return &violation{Rule: RuleInvalidField, Reason: fmt.Sprintf("%s answered %d to a body whose %s breaks its %s", op.ID, ex.Status, req.field, req.how),
			Go: fmt.Sprintf("Expect(ex).To(HaveStatus(422))\n\tExpect(ex).To(HaveValidationErrorFor(%q))", req.field)}
	}
	errs, _ := ex.JSON["errors"].(map[string]any)
	if _, ok := errs[req.field]; !ok {
		return &violation{Rule: RuleInvalidField, Reason: fmt.Sprintf("%s answered %d to a body whose %s breaks its %s without naming %s in errors", op.ID, ex.Status, req.field, req.how, req.field),
			Detail: "errors: " + strings.Join(errorKeys(ex), ", "), Go: fmt.Sprintf("Expect(ex).To(HaveValidationErrorFor(%q))", req.field)}
	}
	return nil
}

// errorKeys lists the keys of the answer's errors object, sorted.
func errorKeys(ex *conformance.Exchange) []string {
	errs, _ := ex.JSON["errors"].(map[string]any)
	keys := make([]string, 0, len(errs))
	for k := range errs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case float64:
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "?"
}

func has(o map[string]any, key, want string) string {
	v, ok := o[key]
	if !ok {
		return "no `" + key + "`"
	}
	if k := kind(v); k != want {
		return "`" + key + "` is " + k
	}
	return ""
}

func firstProblem(o map[string]any, checks ...[2]string) string {
	for _, c := range checks {
		if why := has(o, c[0], c[1]); why != "" {
			return why
		}
	}
	return ""
}

var (
	hError   = [2]string{"error", "boolean"}
	hMessage = [2]string{"message", "string"}
	hData    = [2]string{"data", "array"}
	hErrors  = [2]string{"errors", "object"}
)

func shapeA(o map[string]any) string { return firstProblem(o, hError, hMessage, hData) }

func shapeB(o map[string]any) string {
	if why := firstProblem(o, hError, hMessage); why != "" {
		return why
	}
	for k := range o {
		if k != "error" && k != "message" {
			return "`" + k + "` besides error and message"
		}
	}
	return ""
}

// shapeProblem says how the body misses the shape its status calls for ("" when it does not).
func shapeProblem(ex *conformance.Exchange) string {
	o := ex.JSON
	if o == nil {
		return "the body is not a JSON object"
	}
	switch s := ex.Status; {
	case s >= 200 && s < 300:
		if why := firstProblem(o, hError, hMessage); why != "" {
			return why
		}
		if _, ok := o["data"]; !ok {
			return "no `data`"
		}
	case s == 400 || s == 404 || s == 409 || s == 500:
		return shapeA(o)
	case s == 401 || s == 429:
		return shapeB(o)
	case s == 403:
		if shapeA(o) == "" {
			return ""
		}
		return shapeB(o)
	case s == 422:
		return firstProblem(o, hMessage, hErrors)
	}
	return ""
}

func shapeAssertion(status int) string {
	switch {
	case status < 300:
		return "Expect(ex).To(HaveSuccessEnvelope())"
	case status == 401 || status == 429:
		return "Expect(ex).To(HaveEnvelopeB())"
	case status == 403:
		return "Expect(ex).To(HaveEnvelopeAOrB())"
	case status == 422:
		return "Expect(ex).To(HaveEnvelopeC())"
	}
	return "Expect(ex).To(HaveEnvelopeA())"
}

func headerProblem(ex *conformance.Exchange) string {
	limit, ok := ex.HeaderInt("X-RateLimit-Limit")
	if !ok {
		return "no integer X-RateLimit-Limit"
	}
	rem, ok := ex.HeaderInt("X-RateLimit-Remaining")
	if !ok {
		return "no integer X-RateLimit-Remaining"
	}
	if rem < 0 || rem > limit {
		return "X-RateLimit-Remaining outside 0..X-RateLimit-Limit"
	}
	return ""
}

func joinInts(c []int) string {
	s := make([]string, len(c))
	for i, v := range c {
		s[i] = fmt.Sprint(v)
	}
	return strings.Join(s, ", ")
}
