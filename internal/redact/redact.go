// Package redact replaces credentials in what the toolkit records — the mock's journal and the
// validating proxy's — whatever the body's format, keeping JSON's shape (D64, D97). It is the
// one place that knows which names hold a credential.
package redact

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"unicode"

	"github.com/opsapi/mocktoolkit/internal/jsonnest"
	"github.com/opsapi/mocktoolkit/internal/jsonone"
)

// redacted replaces a credential in the journal.
const redacted = "[redacted]"

// Which names hold a credential or a capability is decided by what the name means, whatever
// its case style (D64, D142): a name is split into words (camelCase, PascalCase, snake_case,
// kebab-case, UPPER_CASE, dotted and bracketed paths: "X-Api-Key" → x api key, "IDToken" →
// id token, "user[newPassword]" → user new password), and judged by these word rules.
var (
	// secretWords hold a credential wherever they stand: new_password, client_secret,
	// Set-Cookie, Proxy-Authorization, aws_credentials.
	secretWords = map[string]bool{
		"password": true, "passwd": true, "pwd": true, "passphrase": true, "passcode": true,
		"secret": true, "secrets": true, "cookie": true, "cookies": true, "authorization": true,
		"credential": true, "credentials": true, "otp": true, "totp": true, "apikey": true,
		"privatekey": true, "secretkey": true, "accesskey": true, "signingkey": true, "jwt": true,
		"sessionid": true, "authentication": true, "signature": true, "pin": true, "cvv": true, "cvc": true, "dpop": true,
		"bearer": true, "csrf": true, "xsrf": true, "hmac": true, "assertion": true,
		// a SAML response is a signed assertion; a connection string or a DSN holds a password
		"samlresponse": true, "connectionstring": true, "connstring": true, "connstr": true, "dsn": true,
		// a browser cannot set Authorization on a WebSocket: the bearer token rides in the
		// subprotocols (Kubernetes' base64url.bearer.authorization.k8s.io.<token>)
		"secwebsocketprotocol": true,
	}
	// keyOwners make a final "key" a credential: api_key, privateKey, X-Api-Key, secret-key
	// (a tour_key or a tool_key is an identifier).
	keyOwners = map[string]bool{
		"api": true, "private": true, "priv": true, "secret": true, "access": true, "signing": true,
		"encryption": true, "client": true, "session": true, "auth": true, "master": true, "license": true,
		"subscription": true, "app": true, "application": true, "consumer": true,
	}
	// codeOwners make a final "code" a credential (a status_code or country_code is not);
	// "code" alone is one (an OAuth or login code).
	codeOwners = map[string]bool{
		"auth": true, "authorization": true, "verification": true, "otp": true, "mfa": true,
		"totp": true, "reset": true, "recovery": true, "login": true, "confirmation": true, "one": true,
	}
)

// IsSecretName reports whether a field, parameter or header of that name holds a credential:
// any name whose last word is "token" (token, accessToken, refresh_token, ID-TOKEN,
// session_token: the cart's session token is a capability, X-Mock-Admin-Token), a word of
// secretWords anywhere, "key" after a word of keyOwners, "code" alone or after a word of
// codeOwners, "session" followed by "id", "pass" followed by "word", "phrase" or "code", "credit
// card", a card or account "number", "auth", "session", "sid" or "refresh" as the last word
// (X-Sentry-Auth, X-Session), and "pass" or "sig" alone (a password, a signed URL's signature); a last word of digits is
// an index and does not count (token[0]). Words run together in one case ("ACCESSTOKEN",
// "clientsecret") are caught by their endings. token_count, tour_key and evaluation_check are
// not credentials.
func IsSecretName(name string) bool {
	ws := words(name)
	for len(ws) > 1 && strings.Trim(ws[len(ws)-1], "0123456789") == "" {
		ws = ws[:len(ws)-1] // an index: token[0], password_2
	}
	if len(ws) == 0 {
		return false
	}
	if secretWords[strings.Join(ws, "")] { // a name split by its case style: DPoP, SessionID
		return true
	}
	last := ws[len(ws)-1]
	if last == "token" || (len(last) > len("token") && strings.HasSuffix(last, "token")) {
		return true
	}
	for i, w := range ws {
		if secretWords[w] || strings.Contains(w, "password") || strings.Contains(w, "passwd") || strings.HasSuffix(w, "secret") || strings.HasSuffix(w, "sessionid") || strings.HasSuffix(w, "sessid") {
			return true
		}
		if i == 0 {
			continue
		}
		prev := ws[i-1]
		switch {
		case w == "key" && keyOwner(prev), w == "code" && codeOwners[prev], w == "id" && prev == "session",
			prev == "pass" && (w == "word" || w == "phrase" || w == "code"),                         // passWord, pass_phrase
			w == "card" && prev == "credit", w == "number" && (prev == "card" || prev == "account"): // creditCard, card_number
			return true
		}
	}
	return last == "auth" || last == "session" || last == "sid" || last == "refresh" || (len(ws) == 1 && (last == "code" || last == "pass" || last == "sig"))
}

