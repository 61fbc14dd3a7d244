package nearmiss

import (
	"strings"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// An AuthForm is an Authorization header built from the member's bearer token that a deployment
// answers 401, and the rule that says so. The suite's probes and explore mode send the same
// forms, so that what one judges the other generates.
type AuthForm struct {
	What   string                  // the header in words
	Rule   rules.ID                // AUTH-6 (a wrong form) or AUTH-2 (a token the deployment did not issue)
	Header func(tok string) string // the header's value
	Go     string                  // Header as a Go expression of tok, for a reproduction in the suite's package (which dot-imports conformance)
	// Shell is Header as a word of a POSIX shell script inside double quotes; {v} stands for the
	// name of the variable holding the token (so "${v}" is the token).
	Shell string
}

// ShellOf is the form's header as a shell word reading the token from variable v.
func (f AuthForm) ShellOf(v string) string { return strings.ReplaceAll(f.Shell, "{v}", v) }

// WrongAuthForms send the member's token in a form other than `Bearer <token>` (AUTH-6).
var WrongAuthForms = []AuthForm{
	{"the member's token without the Bearer scheme", rules.AUTH6, func(tok string) string { return tok }, "tok", "${v}"},
	{"the member's token under the Basic scheme", rules.AUTH6, func(tok string) string { return "Basic " + tok }, `"Basic " + tok`, "Basic ${v}"},
	{"the member's token under the Token scheme", rules.AUTH6, func(tok string) string { return "Token " + tok }, `"Token " + tok`, "Token ${v}"},
	{"the Bearer scheme with no token", rules.AUTH6, func(string) string { return "Bearer" }, `func() string { _ = tok; return "Bearer" }()`, "Bearer"},
	{"the member's token after the scheme twice", rules.AUTH6, func(tok string) string { return "Bearer Bearer " + tok }, `"Bearer Bearer " + tok`, "Bearer Bearer ${v}"},
}

// AlteredTokens are bearer tokens the deployment did not issue, made from the member's: each
// one a deployment that compares only a token's start (a column that truncates, bcrypt's 72
// bytes, a LIKE 'prefix%' lookup) would take. Two characters are changed, not one: the last
// character of a base64 segment may differ in bits a decoder ignores (AUTH-2).
var AlteredTokens = []AuthForm{
	{"the member's token cut to its first half", rules.AUTH2, func(tok string) string { return "Bearer " + tok[:len(tok)/2] }, `"Bearer " + tok[:len(tok)/2]`,
		"Bearer $(printf '%s' \"${v}\" | cut -c1-$((${#{v}} / 2)))"},
	{"the member's token with characters added", rules.AUTH2, func(tok string) string { return "Bearer " + tok + "x0" }, `"Bearer " + tok + "x0"`, "Bearer ${{v}}x0"},
	{"the member's token with two characters in its middle changed", rules.AUTH2, func(tok string) string { return "Bearer " + changeMiddle(tok) },
		"func() string { b := []byte(tok); for i := len(b) / 2; i < min(len(b), len(b)/2+2); i++ { if b[i] >= '0' && b[i] <= '9' { b[i] = 'Q' } else { b[i] = '7' } }; return \"Bearer \" + string(b) }()",
		"Bearer $(printf '%s' \"${v}\" | awk '{m = int(length($0) / 2); s = \"\"; for (i = 1; i <= length($0); i++) { c = substr($0, i, 1); if (i > m && i <= m + 2) c = (c ~ /[0-9]/) ? \"Q\" : \"7\"; s = s c }; print s}')"},
}

// changeMiddle changes the two characters in the middle of tok (the one, in a token of one)
// to characters of another kind: a letter for a digit, a digit for any other.
func changeMiddle(tok string) string {
	b := []byte(tok)
	for i := len(b) / 2; i < min(len(b), len(b)/2+2); i++ {
		if b[i] >= '0' && b[i] <= '9' {
			b[i] = 'Q'
		} else {
			b[i] = '7'
		}
	}
	return string(b)
}

// StrayAuthForms are Authorization headers a public operation does not take and answers as
// it does without them (AUTH-7).
var StrayAuthForms = []AuthForm{
	{"an unknown bearer token", rules.AUTH7, func(string) string { return "Bearer " + conformance.BadToken }, `func() string { _ = tok; return "Bearer " + conformance.BadToken }()`, "Bearer " + conformance.BadToken},
	{"the member's bearer token", rules.AUTH7, func(tok string) string { return "Bearer " + tok }, `"Bearer " + tok`, "Bearer ${v}"},
	{"a malformed Authorization header", rules.AUTH7, func(string) string { return "Basic x" }, `func() string { _ = tok; return "Basic x" }()`, "Basic x"},
}
