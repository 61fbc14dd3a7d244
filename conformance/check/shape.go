package check

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/opsapi/mocktoolkit/conformance/rules"
	"github.com/opsapi/mocktoolkit/internal/jsonone"
	"github.com/opsapi/mocktoolkit/spec"
)

// Shape is a body shape of the interface (§Endpoints, error body shapes; §Conventions 3).
type Shape int

const (
	// NoShape is the shape of a status the interface gives none (413, 502, ...): not judged.
	NoShape Shape = iota
	// Success is the success envelope: `error` boolean, `message` string, `data` (ENV-1).
	Success
	// ShapeA is `error` boolean, `message` string, `data` array (ENV-2).
	ShapeA
	// ShapeB is `error` boolean and `message` string only (ENV-3).
	ShapeB
	// ShapeAOrB is what a 403 may be (ENV-3).
	ShapeAOrB
	// ShapeC is the validation error: `message` string, `errors` an object (ENV-4).
	ShapeC
	// Refusal is a 2xx with `error: true` where the operation's codes are not shown
	// (RefusedInSuccess): `error` boolean and `message` string, the rest free (ENV-1).
	Refusal
)

// ShapeOf is the shape the interface gives status.
func ShapeOf(status int) Shape {
	switch {
	case status >= 200 && status < 300:
		return Success
	case status == 400 || status == 404 || status == 409 || status == 500:
		return ShapeA
	case status == http.StatusUnauthorized || status == http.StatusTooManyRequests:
		return ShapeB
	case status == http.StatusForbidden:
		return ShapeAOrB
	case status == http.StatusUnprocessableEntity:
		return ShapeC
	}
	return NoShape
}

// Rule is the rule a body out of shape s breaks.
func (s Shape) Rule() rules.ID {
	return [...]rules.ID{"", rules.ENV1, rules.ENV2, rules.ENV3, rules.ENV3, rules.ENV4, rules.ENV1}[s]
}

// Envelope is ENV-1 to ENV-4: the body has the shape the interface gives the status.
func Envelope(op spec.Operation, status int, body []byte) []Violation {
	if RefusedInSuccess(op, status, body) {
		return InShape(Refusal, op, status, body)
	}
	return InShape(ShapeOf(status), op, status, body)
}

// RefusedInSuccess tells an answer that refuses the request in a 2xx status, with `error: true`,
// on an operation whose status codes the interface does not show (authenticate and the creates
// of master boards, cards, master groups, comments and tags, D209): the interface shows their
// bodies, whose `error` flag says whether the request failed, but not their codes, so a 200
// with `error: true` is a refusal, not a success, and the success schema does not judge it.
func RefusedInSuccess(op spec.Operation, status int, body []byte) bool {
	if op.CodesShown() || status < 200 || status > 299 {
		return false
	}
	obj, why := jsonObject(body)
	return why == "" && obj["error"] == true
}

// InShape judges body against shape s; a refusal of authenticate but its 429 (whose body the
// interface states apart) may carry `errors`, a list of strings, and `data`, besides `error` and
// `message`, whatever its status, as the interface lists both among authenticate's answer
// fields (D120, D209).
func InShape(s Shape, op spec.Operation, status int, body []byte) []Violation {
	if s == NoShape {
		return nil
	}
	obj, why := jsonObject(body)
	if why == "" {
		switch s {
		case Success:
			why = firstWhy(member(obj, "error", "a boolean", isBool), member(obj, "message", "a string", isString), member(obj, "data", "", isAnything))
		case Refusal:
			why = firstWhy(member(obj, "error", "a boolean", isBool), member(obj, "message", "a string", isString))
		case ShapeA:
			why = shapeA(obj)
		case ShapeB:
			why = shapeB(obj, authRefusal(op, status))
		case ShapeAOrB:
			if whyA, whyB := shapeA(obj), shapeB(obj, authRefusal(op, status)); whyA != "" && whyB != "" {
				why = "not shape (a): " + whyA + "; not shape (b): " + whyB
			}
		case ShapeC:
			why = shapeC(obj)
		}
	}
	if why == "" {
		return nil
	}
	return []Violation{{Rule: s.Rule(), Detail: fmt.Sprintf("%d answer: %s", status, why)}}
}

// KeyedBy is ERR-5 on a validation error in shape (c): `errors` names at least one field and,
// when the request breaks the rules of some of its fields (broken), one of those. Other keys are
// not judged: the interface leaves the keys' text open beyond the failed field.
func KeyedBy(body []byte, broken []string) []Violation {
	obj, _ := jsonObject(body)
	errs, _ := obj["errors"].(map[string]any)
	if len(errs) == 0 {
		return []Violation{{Rule: rules.ERR5, Detail: "`errors` names no field"}}
	}
	if len(broken) == 0 {
		return nil
	}
	for k := range errs {
		if slices.ContainsFunc(broken, func(f string) bool { return Names(k, f) }) {
			return nil
		}
	}
	return []Violation{{Rule: rules.ERR5, Detail: fmt.Sprintf("the request breaks the rules of %s, yet `errors` is keyed by %s", strings.Join(broken, ", "), strings.Join(sortedKeys(errs), ", "))}}
}

