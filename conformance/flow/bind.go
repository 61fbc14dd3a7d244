package flow

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/opsapi/mocktoolkit/internal/redact"
	"github.com/opsapi/mocktoolkit/internal/text"
)

// BindError is a reference of a step that the target's manifest or an earlier answer cannot
// give a value to.
type BindError struct {
	Flow  string
	Step  int
	Field string
	Ref   Ref
	Why   string
	// Target is set when an earlier answer of the target, judged by the suite already, does not
	// hold what the recording picked from the mock's (a list with fewer entries, a record
	// without that field, an object where a value was): the target differs where the interface
	// lets it, so the flow cannot be replayed there, which says nothing against the target.
	Target bool
}

// Error quotes the flow's name, the field and the reference cut (quote), as the reasons do.
func (e *BindError) Error() string {
	if e.Ref == (Ref{}) { // an object that is no reference refers to nothing
		return fmt.Sprintf("flow %s, step %d: field %s: %s", quote(e.Flow), e.Step, quote(e.Field), e.Why)
	}
	return fmt.Sprintf("flow %s, step %d: field %s refers to %s, %s", quote(e.Flow), e.Step, quote(e.Field), e.Ref, e.Why)
}

// Bind returns the body of step st with its references replaced by values: manifest keys from
// manifest (any value that encodes to the target's manifest JSON), step references from
// answers (the decoded answers of the earlier steps, by step number). The error is a
// *BindError naming the flow, the step and the missing key.
func Bind(flowName string, st Step, manifest any, answers map[int]any) (map[string]any, error) {
	if st.Body == nil {
		return nil, nil
	}
	m, err := plainManifest(manifest)
	if err != nil {
		return nil, fmt.Errorf("flow %s, step %d: %w", quote(flowName), st.Step, err)
	}
	out := make(map[string]any, len(st.Body))
	for _, k := range sortedKeys(st.Body) {
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
		val, why := bindRef(k, ref, m, answers)
		if why != "" {
			_, inAnswer := answers[ref.Step]
			return nil, &BindError{Flow: flowName, Step: st.Step, Field: k, Ref: ref, Why: why, Target: ref.Manifest == "" && inAnswer && !redact.IsSecretName(lastName(ref.Path))}
		}
		out[k] = val
	}
	return out, nil
}

// CheckManifest binds every manifest reference of doc's steps before any is sent, so a flow
// that names a key the target's manifest lacks, or puts a credential where none belongs,
// fails before its first request rather than half-way through.
func CheckManifest(doc Document, manifest any) error {
	m, err := plainManifest(manifest)
	if err != nil {
		return fmt.Errorf("flow %s: %w", quote(doc.Name), err)
	}
	for _, st := range doc.Steps {
		for _, k := range sortedKeys(st.Body) {
			ref, isObject, err := AsRef(st.Body[k])
			if _, lit := AsLiteral(st.Body[k]); lit || err != nil || !isObject || ref.Manifest == "" {
				continue // literals, and step references, which bind when their step comes
			}
			if _, why := bindRef(k, ref, m, nil); why != "" {
				return &BindError{Flow: doc.Name, Step: st.Step, Field: k, Ref: ref, Why: why}
			}
		}
	}
	return nil
}

// plainManifest is the manifest as decoded JSON, as references read it.
func plainManifest(manifest any) (any, error) {
	raw, err := json.Marshal(manifest)
	if err != nil {
		return nil, fmt.Errorf("encode the manifest: %w", err)
	}
	return decode(raw), nil
}

// bindRef is the value ref gives field, or why it gives none (resolve, then fitsField).
func bindRef(field string, ref Ref, manifest any, answers map[int]any) (any, string) {
	val, why := resolve(ref, manifest, answers)
	if why == "" {
		why = fitsField(field, ref, val)
	}
	return val, why
}

