package proxy

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
)

// redacted stands in a recording for every credential the recorder saw (D196).
const redacted = "[redacted]"

// isSecretKey says whether a JSON field carries a credential: a password or any token (the
// authenticate request's password and token, an answer's token, a cart's session token).
func isSecretKey(key string) bool {
	k := strings.ToLower(key)
	return k == "password" || strings.HasSuffix(k, "token")
}

// noteRequestSecrets notes the credentials a request carries: its bearer token and the
// password and token fields of its JSON body (read up to maxBody and given back unchanged).
func (r *ScenarioRecorder) noteRequestSecrets(req *http.Request) {
	if tok, ok := strings.CutPrefix(req.Header.Get("Authorization"), "Bearer "); ok {
		r.noteSecret(strings.TrimSpace(tok))
	}
	if req.Body == nil || req.Body == http.NoBody {
		return
	}
	b, err := io.ReadAll(io.LimitReader(req.Body, r.maxBody))
	req.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(b), req.Body), req.Body}
	if err != nil {
		return
	}
	var v any
	if json.Unmarshal(b, &v) == nil {
		r.noteSecretsIn(v)
	}
}

// noteSecretsIn notes the string values of every credential field inside v.
func (r *ScenarioRecorder) noteSecretsIn(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if s, ok := e.(string); ok && isSecretKey(k) {
				r.noteSecret(s)
			} else {
				r.noteSecretsIn(e)
			}
		}
	case []any:
		for _, e := range x {
			r.noteSecretsIn(e)
		}
	}
}

func (r *ScenarioRecorder) noteSecret(s string) {
	if s == "" {
		return
	}
	r.mu.Lock()
	r.secrets[s] = true
	r.mu.Unlock()
}

// redactor replaces every occurrence of the secrets in a text by "[redacted]", longest first
// so a secret inside another goes with it.
func redactor(secrets map[string]bool) *strings.Replacer {
	list := make([]string, 0, len(secrets))
	for s := range secrets {
		list = append(list, s)
	}
	slices.SortFunc(list, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	pairs := make([]string, 0, 2*len(list))
	for _, s := range list {
		pairs = append(pairs, s, redacted)
	}
	return strings.NewReplacer(pairs...)
}
