package conformance

import (
	"fmt"
	"strings"

	"github.com/onsi/gomega/types"
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

func (m *exchangeMatcher) FailureMessage(actual any) string {
	return fmt.Sprintf("expected the answer to %s, but %s\n\n%s", m.want, m.why, actual.(*Exchange).Describe())
}

func (m *exchangeMatcher) NegatedFailureMessage(actual any) string {
	return fmt.Sprintf("expected the answer not to %s\n\n%s", m.want, actual.(*Exchange).Describe())
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

// HaveSuccessStatus matches a 2xx answer.
func HaveSuccessStatus() types.GomegaMatcher {
	return matcher("have a success (2xx) status", func(ex *Exchange) (bool, string) {
		return ex.Status >= 200 && ex.Status < 300, fmt.Sprintf("it is %d", ex.Status)
	})
}

// HaveErrorStatus matches a 4xx or 5xx answer.
func HaveErrorStatus() types.GomegaMatcher {
	return matcher("refuse the request (a 4xx or 5xx status)", func(ex *Exchange) (bool, string) {
		return ex.Status >= 400, fmt.Sprintf("it is %d", ex.Status)
	})
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case float64:
		return "a number"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// need checks that key of the answer's body has JSON kind want.
func need(ex *Exchange, key, want string) (bool, string) {
	if ex.JSON == nil {
		return false, fmt.Sprint(ex.JSONErr)
	}
	v, ok := ex.JSON[key]
	if !ok {
		return false, fmt.Sprintf("the body has no `%s`", key)
	}
	if got := jsonKind(v); got != want {
		return false, fmt.Sprintf("`%s` is %s, not %s", key, got, want)
	}
	return true, ""
}

func all(ex *Exchange, checks ...[2]string) (bool, string) {
	for _, c := range checks {
		if ok, why := need(ex, c[0], c[1]); !ok {
			return false, why
		}
	}
	return true, ""
}

var (
	errBool   = [2]string{"error", "a boolean"}
	msgString = [2]string{"message", "a string"}
	dataArray = [2]string{"data", "an array"}
)

// HaveSuccessEnvelope matches a body with `error` boolean, `message` string and `data`.
func HaveSuccessEnvelope() types.GomegaMatcher {
	return matcher("have the success envelope (`error` boolean, `message` string, `data`)", func(ex *Exchange) (bool, string) {
		if ok, why := all(ex, errBool, msgString); !ok {
			return false, why
		}
		if _, ok := ex.JSON["data"]; !ok {
			return false, "the body has no `data`"
		}
		return true, ""
	})
}

// HaveEnvelopeA matches error body shape (a): `error` boolean, `message` string, `data` array.
func HaveEnvelopeA() types.GomegaMatcher {
	return matcher("have body shape (a) (`error` boolean, `message` string, `data` array)", func(ex *Exchange) (bool, string) {
		return all(ex, errBool, msgString, dataArray)
	})
}

func shapeB(ex *Exchange) (bool, string) {
	if ok, why := all(ex, errBool, msgString); !ok {
		return false, why
	}
	for k := range ex.JSON {
		if k != "error" && k != "message" {
			return false, fmt.Sprintf("the body has `%s` besides `error` and `message`", k)
		}
	}
	return true, ""
}

// HaveEnvelopeB matches error body shape (b): `error` boolean and `message` string only.
func HaveEnvelopeB() types.GomegaMatcher {
	return matcher("have body shape (b) (`error` boolean and `message` string only)", shapeB)
}

// HaveEnvelopeAOrB matches shape (a) or shape (b), as a 403 may be either.
func HaveEnvelopeAOrB() types.GomegaMatcher {
	return matcher("have body shape (a) or (b)", func(ex *Exchange) (bool, string) {
		if ok, _ := all(ex, errBool, msgString, dataArray); ok {
			return true, ""
		}
		return shapeB(ex)
	})
}

// HaveValidationErrorFor matches a shape (c) body whose `errors` has the key field.
func HaveValidationErrorFor(field string) types.GomegaMatcher {
	return matcher(fmt.Sprintf("be a validation error (shape (c)) with `errors` keyed by %q", field), func(ex *Exchange) (bool, string) {
		if ok, why := all(ex, msgString, [2]string{"errors", "an object"}); !ok {
			return false, why
		}
		errs := ex.JSON["errors"].(map[string]any)
		if _, ok := errs[field]; !ok {
			keys := make([]string, 0, len(errs))
			for k := range errs {
				keys = append(keys, k)
			}
			return false, fmt.Sprintf("`errors` has no key %q (its keys: %v)", field, keys)
		}
		return true, ""
	})
}

// AcceptField matches an answer that is not a validation error for field: the status is not 422
// and no `errors` object names the field.
func AcceptField(field string) types.GomegaMatcher {
	return matcher(fmt.Sprintf("accept the value of %q (no validation error for it)", field), func(ex *Exchange) (bool, string) {
		if ex.Status == 422 {
			return false, "it is 422"
		}
		if errs, ok := ex.JSON["errors"].(map[string]any); ok {
			if _, named := errs[field]; named {
				return false, fmt.Sprintf("`errors` names %q", field)
			}
		}
		return true, ""
	})
}

// HaveRateLimitHeaders matches an answer carrying X-RateLimit-Limit and X-RateLimit-Remaining
// as integers, with 0 <= Remaining <= Limit.
func HaveRateLimitHeaders() types.GomegaMatcher {
	return matcher("carry integer X-RateLimit-Limit and X-RateLimit-Remaining headers", func(ex *Exchange) (bool, string) {
		limit, ok := ex.HeaderInt("X-RateLimit-Limit")
		if !ok {
			return false, fmt.Sprintf("X-RateLimit-Limit is %q", ex.Header.Values("X-RateLimit-Limit"))
		}
		rem, ok := ex.HeaderInt("X-RateLimit-Remaining")
		if !ok {
			return false, fmt.Sprintf("X-RateLimit-Remaining is %q", ex.Header.Values("X-RateLimit-Remaining"))
		}
		if rem < 0 || rem > limit {
			return false, fmt.Sprintf("X-RateLimit-Remaining %d is not between 0 and X-RateLimit-Limit %d", rem, limit)
		}
		return true, ""
	})
}

// HaveRetryAfter matches an answer with a Retry-After header of whole seconds.
func HaveRetryAfter() types.GomegaMatcher {
	return matcher("carry a Retry-After header of integer seconds", func(ex *Exchange) (bool, string) {
		_, ok := RetryAfter(ex.Header)
		return ok, fmt.Sprintf("Retry-After is %q", ex.Header.Values("Retry-After"))
	})
}

// ConformToSpec matches an answer that the OpenAPI document accepts (status, headers, body).
func ConformToSpec() types.GomegaMatcher {
	return matcher("match the OpenAPI document", func(ex *Exchange) (bool, string) {
		if ex.SpecErr != nil {
			return false, "it does not: " + ex.SpecErr.Error()
		}
		return true, ""
	})
}

// HaveJSON matches an answer whose value at a dotted path satisfies check; what says what it
// should be ("a string", "the id 7").
func HaveJSON(path, what string, check func(v any, ok bool) bool) types.GomegaMatcher {
	return matcher(fmt.Sprintf("have `%s` %s", path, what), func(ex *Exchange) (bool, string) {
		v, ok := ex.Get(path)
		if check(v, ok) {
			return true, ""
		}
		if !ok {
			return false, fmt.Sprintf("`%s` is missing", path)
		}
		return false, fmt.Sprintf("`%s` is %s: %v", path, jsonKind(v), v)
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
			f, isNum := v.(float64)
			return isNum && f == float64(int64(f))
		}
		return jsonKind(v) == kind
	})
}

// HavePresent matches an answer whose body has a value other than null at path.
func HavePresent(path string) types.GomegaMatcher {
	return HaveJSON(path, "present (not null)", func(v any, ok bool) bool { return ok && v != nil })
}
