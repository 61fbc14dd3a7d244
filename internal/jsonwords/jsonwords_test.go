package jsonwords_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/internal/jsonwords"
)

// Each syntax error a hand-written JSON text commonly has is worded for its writer, never in
// the decoder's terms.
func TestSyntaxIsWordedForTheWriter(t *testing.T) {
	for doc, want := range map[string]string{
		strings.Repeat("[", 10001): "deeper than 10000 levels",
		`{"a":1} {}`:               "more follows the JSON value",
		`{"a": nul}`:               "not true, false or null",
		`{"a": 'x'}`:               "cannot start a JSON value",
		`{"a":1,}`:                 "where an object key belongs",
		`{"a" 1}`:                  "where a colon belongs",
		`{"a":1 "b":2}`:            "where a comma or } belongs",
		`[1 2]`:                    "where a comma or ] belongs",
		"{\"a\":\"x\ty\"}":         "control characters must be escaped",
		`{"a":"\q"}`:               "after a backslash",
		`{"a":"\u12g4"}`:           "four hexadecimal digits",
		`{"a":1.}`:                 "after a decimal point",
		`{"a":1e}`:                 "exponent",
		`{"a":-}`:                  "in a number",
	} {
		var v any
		err := json.Unmarshal([]byte(doc), &v)
		got := jsonwords.Syntax(err)
		if !strings.Contains(got, want) || strings.Contains(got, "looking for") || strings.Contains(got, "literal") || strings.Contains(got, "invalid character") {
			t.Errorf("%.40q: %q (from %v), want it to say %q", doc, got, err, want)
		}
	}
}
