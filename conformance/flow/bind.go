package flow

import (
	"encoding/json"
	"fmt"
	"sort"
)

// BindError is a reference of a step that the target's manifest or an earlier answer cannot
// give a value to.
type BindError struct {
	Flow  string
	Step  int
	Field string
	Ref   Ref
	Why   string
}

func (e *BindError) Error() string {
	return fmt.Sprintf("flow %q, step %d: field %q refers to %s, %s", e.Flow, e.Step, e.Field, e.Ref, e.Why)
}

// Bind returns the body of step st with its references replaced by values: manifest keys from
// manifest (any value that encodes to the target's manifest JSON), step references from
// answers (the decoded answers of the earlier steps, by step number). The error is a
// *BindError naming the flow, the step and the missing key.
func Bind(flowName string, st Step, manifest any, answers map[int]any) (map[string]any, error) {
	if st.Body == nil {
		return nil, nil
	}
	raw, err := json.Marshal(manifest)
	if err != nil {
		return nil, fmt.Errorf("flow %q, step %d: encode the manifest: %w", flowName, st.Step, err)
	}
	m := decode(raw)
	keys := make([]string, 0, len(st.Body))
	for k := range st.Body {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make(map[string]any, len(st.Body))
	for _, k := range keys {
		v := st.Body[k]
		if lit, ok := AsLiteral(v); ok {
			out[k] = lit
			continue
		}
		ref, isObject, err := AsRef(v)
		if err != nil {
			return nil, &BindError{Flow: flowName, Step: st.Step, Field: k, Why: err.Error()}
		}
		if !isObject {
			out[k] = v
			continue
		}
		val, why := resolve(ref, m, answers)
		if why != "" {
			return nil, &BindError{Flow: flowName, Step: st.Step, Field: k, Ref: ref, Why: why}
		}
		out[k] = val
	}
	return out, nil
}

// resolve finds a reference's value, or says why not.
func resolve(ref Ref, manifest any, answers map[int]any) (any, string) {
	if ref.Manifest != "" {
		v, ok := Lookup(manifest, ref.Manifest)
		if n, isNum := number(v); !ok || v == nil || v == "" || isNum && n < 1 {
			return nil, fmt.Sprintf("which the target's manifest does not have (add the key %q to the manifest)", ref.Manifest)
		}
		return v, ""
	}
	answer, ok := answers[ref.Step]
	if !ok {
		return nil, "which is not an earlier step that answered with a JSON body"
	}
	v, ok := Lookup(answer, ref.Path)
	if !ok || v == nil {
		return nil, fmt.Sprintf("which that answer does not have (its outline: %s)", compact(Outline(answer)))
	}
	return v, ""
}

func compact(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 600 {
		return string(b[:600]) + "…"
	}
	return string(b)
}
