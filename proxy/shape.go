package proxy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// checkShape is ENV-1 (success), ENV-2 (shape (a)), ENV-3 (shape (b); a 403 in (a) or (b)),
// ENV-4 (shape (c)) and ERR-5 (errors keyed by request fields): the envelope the interface gives
// the status, as the registry states it (`error` a boolean, as the suite checks it). Statuses it
// gives none (413, 502, ...) pass.
func checkShape(op *operation, status int, body []byte, broken []string) []Violation {
	obj, err := jsonObject(body)
	fail := func(id, why string) []Violation {
		return []Violation{violation(id, fmt.Sprintf("%d answer: %s", status, why))}
	}
	switch {
	case status >= 200 && status < 300:
		if err != nil {
			return fail(ShapeSuccess, err.Error())
		}
		return failIf(fail, ShapeSuccess, successShape(obj))
	case status == 400 || status == 404 || status == 409 || status == 500:
		if err != nil {
			return fail(ShapeA, err.Error())
		}
		return failIf(fail, ShapeA, shapeA(obj))
	case status == 401 || status == 429:
		if err != nil {
			return fail(ShapeB, err.Error())
		}
		return failIf(fail, ShapeB, shapeB(obj, op.id == "authenticate"))
	case status == 403:
		if err != nil {
			return fail(ShapeAOrB, err.Error())
		}
		whyA, whyB := shapeA(obj), shapeB(obj, false)
		if whyA != "" && whyB != "" {
			return fail(ShapeAOrB, "not shape (a): "+whyA+"; not shape (b): "+whyB)
		}
	case status == 422:
		if err != nil {
			return fail(ShapeC, err.Error())
		}
		if why := shapeC(obj); why != "" {
			return fail(ShapeC, why)
		}
		return failIf(fail, ErrorsByField, byField(obj, op, broken))
	}
	return nil
}

// failIf reports rule id when why is not empty.
func failIf(fail func(id, why string) []Violation, id, why string) []Violation {
	if why == "" {
		return nil
	}
	return fail(id, why)
}

// jsonObject decodes a body that must be one JSON object.
func jsonObject(body []byte) (map[string]any, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil || dec.More() {
		return nil, fmt.Errorf("the body is not JSON")
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the body is %s, not a JSON object", kind(v))
	}
	return obj, nil
}

// kind names the JSON kind of v.
func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case json.Number:
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
		return fmt.Sprintf("`%s` is %s, not %s", key, kind(v), want)
	}
	return ""
}

func isBool(v any) bool     { _, ok := v.(bool); return ok }
func isString(v any) bool   { _, ok := v.(string); return ok }
func isArray(v any) bool    { _, ok := v.([]any); return ok }
func isObject(v any) bool   { _, ok := v.(map[string]any); return ok }
func isAnything(_ any) bool { return true }

// firstWhy returns the first non-empty reason.
func firstWhy(whys ...string) string {
	for _, w := range whys {
		if w != "" {
			return w
		}
	}
	return ""
}

func successShape(obj map[string]any) string {
	return firstWhy(member(obj, "error", "a boolean", isBool), member(obj, "message", "a string", isString), member(obj, "data", "", isAnything))
}

func shapeA(obj map[string]any) string {
	return firstWhy(member(obj, "error", "a boolean", isBool), member(obj, "message", "a string", isString), member(obj, "data", "an array", isArray))
}

// shapeB allows `errors` besides `error` and `message` on authenticate, whose answer fields
// the interface lists with an `errors` list (D93).
func shapeB(obj map[string]any, authenticate bool) string {
	if why := firstWhy(member(obj, "error", "a boolean", isBool), member(obj, "message", "a string", isString)); why != "" {
		return why
	}
	var extra []string
	for k := range obj {
		if k != "error" && k != "message" && !(authenticate && k == "errors") {
			extra = append(extra, "`"+k+"`")
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		return "it has " + strings.Join(extra, ", ") + " besides `error` and `message`"
	}
	return ""
}

func shapeC(obj map[string]any) string {
	if why := firstWhy(member(obj, "message", "a string", isString), member(obj, "errors", "an object", isObject)); why != "" {
		return why
	}
	errs := obj["errors"].(map[string]any)
	keys := sortedKeys(errs)
	for _, k := range keys {
		list, ok := errs[k].([]any)
		if !ok {
			return fmt.Sprintf("`errors.%s` is %s, not a list of strings", k, kind(errs[k]))
		}
		for _, item := range list {
			if !isString(item) {
				return fmt.Sprintf("`errors.%s` holds %s, not only strings", k, kind(item))
			}
		}
	}
	return ""
}

// byField is ERR-5: a validation error names at least one field, and, when the request breaks
// the rules of some of its fields (as the proxy's own validation finds), one of those. Other
// keys are not judged: the interface leaves the text of the keys open beyond the failed field.
func byField(obj map[string]any, op *operation, broken []string) string {
	errs := obj["errors"].(map[string]any)
	if len(errs) == 0 {
		return "`errors` names no field"
	}
	if len(broken) == 0 {
		return ""
	}
	for k := range errs {
		field, _, _ := strings.Cut(k, ".")
		field, _, _ = strings.Cut(field, "[")
		if slices.Contains(broken, field) {
			return ""
		}
	}
	return fmt.Sprintf("the request breaks the rules of %s, yet `errors` is keyed by %s", strings.Join(broken, ", "), strings.Join(sortedKeys(errs), ", "))
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
