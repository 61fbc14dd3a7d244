// Package flow is the flow document: a recorded run of calls to the interface's operations
// (each step's operation, caller, request body and the answer's status and outline), with the
// ids it acts on written as references to a fixture manifest or to an earlier step's answer,
// so the run can be replayed against another deployment (D170). The mock writes flows (Build);
// the conformance suite reads (Parse, Load) and replays them (Bind). The package imports
// neither: the judge (conformance) and the judged (mockserver) share only this format.
package flow

import (
	_ "embed" // the document's JSON Schema ships with the package
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/opsapi/mocktoolkit/internal/text"
)

// Version is the format version a document names in its "flow" field.
const Version = 1

// Schema is conformance/flow/flow.schema.json, the JSON Schema of a flow document.
//
//go:embed flow.schema.json
var Schema []byte

// Who calls a step: the manifest's users by their role, nobody, or a bearer token the
// deployment does not accept (D171).
const (
	AsMember     = "member"
	AsSuperadmin = "superadmin"
	AsOutsider   = "outsider"
	AsTeammate   = "teammate" // the member's teammate: another user of the member's project
	AsNone       = "none"
	AsInvalid    = "invalid"
)

// Callers lists the values of Step.As.
var Callers = []string{AsMember, AsSuperadmin, AsOutsider, AsTeammate, AsNone, AsInvalid}

// Document is one flow.
type Document struct {
	// Flow is the format version (Version).
	Flow int `json:"flow"`
	// Name names the flow in reports (the spec's name when replayed).
	Name string `json:"name"`
	// Source says where it was recorded (e.g. the mock's world, seed and scenario).
	Source string `json:"source,omitempty"`
	// Note says what the recording left out (steps past its bound), when anything.
	Note  string `json:"note,omitempty"`
	Steps []Step `json:"steps"`
}

// Step is one call.
type Step struct {
	// Step is the step's number, 1 for the first.
	Step int `json:"step"`
	// Operation is the operationId of the OpenAPI document.
	Operation string `json:"operation"`
	// As is who calls (AsMember …); never a credential.
	As string `json:"as"`
	// Headers are the request headers that change the answer besides the bearer token:
	// Content-Type and Accept when they are not application/json; an empty value means the
	// request was sent without that header.
	Headers map[string]string `json:"headers,omitempty"`
	// Body is the request's JSON object; a value that is an object is a reference (Ref), or a
	// literal (Literal).
	Body map[string]any `json:"body,omitempty"`
	// RawBody is the request body as sent when it was not a JSON object (sent as it is).
	RawBody *string `json:"raw_body,omitempty"`
	// Answer is what the recording's deployment answered.
	Answer Answer `json:"answer"`
}

// Answer is a recorded answer: its status and the outline of its body (Outline), never its
// values.
type Answer struct {
	Status  int `json:"status"`
	Outline any `json:"outline"`
}

// Class is the status class of a status: "2xx", "4xx", "5xx" …
func Class(status int) string { return fmt.Sprintf("%dxx", status/100) }

// Ref is a reference in a request body: to the manifest (Manifest, a key path such as
// "websites.unapproved_version_id" or "domains.carts[0].item_ids[1]") or to the answer of an
// earlier step (Step and Path, such as 3 and "data.card.id").
type Ref struct {
	Manifest string `json:"manifest,omitempty"`
	Step     int    `json:"step,omitempty"`
	Path     string `json:"path,omitempty"`
}

// String renders the reference for messages, its key or path cut to 200 bytes (quote).
func (r Ref) String() string {
	if r.Manifest != "" {
		return "the manifest's " + quote(r.Manifest)
	}
	return fmt.Sprintf("step %d's answer at %s", r.Step, quote(r.Path))
}

// literalKey is the one key of a literal: {"literal": v} is v sent as it is. A client's body
// may hold an object where the operation wants a scalar (a refused request is recorded too),
// and a bare object in a body is read as a reference: {"title": {"manifest": "users.member.
// password"}} sent by a client would otherwise be replayed as the member's password.
const literalKey = "literal"

// Literal wraps a body value so it is sent as it is, whatever it holds.
func Literal(v any) map[string]any { return map[string]any{literalKey: v} }