// keyOwner tells whether a word before "key" makes it a credential: a word of keyOwners, or one
// that ends in "api" (X-RapidAPI-Key, canonicalized by net/http as X-Rapidapi-Key).
func keyOwner(w string) bool { return keyOwners[w] || strings.HasSuffix(w, "api") }

// words splits a name into lower-case words: at every character that is not a letter or a
// digit, before an upper-case letter that follows a lower-case one or a digit ("accessToken"),
// and before the last capital of a run followed by a lower-case letter ("APIKey" → api key).
func words(name string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, c := range rs {
		switch {
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			flush()
			continue
		case unicode.IsUpper(c) && i > 0:
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				flush()
			}
		}
		cur = append(cur, c)
	}
	flush()
	return out
}

// urlPassword is the password of a URL's userinfo (postgres://app:pw@db, http://u:pw@proxy).
var urlPassword = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.\-]*://[^\s/?#@:"']*:)([^\s/?#@"']+)@`)

// userinfo replaces the password of every URL in s.
func userinfo(s string) string {
	if !strings.Contains(s, "://") {
		return s
	}
	return urlPassword.ReplaceAllString(s, "${1}"+redacted+"@")
}

// schemeToken is a token after an authorization scheme in free text ("curl -H 'Authorization:
// Bearer eyJ…'" pasted into a note): a token68 of eight characters at least.
var schemeToken = regexp.MustCompile(`\b(?i:bearer|basic)\s+([A-Za-z0-9\-._~+/]{8,}=*)`)

// freeText replaces the credentials in a text: the values of credential pairs (redactPairs,
// its values ending at textValueEnds), the password of a URL, and a token after a scheme when
// it holds a character past its first that is not a small letter, so that "Bearer bonds" and
// "Basic understanding" stay phrases.
func freeText(s string) string {
	s = userinfo(redactPairs(s, textValueEnds))
	if !strings.ContainsAny(s, "bB") {
		return s
	}
	var out strings.Builder
	last := 0
	for _, m := range schemeToken.FindAllStringSubmatchIndex(s, -1) {
		tok := s[m[2]:m[3]]
		if !strings.ContainsFunc(tok[1:], func(r rune) bool { return !unicode.IsLower(r) }) {
			continue
		}
		out.WriteString(s[last:m[2]])
		out.WriteString(redacted)
		last = m[3]
	}
	if last == 0 {
		return s
	}
	out.WriteString(s[last:])
	return out.String()
}

// The characters a credential's bare value ends at: in text, a form or a query string; in a URL
// a header holds (a Link's "<…?api_key=…>; rel=next", a Referer's "…?code=…#top"), also at its
// fragment, its closing angle bracket, a quote or a space.
const (
	textValueEnds = "&;,}]\r\n"
	urlValueEnds  = textValueEnds + "#<>\"' \t"
)

// schemeHeaders keep their scheme when redacted ("Bearer [redacted]").
var schemeHeaders = map[string]bool{"Authorization": true, "Proxy-Authorization": true}

// Headers flattens h for the journal, the values of credential headers replaced, and the
// credentials in the query or fragment of a URL a header holds.
func Headers(h http.Header) map[string]string {
	out := make(map[string]string, len(h))
	for k, v := range h {
		val := strings.Join(v, ", ")
		if IsSecretName(k) {
			scheme, _, found := strings.Cut(val, " ")
			val = redacted
			if found && schemeHeaders[http.CanonicalHeaderKey(k)] {
				val = scheme + " " + redacted
			}
		}
		if strings.ContainsAny(val, "?#") {
			// A URL's query or fragment (Referer, Location, Link): a credential there is
			// named as in a form (?access_token=…, #id_token=…); a value without one (Prefer:
			// code=413) is no URL.
			val = redactPairs(val, urlValueEnds)
			// A URL inside the URL's query, escaped as a query value is (?next=%2Fcb%3F
			// access_token%3D…): read decoded, and shown so when it held a credential.
			if strings.Contains(strings.ToLower(val), "%3d") {
				if dec, err := url.PathUnescape(val); err == nil {
					if red := redactPairs(dec, urlValueEnds); red != dec {
						val = red
					}
				}
			}
		}
		out[k] = userinfo(val)
	}
	return out
}

