package conformance

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/opsapi/mocktoolkit/conformance/check"
	"github.com/opsapi/mocktoolkit/internal/jsonnest"
	"github.com/opsapi/mocktoolkit/internal/jsonone"
	"github.com/opsapi/mocktoolkit/internal/redact"
	"github.com/opsapi/mocktoolkit/spec"
)

// Get returns the value at a dotted path of the answer's JSON (e.g. "data.card.status",
// "data.cart.items.0.id") and whether it is there.
func (ex *Exchange) Get(path string) (any, bool) {
	var cur any = ex.JSON
	if ex.JSON == nil {
		return nil, false
	}
	for _, key := range strings.Split(path, ".") {
		switch v := cur.(type) {
		case map[string]any:
			next, ok := v[key]
			if !ok {
				return nil, false
			}
			cur = next
		case []any:
			i, err := strconv.Atoi(key)
			if err != nil || i < 0 || i >= len(v) {
				return nil, false
			}
			cur = v[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// Int returns the integer at path (a JSON number without fraction).
func (ex *Exchange) Int(path string) (int64, bool) {
	v, ok := ex.Get(path)
	if !ok {
		return 0, false
	}
	return Integer(v)
}

// Number reads a JSON number of an answer (json.Number, as the suite decodes answers; float64
// too) as a float64.
func Number(v any) (float64, bool) {
	switch n := v.(type) {
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	case float64:
		return n, true
	}
	return 0, false
}

// Integer reads a JSON number of an answer as an int64, exactly, when it is whole and fits
// (5, 5.0 and 5e0 are 5; an id past 2^53 keeps its digits).
func Integer(v any) (int64, bool) {
	switch n := v.(type) {
	case json.Number:
		if i, err := n.Int64(); err == nil {
			return i, true
		}
		f, err := n.Float64()
		if err != nil || f != math.Trunc(f) || math.Abs(f) >= 1<<63 {
			return 0, false
		}
		return int64(f), true
	case float64:
		if n != math.Trunc(n) || math.Abs(n) >= 1<<63 {
			return 0, false
		}
		return int64(n), true
	}
	return 0, false
}

// String returns the string at path.
func (ex *Exchange) String(path string) (string, bool) {
	v, ok := ex.Get(path)
	s, isString := v.(string)
	return s, ok && isString
}

// Objects returns the JSON objects of the array at path (non-objects are left out).
func (ex *Exchange) Objects(path string) []map[string]any {
	v, _ := ex.Get(path)
	arr, _ := v.([]any)
	out := make([]map[string]any, 0, len(arr))
	for _, e := range arr {
		if o, ok := e.(map[string]any); ok {
			out = append(out, o)
		}
	}
	return out
}

// HeaderInt returns the integer value of header name.
func (ex *Exchange) HeaderInt(name string) (int64, bool) {
	vals := ex.Header.Values(name)
	if len(vals) != 1 {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(vals[0]), 10, 64)
	return n, err == nil
}

var (
	secretFields = regexp.MustCompile(`("(?:password|token)"\s*:\s*)"(?:[^"\\]|\\.)*"`)
	bearerText   = regexp.MustCompile(`(?i)(Bearer )([A-Za-z0-9._~+/=-]{8,})`)
)

// reportSecrets are the manifest's credential values (its users' passwords, cart tokens),
// noted when it is loaded, and every bearer token the suite sends (Client.Send): a report never
// shows one, whatever field carries it (a flow may bind a password into a title).
var reportSecrets = redact.NewKnown(0)

// Redact hides credentials in a text meant for a report: passwords and tokens in JSON, a
// bearer token quoted anywhere, and the manifest's credentials wherever they stand.
func Redact(s string) string {
	s = secretFields.ReplaceAllString(s, `$1"<redacted>"`)
	return reportSecrets.Replace(bearerText.ReplaceAllString(s, "${1}<redacted>"))
}

// redactJSON hides passwords and tokens in a JSON text, as Redact does a text.
func redactJSON(b []byte) string { return Redact(string(b)) }

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + fmt.Sprintf("… (%d bytes in all)", len(s))
}

// maxPretty and maxPrettyDepth bound the answers a failure message indents.
const (
	maxPretty      = 1 << 20
	maxPrettyDepth = 64
)

// tooDeep tells an answer nested deeper than a failure message indents.
func tooDeep(b []byte) bool {
	return len(b) > 2*maxPrettyDepth && jsonnest.Nesting(b) > maxPrettyDepth
}

// prettyJSON indents b for a failure message, numbers as written: an id past 2^53 is shown with
// its own digits, not float64's.
func prettyJSON(b []byte) string {
	if len(b) > maxPretty || tooDeep(b) {
		// Shown as it came: indenting costs the square of the depth (an answer of 20 KB nested
		// 9999 deep made 200 MB of spaces, and 11 s a failing spec) for the 3000 bytes shown.
		return string(b)
	}
	v, err := jsonone.Decode(b)
	if err != nil {
		return string(b)
	}
	out, err := json.MarshalIndent(v, "    ", "  ")
	if err != nil {
		return string(b)
	}
	return string(out)
}

func headerLines(h http.Header, redactAuth, as string) string {
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, k := range names {
		for _, v := range h[k] {
			if redactAuth != "" && strings.EqualFold(k, "Authorization") {
				switch {
				case v == "Bearer "+BadToken:
					v = "Bearer <an invalid token>"
				case strings.HasPrefix(v, "Bearer "):
					v = "Bearer <the token of " + as + ", redacted>"
				default:
					v = "<redacted: " + as + ">"
				}
			}
			fmt.Fprintf(&b, "    %s: %s\n", k, v)
		}
	}
	return b.String()
}

// Describe renders the exchange for a failure message: the operation, the request sent
// (credentials redacted) and the answer received.
func (ex *Exchange) Describe() string {
	if ex == nil {
		return "(no exchange)"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "operation %d %s\n", ex.Op.N, ex.Op.ID)
	who := ex.As
	if who == "" {
		who = "the caller"
	}
	fmt.Fprintf(&b, "  request: POST %s (as %s)\n", ex.URL, who)
	b.WriteString(headerLines(ex.ReqHeader, "yes", who))
	fmt.Fprintf(&b, "    %s\n", truncate(redactJSON([]byte(prettyJSON(ex.ReqBody))), 1500))
	if ex.Retries > 0 {
		fmt.Fprintf(&b, "  (sent %d more times after waiting out 429 answers)\n", ex.Retries)
	}
	if ex.Status == 0 {
		b.WriteString("  answer: none\n")
		return b.String()
	}
	fmt.Fprintf(&b, "  answer: %d %s\n", ex.Status, http.StatusText(ex.Status))
	shown := http.Header{}
	for _, k := range []string{"Content-Type", "X-Ratelimit-Limit", "X-Ratelimit-Remaining", "Retry-After"} {
		if v, ok := ex.Header[k]; ok {
			shown[k] = v
		}
	}
	b.WriteString(headerLines(shown, "", ""))
	if ex.pruned {
		fmt.Fprintf(&b, "    (the body nests past %d levels, deeper than JSON readers read: shown and judged with what lies below %d levels as null)\n", spec.MaxDepth, check.PrunedDepth)
	}
	fmt.Fprintf(&b, "    %s\n", truncate(redactJSON([]byte(prettyAnswer(ex.Body, 3000))), 3000))
	return printable(b.String())
}

// prettyAnswer is prettyJSON, with the long lists of an answer longer than limit shown by
// their first entries only: cut at the limit, a page of comments hid the pagination after it,
// the very field a failure was about.
func prettyAnswer(b []byte, limit int) string {
	out := prettyJSON(b)
	if len(out) <= limit || len(b) > maxPretty || tooDeep(b) {
		return out // shown as it came when prettyJSON shows it so
	}
	v, err := jsonone.Decode(b)
	if err != nil {
		return out
	}
	short, err := json.MarshalIndent(elideLists(v, 0), "    ", "  ")
	if err != nil {
		return out
	}
	return string(short)
}

// elideLists keeps the first two entries of every list of more than three in v, and a note of
// how many more there are.
func elideLists(v any, depth int) any {
	if depth > maxPrettyDepth {
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = elideLists(e, depth+1)
		}
		return out
	case []any:
		if len(x) > 3 {
			return []any{elideLists(x[0], depth+1), elideLists(x[1], depth+1), fmt.Sprintf("… %d more entries, not shown", len(x)-2)}
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = elideLists(e, depth+1)
		}
		return out
	}
	return v
}

// printable writes the control characters of a deployment's text as escapes ("\x1b", "\u202e"), and
// bytes that are not UTF-8 as U+FFFD, so an answer cannot recolour, clear or rewrite the
// terminal or CI log a failure is printed to; line ends and tabs stay.
func printable(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || hidden(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case hidden(r) && r < 0x100:
			fmt.Fprintf(&b, "\\x%02x", r)
		case hidden(r):
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// hidden tells a character a terminal or a page does not show as itself: a control character
// (but newline and tab), or a bidirectional control (U+202E and its kin), with which a
// deployment's text would reorder how the failure around it reads.
func hidden(r rune) bool {
	return r < ' ' && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0 || unicode.Is(unicode.Bidi_Control, r)
}
