// Package text holds the one helper that shortens a value quoted in a message, for every
// package that words one: a value a client sent may be of any length, and a message that quotes
// it must stay short and valid UTF-8.
package text

import "unicode/utf8"

// Clip returns s if it is at most n bytes long, else its first n bytes or fewer, cut at a
// character boundary, followed by "…".
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := max(n, 0)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
