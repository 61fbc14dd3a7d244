// Package prefer reads the `Prefer: code=NNN` header (Prism's convention) a client sends to
// force one answer of a mock: the mock reads it, and the checker knows a mock's refusal of a
// code the operation does not list is the client's doing, not an answer of the API.
package prefer

import (
	"net/http"
	"slices"
	"strings"
)

// Refused is the header a mock marks its own 400 with when it refuses how a client asked to
// steer it: RefusedCode for a code preference it cannot force, RefusedWorld for a world it
// cannot serve (X-Mock-World). The checker excuses only a 400 so marked: a deployment ignores
// Prefer (it is advisory), so its 400 to a request carrying one is its own answer, and judged.
// RefusedCapacity marks a 400 for a bound of the mock's own (--max-records, --max-state-mb, the
// id ceiling): the mock's flows leave such calls out; the checker judges it as any 400, since
// nothing in the request asked for it.
const (
	Refused         = "X-Mock-Refused"
	RefusedCode     = "prefer"
	RefusedWorld    = "world"
	RefusedCapacity = "capacity"
)

// WorldBuild is the header a mock marks each operation's answer with: which build of the
// world's records answered (a number that changes whenever they are replaced: the world made,
// made again after it was dropped, reset, or loaded from a snapshot). A checker that follows a
// caller's exchanges forgets them when it changes, whoever replaced the records (D123).
const WorldBuild = "X-Mock-World-Build"

// Code finds the code preference among every Prefer header, split on commas and semicolons,
// as sent (it may not be a number). Codes that differ are all given, joined by " and ", which
// is no number: a mock refuses them as one code it cannot force, rather than pick one.
func Code(h http.Header) (string, bool) {
	var codes []string
	for _, v := range h.Values("Prefer") {
		for _, part := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ';' }) {
			k, val, ok := strings.Cut(strings.TrimSpace(part), "=")
			if code := strings.Trim(strings.TrimSpace(val), `"`); ok && strings.EqualFold(strings.TrimSpace(k), "code") && !slices.Contains(codes, code) {
				codes = append(codes, code)
			}
		}
	}
	return strings.Join(codes, " and "), len(codes) > 0
}

// Status reads a code preference as a status: exactly three digits as a status is written
// ("500"), so "+500", "0500" and " 500" name no status a mock could force (strconv.Atoi read
// them as 500).
func Status(code string) (int, bool) {
	if len(code) != 3 {
		return 0, false
	}
	n := 0
	for i := range 3 {
		c := code[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, n >= 100
}

// Forceable reports whether a mock forces code, of the codes declared for an operation: every
// one but 413, which only a body past the size limit answers (D60). A mock answers any other
// code with 400, which is the client's misuse, not an answer of the API.
func Forceable(declared []int, code int) bool {
	return code != http.StatusRequestEntityTooLarge && slices.Contains(declared, code)
}
