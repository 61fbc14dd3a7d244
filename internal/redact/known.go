package redact

import (
	"bytes"
	"container/list"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Placeholder stands for every credential the toolkit removes, by name or by value: in the
// journals, the proxy's recordings and the flows (D64, D97, D171, D196, D200).
const Placeholder = redacted

// DefaultKnownLimit is how many credential values a Known keeps when NewKnown is given 0.
const DefaultKnownLimit = 1024

// MinKnownLength is the shortest value a Known keeps, in characters (Distinctive).
const MinKnownLength = 8

// Distinctive tells a credential value a Known keeps from one that could be ordinary text (D200):
// at least 16 characters, or at least MinKnownLength of two kinds among letters, digits and
// other signs (spaces aside). A word ("password", "data", "Organized"), a number or a phrase of
// words was blanked wherever it stood, JSON keys included, once a client sent it as a wrong
// password; such a value is still redacted where it is sent, by its name (D64).
func Distinctive(v string) bool {
	n := utf8.RuneCountInString(v)
	if n >= 16 {
		return true
	}
	if n < MinKnownLength {
		return false
	}
	var letter, digit, other bool
	for _, r := range v {
		switch {
		case unicode.IsLetter(r):
			letter = true
		case unicode.IsDigit(r):
			digit = true
		case !unicode.IsSpace(r):
			other = true
		}
	}
	kinds := 0
	for _, k := range []bool{letter, digit, other} {
		if k {
			kinds++
		}
	}
	return kinds >= 2
}

// MaxKnownValue is how much of a value a Known keeps, in bytes: a longer one (a header of half
// a megabyte) is kept by its start, which still breaks any quote of it; MaxKnownBytes bounds
// the values kept in all, the oldest going first. Building the replacer costs time in the
// bytes it holds, once per change of the set: without these bounds a client sending large
// distinct tokens made each exchange cost a fraction of a second.
const (
	MaxKnownValue = 4 << 10
	MaxKnownBytes = 1 << 20
)

// Known is a bounded set of credential values seen — bearer tokens, and the strings under
// credential names (IsSecretName) of JSON bodies — that replaces every occurrence of any of
// them in a text with Placeholder, longest first so that a value inside another goes with it
// (D200). It keeps the most recently seen limit values; noting a value already kept only
// makes it recent. It is safe for concurrent use; the replacer is rebuilt only when the set
// changes, on the first Replace after.
type Known struct {
	mu      sync.RWMutex
	limit   int
	order   *list.List               // most recent first; values are strings
	at      map[string]*list.Element // value → its place in order
	bytes   int                      // the values' lengths in all
	version uint64                   // bumped whenever the set changes
	match   *matcher                 // the kept values' patterns
}

// NewKnown returns an empty set keeping at most limit values (DefaultKnownLimit when limit <= 0).
func NewKnown(limit int) *Known {
	if limit <= 0 {
		limit = DefaultKnownLimit
	}
	return &Known{limit: limit, order: list.New(), at: map[string]*list.Element{}, match: newMatcher()}
}

// NewMasking returns an empty set like NewKnown's whose Replace writes each value found as
// asterisks, one a character, so a text keeps its length: a flow replays the text, and a
// shorter one could pass a length rule the recorded one broke.
func NewMasking(limit int) *Known {
	k := NewKnown(limit)
	k.match.mask = true
	return k
}

// Note keeps v as a credential value when it is Distinctive; others are ignored.
func (k *Known) Note(v string) {
	if !Distinctive(v) {
		return
	}
	if len(v) > MaxKnownValue {
		cut := MaxKnownValue
		for cut > 0 && !utf8.RuneStart(v[cut]) {
			cut--
		}
		v = strings.Clone(v[:cut]) // not the whole header's string
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if e, ok := k.at[v]; ok {
		k.order.MoveToFront(e)
		return
	}
	k.at[v] = k.order.PushFront(v)
	k.bytes += len(v)
	k.match.add(v)
	for k.order.Len() > k.limit || k.bytes > MaxKnownBytes {
		old := k.order.Back().Value.(string)
		k.order.Remove(k.order.Back())
		delete(k.at, old)
		k.bytes -= len(old)
		k.match.remove(old)
	}
	k.version++
}

// NoteHeaders keeps the values of h's credential headers (HeaderCredentials).
func (k *Known) NoteHeaders(h http.Header) {
	for _, v := range HeaderCredentials(h) {
		k.Note(v)
	}
}

// HeaderCredentials are the credential values h's credential headers (IsSecretName) carry,
// the ones Headers replaces: the credentials after the scheme of Authorization and
// Proxy-Authorization (Bearer, Basic, Token, …; a Basic pair's password too), the values of
// credential cookies in Cookie and Set-Cookie (credentialCookie), and any other such header's
// whole value (X-Api-Key, X-Csrf-Token, X-Session-Id).
func HeaderCredentials(h http.Header) []string {
	var out []string
	for name, vs := range h {
		secret := IsSecretName(name)
		for _, v := range vs {
			v = strings.TrimSpace(v)
			if secret {
				out = append(out, headerSecrets(http.CanonicalHeaderKey(name), v)...)
			}
			if _, q, ok := strings.Cut(v, "?"); ok { // a URL the header holds (Referer, Location)
				q, frag, _ := strings.Cut(q, "#")
				out = append(append(out, QueryCredentials(q)...), QueryCredentials(frag)...)
			}
		}
	}
	return out
}

// headerSecrets are the credentials of one value of a header whose name says it holds some.
func headerSecrets(name, v string) []string {
	switch name {
	case "Authorization", "Proxy-Authorization":
		return authCredentials(v)
	case "Cookie":
		var out []string
		for _, c := range strings.Split(v, ";") {
			out = append(out, credentialCookie(c)...)
		}
		return out
	case "Set-Cookie":
		first, _, _ := strings.Cut(v, ";")
		return credentialCookie(first)
	}
	return []string{v}
}

// credentialCookie is the value of one name=value cookie when it is a credential's: its name
// says so (sid, JSESSIONID, auth_token), or it is long and opaque enough to be a session's
// (16 characters or more); a preference (theme=dark) is none, so the word stays readable.
func credentialCookie(c string) []string {
	name, val, ok := strings.Cut(c, "=")
	val = strings.Trim(strings.TrimSpace(val), `"`)
	if ok && (IsSecretName(strings.TrimSpace(name)) || utf8.RuneCountInString(val) >= 16) {
		return []string{val}
	}
	return nil
}

// authCredentials are the credentials of an Authorization value: what follows the scheme, and
// for Basic the password of the pair it encodes (quoted alone, it is as good as the pair).
func authCredentials(v string) []string {
	scheme, cred, ok := strings.Cut(v, " ")
	if !ok {
		return []string{v} // a bare token, no scheme
	}
	cred = strings.TrimSpace(cred)
	out := []string{cred}
	if strings.EqualFold(scheme, "Basic") {
		if pair, err := base64.StdEncoding.DecodeString(cred); err == nil && utf8.Valid(pair) {
			if _, pass, ok := strings.Cut(string(pair), ":"); ok {
				out = append(out, pass)
			}
		}
	}
	return out
}

// NoteQuery keeps the values of the credential parameters (IsSecretName) of a query, as
// Target redacts them there: the same password sent in a body or a header later is replaced.
func (k *Known) NoteQuery(query string) {
	for _, v := range QueryCredentials(query) {
		k.Note(v)
	}
}

// QueryCredentials are the values of a query's (or a form body's) credential parameters
// (IsSecretName), as Target redacts them.
func QueryCredentials(query string) []string {
	if query == "" || !strings.Contains(query, "=") {
		return nil
	}
	values, _ := url.ParseQuery(query) // what parses of a malformed query
	var out []string
	for name, vs := range values {
		if IsSecretName(name) {
			out = append(out, vs...)
		}
	}
	return out
}

// maxFormNoted bounds a body read as a form (NoteBody): larger text is no form a login sends.
const maxFormNoted = 64 << 10

// NoteBody keeps the credential values of a JSON body (NoteValue), of a form-encoded one
// (password=…&client_secret=…, NoteQuery) or of a multipart one (its parts named after a
// credential). A byte order mark before the JSON, text after it, or JSON cut short is read as
// far as it goes: a refused login's password is a credential all the same, and a later text
// quoting it was left in clear.
func (k *Known) NoteBody(b []byte) {
	b = bytes.TrimSpace(bytes.TrimPrefix(bytes.TrimSpace(b), []byte("\xef\xbb\xbf")))
	if len(b) == 0 {
		return
	}
	if b[0] != '{' && b[0] != '[' {
		switch {
		case len(b) > maxFormNoted:
		case bytes.HasPrefix(b, []byte("--")):
			k.noteParts(string(b))
		default:
			k.NoteQuery(string(b))
		}
		return
	}
	var v any
	if json.NewDecoder(bytes.NewReader(b)).Decode(&v) != nil { // the first value; what follows is not read
		if len(b) <= maxFormNoted {
			k.notePairs(string(b))
		}
		return
	}
	if obj, ok := v.(map[string]any); ok {
		// The error envelope's errors are messages about fields, keyed by their names
		// ("password": ["The password field is required."]), never their values.
		if _, keyed := obj["errors"].(map[string]any); keyed {
			delete(obj, "errors")
		}
	}
	k.NoteValue(v)
}

// jsonPair is a "name": "text value" pair of JSON text, complete even where the text is cut.
var jsonPair = regexp.MustCompile(`"((?:[^"\\]|\\.){1,100})"\s*:\s*"((?:[^"\\]|\\.)+)"`)

// notePairs keeps the text values of credential names in JSON that does not decode.
func (k *Known) notePairs(s string) {
	for _, m := range jsonPair.FindAllStringSubmatch(s, -1) {
		name, errName := strconv.Unquote(`"` + m[1] + `"`)
		value, errValue := strconv.Unquote(`"` + m[2] + `"`)
		if errName == nil && errValue == nil && IsSecretName(name) {
			k.Note(value)
		}
	}
}

// noteParts keeps the values of a multipart body's parts named after a credential.
func (k *Known) noteParts(s string) {
	for _, m := range multipartPart.FindAllStringSubmatch(s, -1) {
		if IsSecretName(m[2]) {
			k.Note(strings.TrimRight(m[3], "\r\n"))
		}
	}
}

// NoteValue keeps, at any depth of a decoded JSON value, every string held by a field whose
// name IsSecretName calls a credential, directly or in an array.
func (k *Known) NoteValue(v any) { k.noteUnder(v, false) }

func (k *Known) noteUnder(v any, secret bool) {
	switch x := v.(type) {
	case map[string]any:
		for name, e := range x {
			k.noteUnder(e, secret || IsSecretName(name)) // a password given as an object: its texts
		}
	case []any:
		for _, e := range x {
			k.noteUnder(e, secret)
		}
	case string:
		if secret {
			k.Note(x)
		}
	}
}

// Version changes whenever the set does: what was scrubbed at one version need not be again.
func (k *Known) Version() uint64 {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.version
}

// Len is how many values are kept.
func (k *Known) Len() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.order.Len()
}

// Replace returns s with every kept value (or a form body's, a URL's or a JSON string's
// encoding of one) replaced by Placeholder, the longest first where several start.
func (k *Known) Replace(s string) string {
	if s == "" {
		return s
	}
	k.mu.RLock()
	defer k.mu.RUnlock()
	return k.match.replace(s)
}

// Scrub returns a copy of a decoded JSON value with kept values replaced in every string,
// keys included; v itself is left as it is (others may be reading it).
func (k *Known) Scrub(v any) any {
	k.mu.RLock()
	defer k.mu.RUnlock()
	if k.order.Len() == 0 {
		return v
	}
	return scrubWith(k.match, v)
}

func scrubWith(m *matcher, v any) any {
	switch x := v.(type) {
	case string:
		return m.replace(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = scrubWith(m, e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for name, e := range x {
			out[m.replace(name)] = scrubWith(m, e)
		}
		return out
	}
	return v
}

// ScrubHeaders returns a copy of h with kept values replaced in its values and in its names (a
// client may send a credential as a header's name, X-<token>: 1).
func (k *Known) ScrubHeaders(h map[string]string) map[string]string {
	k.mu.RLock()
	defer k.mu.RUnlock()
	if k.order.Len() == 0 || h == nil {
		return h
	}
	out := make(map[string]string, len(h))
	for name, v := range h {
		out[k.match.replace(name)] = k.match.replace(v)
	}
	return out
}

// encodings are the forms v takes inside a form body, a URL and a JSON string.
func encodings(v string) []string {
	j, _ := json.Marshal(v) // Go's encoder also writes <, > and & as \u003c…
	out := []string{url.QueryEscape(v), url.PathEscape(v), string(j[1 : len(j)-1])}
	plain := new(bytes.Buffer)
	enc := json.NewEncoder(plain)
	enc.SetEscapeHTML(false) // as most other encoders write it
	_ = enc.Encode(v)
	return append(out, strings.TrimSuffix(strings.TrimSuffix(plain.String(), "\n"), "\"")[1:])
}
