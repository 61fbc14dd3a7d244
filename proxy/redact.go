package proxy

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
)

// redacted replaces a credential in the journal (D97).
const redacted = "[redacted]"

// secretHeaders carry credentials.
var secretHeaders = map[string]bool{
	"Authorization": true, "Proxy-Authorization": true, "Cookie": true, "Set-Cookie": true,
	"X-Api-Key": true, "X-Auth-Token": true, "X-Mock-Admin-Token": true,
}

// isSecretName tells a body field or query parameter that holds a credential: password, token,
// session_token, code (authenticate's second factor), and anything named like a password, a
// token, a secret or an API key.
func isSecretName(name string) bool {
	n := strings.ToLower(name)
	switch n {
	case "code", "api_key", "apikey", "otp":
		return true
	}
	return strings.Contains(n, "password") || strings.Contains(n, "token") || strings.Contains(n, "secret")
}

// secretText finds credentials in a body that is not valid JSON (or was cut short).
var secretText = regexp.MustCompile(`(?i)("[a-z_]*(?:password|token|secret)[a-z_]*"\s*:\s*|"(?:code|api_key|apikey|otp)"\s*:\s*)("(?:[^"\\]|\\.)*"?|-?[0-9][0-9.eE+-]*)`)

// redactHeaders flattens h for the journal with credentials replaced; the scheme of an
// Authorization header is kept ("Bearer [redacted]").
func redactHeaders(h http.Header) map[string]string {
	out := make(map[string]string, len(h))
	for k, v := range h {
		val := strings.Join(v, ", ")
		ck := http.CanonicalHeaderKey(k)
		if secretHeaders[ck] {
			scheme, _, found := strings.Cut(val, " ")
			val = redacted
			if found && (ck == "Authorization" || ck == "Proxy-Authorization") {
				val = scheme + " " + redacted
			}
		}
		out[k] = val
	}
	return out
}

// redactTarget replaces the values of secret query parameters of a request target.
func redactTarget(target string) string {
	path, query, found := strings.Cut(target, "?")
	if !found {
		return target
	}
	values, err := url.ParseQuery(query)
	if err != nil {
		return path + "?" + redacted
	}
	changed := false
	for k, vs := range values {
		if isSecretName(k) {
			for i := range vs {
				vs[i] = redacted
			}
			changed = true
		}
	}
	if !changed {
		return target
	}
	return path + "?" + values.Encode()
}

// redactBody decodes a JSON body for the journal with every secret field, at any depth,
// redacted in place (the shape stays: keys, arrays and nulls are kept); a body that is not JSON
// is kept as text with secret-looking values replaced.
func redactBody(b []byte) any {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil || dec.More() {
		return secretText.ReplaceAllString(string(b), `$1"`+redacted+`"`)
	}
	return redactValue(v, false)
}

// redactValue redacts the secret fields of v; under a secret field (secret true) every scalar
// is replaced.
func redactValue(v any, secret bool) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = redactValue(x, secret || isSecretName(k))
		}
	case []any:
		for i, x := range t {
			t[i] = redactValue(x, secret)
		}
	case nil:
	default:
		if secret {
			return redacted
		}
	}
	return v
}