// fitsField says why val, bound from ref, may not stand in field ("" when it may): a body field
// of the API takes one value, never an object or a list of the manifest or of an answer; and a
// credential of the manifest (a password, a token), or one an earlier answer gave (a login's
// token), goes only into a field that takes one, so a flow cannot post the target's own
// passwords or live tokens as a comment or a title, where the reports would show them.
func fitsField(field string, ref Ref, val any) string {
	switch val.(type) {
	case map[string]any, []any:
		return "which names an object or a list, not one value a field takes"
	}
	if ref.Manifest != "" && redact.IsSecretName(lastName(ref.Manifest)) && !redact.IsSecretName(field) {
		return "a credential of the manifest, which only a credential's field (password, session_token) may carry"
	}
	if ref.Manifest == "" && redact.IsSecretName(lastName(ref.Path)) && !redact.IsSecretName(field) {
		return "a credential an earlier answer gave (a token), which only a credential's field (token, session_token) may carry: sent as text it would show in every report"
	}
	return ""
}

// lastName is the last name of a key path ("users.member.password" → "password",
// "domains.carts[0].session_token" → "session_token").
func lastName(path string) string {
	if i := strings.LastIndexAny(path, ".]"); i >= 0 {
		path = path[i+1:]
	}
	return strings.TrimPrefix(path, ".")
}

// resolve finds a reference's value, or says why not.
func resolve(ref Ref, manifest any, answers map[int]any) (any, string) {
	if ref.Manifest != "" {
		v, ok := Lookup(manifest, ref.Manifest)
		if n, isNum := number(v); !ok || v == nil || v == "" || isNum && n < 1 {
			return nil, fmt.Sprintf("which the target's manifest does not have (add the key %s to the manifest)", quote(ref.Manifest))
		}
		return v, ""
	}
	answer, ok := answers[ref.Step]
	if !ok {
		return nil, "which is not an earlier step that answered with a JSON body"
	}
	v, ok := Lookup(answer, ref.Path)
	if !ok || v == nil {
		if list, n, at, short := shortList(answer, ref.Path); short {
			return nil, fmt.Sprintf("which that answer does not have: its %s holds %d entries, and the recording picked entry %d of the mock's (a flow binds a record chosen from a list by its place in the list)", list, n, at+1)
		}
		return nil, fmt.Sprintf("which that answer does not have (its outline: %s)", compact(Outline(answer)))
	}
	return v, ""
}

// shortList finds, on path, the list of v too short for the index path names: the list's key
// path, its length and the index (short false when the path fails otherwise).
func shortList(v any, path string) (list string, n, at int, short bool) {
	cur, walked := v, ""
	for _, key := range splitPath(path) {
		switch x := cur.(type) {
		case map[string]any:
			cur, walked = x[key], strings.TrimPrefix(walked+"."+key, ".")
		case []any:
			i, err := strconv.Atoi(key)
			if err != nil || i < 0 {
				return "", 0, 0, false
			}
			if i >= len(x) {
				return walked, len(x), i, true
			}
			cur, walked = x[i], walked+"["+key+"]"
		default:
			return "", 0, 0, false
		}
	}
	return "", 0, 0, false
}

// compact is v as one line of JSON, cut to 600 bytes at a character boundary, with the
// characters a terminal does not show as themselves written as JSON escapes ("\u202e"): an
// answer's outline holds the target's keys, and encoding/json leaves DEL, the C1 controls and
// the bidirectional controls as they are, which would reorder or rewrite the failure around
// them.
func compact(v any) string {
	b, _ := json.Marshal(v)
	return escapeHidden(text.Clip(string(b), 600))
}

// escapeHidden writes the characters of s that hidden tells as \uXXXX.
func escapeHidden(s string) string {
	if !strings.ContainsFunc(s, hidden) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if hidden(r) {
			fmt.Fprintf(&b, "\\u%04x", r)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// hidden tells a character a terminal or a page does not show as itself: a control character
// or a bidirectional control (U+202E and its kin), as the suite tells the characters of an
// answer it escapes (the suite imports this package, not the reverse).
func hidden(r rune) bool {
	return r < ' ' || r == 0x7f || r >= 0x80 && r < 0xa0 || unicode.Is(unicode.Bidi_Control, r)
}
