package mockserver_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"testing"
)

// ctl calls one of the mock's own endpoints (or an operation, then checked against the spec)
// with the given headers ("Name", "value", ...). Answers that are not JSON keep body nil.
func (m *mock) ctl(method, path string, body any, headers ...string) answer {
	m.t.Helper()
	var raw []byte
	switch b := body.(type) {
	case nil:
	case string:
		raw = []byte(b)
	default:
		var err error
		if raw, err = json.Marshal(b); err != nil {
			m.t.Fatalf("encode body: %v", err)
		}
	}
	req, err := http.NewRequest(method, m.url+path, bytes.NewReader(raw))
	if err != nil {
		m.t.Fatalf("new request: %v", err)
	}
	if raw != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if http.CanonicalHeaderKey(headers[i]) == "Content-Type" && i == slices.Index(headers, headers[i]) {
			req.Header.Del("Content-Type") // a Content-Type given replaces the default one
		}
		req.Header.Add(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		m.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	a := answer{status: res.StatusCode, header: res.Header, req: method + " " + path + " " + truncate(string(raw))}
	if a.raw, err = io.ReadAll(res.Body); err != nil {
		m.t.Fatalf("read answer: %v", err)
	}
	if res.Header.Get("Content-Type") == "application/json" {
		if err := json.Unmarshal(a.raw, &a.body); err != nil {
			m.t.Fatalf("%s: answer is not a JSON object: %v\n%s", a.req, err, a.raw)
		}
	}
	if method == http.MethodPost && res.StatusCode != http.StatusNoContent {
		m.checkAgainstSpec(req, path, a)
	}
	return a
}

// field returns a top-level field of a JSON answer.
func (a answer) field(name string) any { return a.body[name] }

// list returns a top-level array of a JSON answer as objects.
func (a answer) list(t *testing.T, name string) []map[string]any {
	t.Helper()
	raw, ok := a.body[name].([]any)
	if !ok {
		t.Fatalf("%s: no array %q in %s", a.req, name, a.raw)
	}
	out := make([]map[string]any, len(raw))
	for i, v := range raw {
		out[i], _ = v.(map[string]any)
	}
	return out
}

// count is the length of data[key] of an operation's answer (a list operation).
func (a answer) count(t *testing.T, key string) int {
	t.Helper()
	l, ok := a.data()[key].([]any)
	if !ok {
		t.Fatalf("%s: data has no list %q: %s", a.req, key, a.raw)
	}
	return len(l)
}

// fieldErrorOf reports whether a 422 answer names field.
func (a answer) fieldErrorOf(field string) bool {
	errs, _ := a.body["errors"].(map[string]any)
	msgs, ok := errs[field].([]any)
	return ok && len(msgs) > 0
}
