package mockserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
)

// redacted replaces a credential in the journal.
const redacted = "[redacted]"

// secretFields are body fields that are credentials or capabilities: authenticate's password
// and token, the bearer token in its answer (data.token), and a cart's session_token.
var secretFields = map[string]bool{"password": true, "token": true, "session_token": true}

// secretHeaders are headers that carry credentials.
var secretHeaders = map[string]bool{"Authorization": true, "Cookie": true, "Set-Cookie": true, "X-Mock-Admin-Token": true}

// secretText finds credentials in a body that is not valid JSON.
var secretText = regexp.MustCompile(`("(?:password|token|session_token)"\s*:\s*)"(?:[^"\\]|\\.)*"?`)

// redactHeaders flattens h for the journal, credentials replaced (the scheme of Authorization
// is kept: "Bearer [redacted]").
func redactHeaders(h http.Header) map[string]string {
	out := make(map[string]string, len(h))
	for k, v := range h {
		val := strings.Join(v, ", ")
		if secretHeaders[http.CanonicalHeaderKey(k)] {
			scheme, _, found := strings.Cut(val, " ")
			val = redacted
			if found && http.CanonicalHeaderKey(k) == "Authorization" {
				val = scheme + " " + redacted
			}
		}
		out[k] = val
	}
	return out
}

// redactBody decodes a JSON body for the journal with every secret field, at any depth,
// replaced; a body that is not JSON is kept as text with secret-looking values replaced.
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
	return redactValue(v)
}

func redactValue(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if secretFields[strings.ToLower(k)] && x != nil {
				t[k] = redacted
				continue
			}
			t[k] = redactValue(x)
		}
	case []any:
		for i, x := range t {
			t[i] = redactValue(x)
		}
	}
	return v
}