// Body decodes a JSON body for the journal with the values of credential fields
// replaced at any depth, keeping its shape (redactValue). A body that is not JSON (a form,
// multipart, plain text, or JSON cut short) is kept as text with credential values replaced
// by pattern (Text).
// A body nested deeper than journalDepth is kept as text too: the journal stays readable by
// tools that stop at a few hundred levels (jq 1.6 at 256, Python's json near 1000).
func Body(b []byte) any {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil
	}
	if len(b) > 2*journalDepth && jsonnest.Nesting(b) > journalDepth {
		return Text(string(b))
	}
	v, err := jsonone.Decode(b)
	if err != nil {
		return Text(string(b))
	}
	if obj, ok := v.(map[string]any); ok {
		// A validation envelope's errors are messages about fields, keyed by their names
		// ("password": ["The password field is required."]): kept readable (a message quoting
		// a value already seen is still scrubbed by value, D200).
		if errs, keyed := obj["errors"].(map[string]any); keyed {
			delete(obj, "errors")
			v = redactValue(obj, false)
			for k, msgs := range errs {
				errs[k] = redactValue(msgs, false)
			}
			obj["errors"] = errs
			return v
		}
	}
	return redactValue(v, false)
}

// journalDepth is the deepest nesting a body keeps as JSON in a journal.
const journalDepth = 200

// redactValue replaces, under a credential name at any depth, every leaf that is a string or a
// number with "[redacted]"; arrays and objects keep their shape, and null and booleans stay
// (they carry no secret). Other strings are redacted as text (redactPairs), for a form or a
// query string copied into a field.
func redactValue(v any, secret bool) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = redactValue(x, secret || IsSecretName(k))
		}
	case []any:
		for i, x := range t {
			t[i] = redactValue(x, secret)
		}
	case string:
		if secret {
			return redacted
		}
		return freeText(t)
	case json.Number:
		if secret {
			return redacted
		}
	}
	return v
}

// multipartPart is a part of a multipart body: its name, then its content up to the next
// boundary or the end of what was kept.
var multipartPart = regexp.MustCompile(`(?s)(name="([^"]{1,100})"[^\r\n]*\r?\n(?:[^\r\n]+\r?\n)*\r?\n)(.*?)(\r?\n--|\z)`)

// xmlElement is an element of an XML body with text content: its name, attributes and text.
var xmlElement = regexp.MustCompile(`<([A-Za-z_][\w.:\-]*)((?:\s[^<>]*)?)>([^<]*)</([A-Za-z_][\w.:\-]*)>`)

// Text replaces the values of credentials in a body that is not JSON: the parts of a
// multipart body named after a credential, the text of XML elements named after one
// (<password>…</password>, <ns:token>…</ns:token>), then every name/value pair redactPairs finds.
func Text(s string) string {
	if strings.Contains(s, "</") {
		s = xmlElement.ReplaceAllStringFunc(s, func(match string) string {
			m := xmlElement.FindStringSubmatch(match)
			local := m[1][strings.LastIndexByte(m[1], ':')+1:]
			if m[1] != m[4] || m[3] == "" || !IsSecretName(local) {
				return match
			}
			return "<" + m[1] + m[2] + ">" + redacted + "</" + m[4] + ">"
		})
	}
	s = multipartPart.ReplaceAllStringFunc(s, func(match string) string {
		m := multipartPart.FindStringSubmatch(match)
		if IsSecretName(m[2]) {
			return m[1] + redacted + m[4]
		}
		return match
	})
	return freeText(s)
}

