package spec_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strconv"
	"testing"

	"github.com/opsapi/mocktoolkit/spec"
)

// The examples of the document are the mock's own answers in the default seeded world (with
// the clock at mockNow): sending an operation's request example to a fresh mock answers its
// success example. Lists in the examples are shortened, so an example array must be the start
// of the answer's; the login token is random, so only its presence is compared.
func TestSuccessExamplesAreTheMocksAnswers(t *testing.T) {
	doc := load(t)
	for _, op := range spec.Operations(doc) {
		t.Run(op.ID, func(t *testing.T) {
			post := doc.Paths.Value(op.Path).Post
			request := post.RequestBody.Value.Content.Get("application/json").Example
			status := op.SuccessCode()
			if status == 0 {
				status = http.StatusOK // D1
			}
			resp := post.Responses.Value(strconv.Itoa(status))
			if request == nil || resp == nil || resp.Value.Content.Get("application/json").Example == nil {
				t.Fatal("no request example or no success example (the lint test says which)")
			}
			want := copyJSON(t, resp.Value.Content.Get("application/json").Example) // the document is shared: never edit it

			base, m := startMock(t)
			token := ""
			switch {
			case op.Access == spec.Superadmin:
				token = loginAs(t, base, m.Users.Superadmin)
			case !op.Public():
				token = loginAs(t, base, m.Users.Member)
			}
			body, err := json.Marshal(request)
			if err != nil {
				t.Fatal(err)
			}
			got, answer := postJSON(t, base+op.Path, token, string(body))
			if got != status {
				t.Fatalf("the request example answers %d, want %d: %v", got, status, answer)
			}
			if op.ID == "authenticate" {
				for _, v := range []map[string]any{answer, want.(map[string]any)} {
					if data, ok := v["data"].(map[string]any); ok && data["token"] != nil {
						data["token"] = "(a token)"
					}
				}
			}
			if diff := startsLike("", want, answer); diff != "" {
				t.Errorf("the success example is not the mock's answer: %s", diff)
			}
		})
	}
}

// startsLike reports where got differs from want, "" when it does not: objects must have the
// same keys and values, arrays in want must be the start of those in got, numbers are compared
// as JSON numbers.
func startsLike(path string, want, got any) string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: example %v, answer %v", orRoot(path), want, got)
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				return fmt.Sprintf("%s.%s: in the answer, not in the example", path, k)
			}
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok {
				return fmt.Sprintf("%s.%s: in the example, not in the answer", path, k)
			}
			if d := startsLike(path+"."+k, wv, gv); d != "" {
				return d
			}
		}
		return ""
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) < len(w) {
			return fmt.Sprintf("%s: example %v, answer %v", orRoot(path), want, got)
		}
		for i := range w {
			if d := startsLike(fmt.Sprintf("%s[%d]", path, i), w[i], g[i]); d != "" {
				return d
			}
		}
		return ""
	default:
		if !reflect.DeepEqual(want, got) {
			return fmt.Sprintf("%s: example %#v, answer %#v", orRoot(path), want, got)
		}
		return ""
	}
}

func orRoot(path string) string {
	if path == "" {
		return "(body)"
	}
	return path
}

// copyJSON returns a deep copy of a JSON value.
func copyJSON(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
