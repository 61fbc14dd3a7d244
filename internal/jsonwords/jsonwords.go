// Package jsonwords words the syntax errors of encoding/json for the people who wrote the JSON:
// what is wrong where, not the decoder's state machine ("invalid character 'o' in literal null
// (expecting 'u')"). The mock's bodies and snapshots, the state file and flow files share it.
package jsonwords

import (
	"encoding/json"
	"regexp"
	"strings"
)

// rewrites map encoding/json's syntax messages to ours, by pattern; $1 is the character quoted.
var rewrites = []struct {
	pattern *regexp.Regexp
	words   string
}{
	{regexp.MustCompile(`^.*exceeded max depth$`), "it nests arrays and objects deeper than 10000 levels"},
	{regexp.MustCompile(`^invalid character (.+) after top-level value$`), "more follows the JSON value: $1 after its end (one value per body)"},
	{regexp.MustCompile(`^invalid character (.+) looking for beginning of value$`), "$1 cannot start a JSON value (strings take double quotes; true, false and null are lower case)"},
	{regexp.MustCompile(`^invalid character (.+) in literal (true|false|null) \(expecting .+\)$`), "$1 in a word that is not true, false or null (strings take double quotes)"},
	{regexp.MustCompile(`^invalid character (.+) looking for beginning of object key string$`), "$1 where an object key belongs: keys are strings in double quotes, and no comma comes before }"},
	{regexp.MustCompile(`^invalid character (.+) after object key$`), "$1 after an object key, where a colon belongs"},
	{regexp.MustCompile(`^invalid character (.+) after object key:value pair$`), "$1 after an object member, where a comma or } belongs"},
	{regexp.MustCompile(`^invalid character (.+) after array element$`), "$1 after an array element, where a comma or ] belongs"},
	{regexp.MustCompile(`^invalid character (.+) in string literal$`), "$1 inside a string: control characters must be escaped (\\n, \\t, \\u0000)"},
	{regexp.MustCompile(`^invalid character (.+) in string escape code$`), "$1 after a backslash in a string: escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX"},
	{regexp.MustCompile(`^invalid character (.+) in \\u hexadecimal character escape$`), "$1 in a \\u escape, which takes four hexadecimal digits"},
	{regexp.MustCompile(`^invalid character (.+) after decimal point in numeric literal$`), "$1 after a decimal point, where a digit belongs"},
	{regexp.MustCompile(`^invalid character (.+) in exponent of numeric literal$`), "$1 in a number's exponent, where a digit belongs"},
	{regexp.MustCompile(`^invalid character (.+) in numeric literal$`), "$1 in a number"},
	{regexp.MustCompile(`^unexpected end of JSON input$`), "the JSON ends before its value does"},
}

// Syntax words a syntax error of encoding/json; any other error keeps its text, less the
// "json: " prefix.
func Syntax(err error) string {
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if _, ok := err.(*json.SyntaxError); !ok {
		return msg
	}
	for _, r := range rewrites {
		if r.pattern.MatchString(msg) {
			return r.pattern.ReplaceAllString(msg, r.words)
		}
	}
	return msg
}