// AsLiteral reads a body value written by Literal.
func AsLiteral(v any) (any, bool) {
	obj, isObj := v.(map[string]any)
	if !isObj || len(obj) != 1 {
		return nil, false
	}
	lit, has := obj[literalKey]
	return lit, has
}

// AsRef reads a body value as a reference: an object with exactly "manifest", or exactly
// "step" and "path". ok is false for any other value (a literal too); err says why an object
// is not one.
func AsRef(v any) (r Ref, isObject bool, err error) {
	obj, isObj := v.(map[string]any)
	if !isObj {
		return r, false, nil
	}
	if _, isLiteral := AsLiteral(v); isLiteral {
		return r, false, nil
	}
	if m, has := obj["manifest"]; has && len(obj) == 1 {
		s, isString := m.(string)
		if !isString || s == "" {
			return r, true, fmt.Errorf("a manifest reference names a key path (a non-empty string), not %s", clipped(m))
		}
		if err := checkPath(s); err != nil {
			return r, true, err
		}
		return Ref{Manifest: s}, true, nil
	}
	st, hasStep := obj["step"]
	p, hasPath := obj["path"]
	if hasStep && hasPath && len(obj) == 2 {
		n, isNum := toInt(st)
		s, isString := p.(string)
		if !isNum || n < 1 || !isString || s == "" {
			return r, true, fmt.Errorf("a step reference names a step number (1 or more) and a path (a non-empty string), not %s and %s", clipped(st), clipped(p))
		}
		if err := checkPath(s); err != nil {
			return r, true, err
		}
		return Ref{Step: n, Path: s}, true, nil
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return r, true, fmt.Errorf("an object in a body is a reference, {\"manifest\": key} or {\"step\": n, \"path\": p}, or a literal, {\"literal\": value}; this one has the keys %s", clipped(strings.Join(keys, ", ")))
}

// checkPath says why s is no key path a reference may name: a key stands between every two
// dots and after every dot, each index in brackets is a whole number from 0, in at most 9
// digits, and brackets come in pairs. Such a path names nothing in any manifest or answer, so
// the flow file is at fault, not the target's manifest ([-1] was reported as a key to add to
// it, and "..data..token" was looked up as data.token, a path the flow does not say).
func checkPath(s string) error {
	for i, key := range strings.Split(s, ".") {
		if key == "" || i > 0 && strings.HasPrefix(key, "[") {
			return fmt.Errorf("the key path %s has an empty segment (a dot at its start or end, two dots in a row, or a dot before a [): name a key after every dot", quote(s))
		}
	}
	for rest := s; ; {
		open := strings.IndexByte(rest, '[')
		if open < 0 {
			if strings.Contains(rest, "]") {
				return fmt.Errorf("the key path %s has a ] without its [", quote(s))
			}
			return nil
		}
		end := strings.IndexByte(rest[open:], ']')
		if end < 0 {
			return fmt.Errorf("the key path %s has a [ without its ]", quote(s))
		}
		idx := rest[open+1 : open+end]
		if idx == "" || len(idx) > 9 || strings.Trim(idx, "0123456789") != "" {
			return fmt.Errorf("the key path %s holds the index [%s]: an index is a whole number from 0", quote(s), text.Clip(idx, 40))
		}
		rest = rest[open+end+1:]
	}
}

func toInt(v any) (int, bool) {
	switch n := v.(type) {
	case float64:
		return int(n), n == float64(int(n))
	case json.Number:
		i, err := n.Int64()
		return int(i), err == nil
	case int:
		return n, true
	}
	return 0, false
}

// Outline is the shape of a JSON value without its values (D172): "string", "integer",
// "number", "boolean" or "null" for a scalar, an object of the keys' outlines, and for an
// array the outline of its first element in a one-element array ([] when empty). Past a
// depth of six it stops at "object" or "array".
func Outline(v any) any { return outline(v, 0) }

func outline(v any, depth int) any {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case float64:
		if x == float64(int64(x)) {
			return "integer"
		}
		return "number"
	case json.Number:
		if _, err := x.Int64(); err == nil {
			return "integer"
		}
		return "number"
	case map[string]any:
		if depth >= 6 {
			return "object"
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = outline(e, depth+1)
		}
		return out
	case []any:
		if depth >= 6 {
			return "array"
		}
		if len(x) == 0 {
			return []any{}
		}
		return []any{outline(x[0], depth+1)}
	}
	return fmt.Sprintf("%T", v)
}
