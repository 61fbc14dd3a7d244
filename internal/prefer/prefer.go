// Package prefer reads the `Prefer: code=NNN` header (Prism's convention) a client sends to
// force one answer of a mock: the mock reads it, and the checker knows a mock's refusal of a
// code the operation does not list is the client's doing, not an answer of the API.
package prefer

import (
	"net/http"
	"strings"
)

// Code finds the code preference among every Prefer header, split on commas and semicolons,
// as sent (it may not be a number).
func Code(h http.Header) (string, bool) {
	for _, v := range h.Values("Prefer") {
		for _, part := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ';' }) {
			k, val, ok := strings.Cut(strings.TrimSpace(part), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "code") {
				return strings.Trim(strings.TrimSpace(val), `"`), true
			}
		}
	}
	return "", false
}