// redactPairs replaces the value after every credential name in text followed by ':' or '='
// (spaces and a closing quote allowed between): "password": "x" in JSON cut short,
// password=x in a form, a query string or a cookie list, "password: x" in plain text. A quoted
// value is replaced up to its closing quote (or the end), keeping the quotes; an array or object
// up to where it closes (or the end); any other up to the next '&', ';', ',', '}', ']' or line
// end. Names are read as runs of letters,
// digits and "_-.%[]" and backslash, percent-decoded and JSON-unescaped, and judged by IsSecretName; a name inside another
// value may redact more than needed, never less.
func redactPairs(s, valueEnds string) string {
	var out strings.Builder
	last := 0
	for i := 0; i < len(s); {
		if !isNameByte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isNameByte(s[j]) {
			j++
		}
		name := s[i:j]
		i = j
		if unescaped, err := url.QueryUnescape(name); err == nil {
			name = unescaped
		}
		if strings.IndexByte(name, '\\') >= 0 { // a JSON string's escapes: "pass\u0077ord"
			var unescaped string
			if json.Unmarshal([]byte(`"`+name+`"`), &unescaped) == nil {
				name = unescaped
			}
		}
		if !IsSecretName(name) && !IsSecretName(strings.Trim(name, "[].")) {
			continue
		}
		k := j
		if k < len(s) && (s[k] == '"' || s[k] == '\'') {
			k++
		}
		k = skipBlank(s, k)
		if k >= len(s) || (s[k] != ':' && s[k] != '=') {
			continue
		}
		k = skipBlank(s, k+1)
		start, end, quote := valueSpan(s, k, valueEnds)
		if end == start {
			continue
		}
		if last == 0 {
			out.Grow(len(s))
		}
		out.WriteString(s[last:start])
		out.WriteString(quote + redacted + quote)
		last, i = end, end
	}
	if last == 0 {
		return s
	}
	out.WriteString(s[last:])
	return out.String()
}

func isNameByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' ||
		b == '_' || b == '-' || b == '.' || b == '%' || b == '[' || b == ']' || b == '\\'
}

func skipBlank(s string, k int) int {
	for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
		k++
	}
	return k
}

// valueSpan finds the value starting at k: a quoted string (to its closing quote, escapes
// skipped, or to the end) or a bare run up to a delimiter. It returns the span and the quote
// to keep around the replacement.
func valueSpan(s string, k int, valueEnds string) (start, end int, quote string) {
	if k >= len(s) {
		return k, k, ""
	}
	if q := s[k]; q == '"' || q == '\'' {
		for e := k + 1; e < len(s); e++ {
			switch s[e] {
			case '\\':
				e++
			case q:
				return k, e + 1, string(q)
			}
		}
		return k, len(s), string(q)
	}
	if s[k] == '[' || s[k] == '{' {
		return k, bracketEnd(s, k), ""
	}
	e := k
	for e < len(s) && !strings.ContainsRune(valueEnds, rune(s[e])) {
		e++
	}
	return k, e, ""
}

// bracketEnd is the end of the array or object that opens at k (strings skipped), or the end
// of s when it does not close: everything under a credential's name goes.
func bracketEnd(s string, k int) int {
	depth := 0
	for e := k; e < len(s); e++ {
		switch s[e] {
		case '[', '{':
			depth++
		case ']', '}':
			if depth--; depth == 0 {
				return e + 1
			}
		case '"':
			for e++; e < len(s) && s[e] != '"'; e++ {
				if s[e] == '\\' {
					e++
				}
			}
		}
	}
	return len(s)
}

// PathParams replaces the values of credential parameters of a path's segments
// ("/list;access_token=…", "/x;jsessionid=…"): servers read them as they read a query.
func PathParams(path string) string {
	if !strings.Contains(path, ";") {
		return path
	}
	segs := strings.Split(path, "/")
	for i, seg := range segs {
		params := strings.Split(seg, ";")
		for j := 1; j < len(params); j++ {
			if name, _, ok := strings.Cut(params[j], "="); ok && IsSecretName(name) {
				params[j] = name + "=" + redacted
			}
		}
		segs[i] = strings.Join(params, ";")
	}
	return strings.Join(segs, "/")
}

// Target replaces the values of credential query parameters, and of credential parameters of
// its path's segments, of a request target ("/path?token=…"); a query that does not parse is
// replaced whole.
func Target(target string) string {
	path, query, found := strings.Cut(target, "?")
	path = PathParams(path)
	if !found {
		return path
	}
	values, err := url.ParseQuery(query)
	if err != nil {
		return path + "?" + redacted
	}
	changed := false
	for k, vs := range values {
		for i, v := range vs {
			if IsSecretName(k) {
				vs[i] = redacted
			} else {
				// A value may be a URL of its own (next=/cb?access_token=…, escaped as a query
				// value is): its pairs are read decoded.
				vs[i] = freeText(userinfo(v))
			}
			changed = changed || vs[i] != v
		}
	}
	if !changed {
		return path + "?" + query
	}
	return path + "?" + values.Encode()
}