// RefusalKeyedBy is ERR-5 on a refusal that is no 422 of a request that breaks the rules of
// some of its fields (broken), on an operation whose codes are not shown: there any refusal of
// a field rule is the validation error (ERR-1, D209), so its `errors` is an object naming one
// of those fields, as a 422's would.
func RefusalKeyedBy(body []byte, broken []string) []Violation {
	obj, _ := jsonObject(body)
	if _, ok := obj["errors"].(map[string]any); !ok {
		what := "missing"
		if v, ok := obj["errors"]; ok {
			what = Kind(v) + ", not an object"
		}
		return []Violation{{Rule: rules.ERR5, Detail: fmt.Sprintf("the request breaks the rules of %s and is refused, yet `errors`, which names the failed fields, is %s", strings.Join(broken, ", "), what)}}
	}
	return KeyedBy(body, broken)
}

// Names reports whether the key of a validation error names field: the field itself, or a
// path into it ("title.0", "items[2]"), also written as the request body's location
// ("body.title", as FastAPI joins it) or as a JSON pointer ("/title", "/items/0"): the keys'
// text is not shown, only that they name the field (D121).
func Names(key, field string) bool {
	if strings.HasPrefix(key, "/") {
		key = strings.ReplaceAll(key[1:], "/", ".")
	}
	key = strings.TrimPrefix(key, "body.")
	return key == field || strings.HasPrefix(key, field+".") || strings.HasPrefix(key, field+"[")
}

// ErrorKeys lists the keys of the `errors` object of body, sorted.
func ErrorKeys(body []byte) []string {
	obj, _ := jsonObject(body)
	errs, _ := obj["errors"].(map[string]any)
	return sortedKeys(errs)
}

// jsonObject decodes a body that must be one JSON object.
func jsonObject(body []byte) (map[string]any, string) {
	if !utf8.Valid(body) { // JSON exchanged between systems is UTF-8 (RFC 8259, 8.1); a decoder would read U+FFFD
		return nil, "the body is not JSON: it is not valid UTF-8 text"
	}
	v, err := jsonone.Decode(body)
	if err != nil {
		return nil, "the body is not JSON"
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Sprintf("the body is %s, not a JSON object", Kind(v))
	}
	return obj, ""
}

// Kind names the JSON kind of a decoded value.
func Kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case json.Number, float64:
		return "a number"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// member checks that obj[key] exists and passes ok; it says why not.
func member(obj map[string]any, key, want string, ok func(any) bool) string {
	v, present := obj[key]
	switch {
	case !present:
		return fmt.Sprintf("`%s` is missing", key)
	case !ok(v):
		return fmt.Sprintf("`%s` is %s, not %s", key, Kind(v), want)
	}
	return ""
}

func isBool(v any) bool     { _, ok := v.(bool); return ok }
func isString(v any) bool   { _, ok := v.(string); return ok }
func isArray(v any) bool    { _, ok := v.([]any); return ok }
func isObject(v any) bool   { _, ok := v.(map[string]any); return ok }
func isAnything(_ any) bool { return true }

func isStrings(v any) bool {
	list, ok := v.([]any)
	return ok && !slices.ContainsFunc(list, func(e any) bool { return !isString(e) })
}

// firstWhy returns the first non-empty reason.
func firstWhy(whys ...string) string {
	for _, w := range whys {
		if w != "" {
			return w
		}
	}
	return ""
}

func shapeA(obj map[string]any) string {
	return firstWhy(member(obj, "error", "a boolean", isBool), member(obj, "message", "a string", isString), member(obj, "data", "an array", isArray))
}

// authRefusal tells a refusal of authenticate other than its rate limit: its body may carry
// authenticate's own `errors` and `data` (InShape).
func authRefusal(op spec.Operation, status int) bool {
	return op.ID == "authenticate" && status != http.StatusTooManyRequests
}

// shapeB is shape (b); authOwn allows authenticate's `errors`, a list of strings, and `data`
// besides (D120, D209).
func shapeB(obj map[string]any, authOwn bool) string {
	if why := firstWhy(member(obj, "error", "a boolean", isBool), member(obj, "message", "a string", isString)); why != "" {
		return why
	}
	var extra []string
	for k := range obj {
		if k != "error" && k != "message" && !(authOwn && (k == "errors" || k == "data")) {
			extra = append(extra, "`"+k+"`")
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		return "it has " + strings.Join(extra, ", ") + " besides `error` and `message`"
	}
	if _, sent := obj["errors"]; sent && authOwn {
		return member(obj, "errors", "a list of strings", isStrings)
	}
	return ""
}

// shapeC is shape (c): the interface gives `errors` a detail per failed field but not the
// detail's form, so any value passes (a list of sentences is our choice: ErrorsAsSentences).
func shapeC(obj map[string]any) string {
	return firstWhy(member(obj, "message", "a string", isString), member(obj, "errors", "an object", isObject))
}

// ErrorsAsSentences is REF-ERRORS on a validation error in shape (c): every value of `errors`
// is a list of sentences (D5).
func ErrorsAsSentences(body []byte) []Violation {
	obj, _ := jsonObject(body)
	errs, _ := obj["errors"].(map[string]any)
	for _, k := range sortedKeys(errs) {
		if list, _ := errs[k].([]any); !isStrings(errs[k]) || len(list) == 0 {
			return []Violation{{Rule: rules.REFERRORS, Detail: fmt.Sprintf("`errors.%s` is %s, not a list of sentences", k, Kind(errs[k]))}}
		}
	}
	return nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
