package check_test

import (
	"context"
	"net/http"
	"slices"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance/check"
	"github.com/opsapi/mocktoolkit/conformance/rules"
	"github.com/opsapi/mocktoolkit/spec"
)

// A 422 refusing a request whose Content-Type is not JSON, or that is sent compressed, may name
// the header: the body's
// missing fields are not what it refused (ERR-5 judges the fields only of a JSON request). A
// JSON request missing a required field must still have it named.
func TestKeyedByNamesTheHeaderOfARequestThatIsNotJSON(t *testing.T) {
	o := op(t, "domainCartRemove")
	refusal := []byte(`{"message":"The body must be JSON.","errors":{"Content-Type":["The body must be JSON."]}}`)
	for _, tt := range []struct {
		contentType, encoding string
		err5                  bool
	}{
		{"application/x-www-form-urlencoded", "", false},
		{"text/plain", "", false},
		{"", "", false},
		{"application/json; charset=latin1", "", false},
		{"application/json", "gzip", false}, // compressed: whether it is read is not shown
		{"application/json", "identity", true},
		{"application/json", "", true},
	} {
		h := http.Header{"Content-Type": {tt.contentType}}
		if tt.encoding != "" {
			h.Set("Content-Encoding", tt.encoding)
		}
		ex := check.Exchange{Op: o, ReqHeader: h, ReqBody: []byte(`{}`),
			Status: http.StatusUnprocessableEntity, Header: http.Header{}, Body: refusal}
		vs := check.Judge(context.Background(), ex)
		got := slices.ContainsFunc(vs, func(v check.Violation) bool { return v.Rule == rules.ERR5 })
		if got != tt.err5 {
			t.Errorf("Content-Type %q, Content-Encoding %q: ERR-5 %v, want %v (%v)", tt.contentType, tt.encoding, got, tt.err5, vs)
		}
	}
}

// A mock's 400 to a `Prefer: code=` the operation does not list is the client's doing: its
// status is not judged, 413 included (declared, but a mock never forces it), when the mock
// marked it as its refusal (X-Mock-Refused: prefer). The same 400 without the preference, or
// without the mark (a deployment ignores Prefer: its 400 is its own), breaks STATUS-1 where the
// operation lists no 400.
func TestRefusedPreferenceIsNotTheDeployments(t *testing.T) {
	o := op(t, "conversationsRestore")
	if o.Declared(http.StatusBadRequest) || o.Declared(http.StatusTeapot) || !o.Declared(http.StatusRequestEntityTooLarge) {
		t.Fatalf("conversationsRestore lists %v; the test wants an operation without 400 or 418", o.Statuses)
	}
	body := []byte(`{"error":true,"message":"Prefer: code=418 is not an answer of conversationsRestore.","data":[]}`)
	for _, tt := range []struct {
		prefer, mark string
		status1      bool
	}{
		{"code=418", "prefer", false},
		{"code=abc", "prefer", false},
		{"code=413", "prefer", false},
		{"", "", true},
		{"code=418", "", true},      // a deployment's own 400
		{"code=418", "world", true}, // marked for another refusal
	} {
		if got := status1(o, "Prefer", tt.prefer, tt.mark, http.StatusBadRequest, body); got != tt.status1 {
			t.Errorf("Prefer %q, X-Mock-Refused %q: STATUS-1 %v, want %v", tt.prefer, tt.mark, got, tt.status1)
		}
	}
}

// A mock's 400 to a request naming a world it cannot serve (X-Mock-World: bad!), or its 503
// when every world is busy, marked as its refusal (X-Mock-Refused: world), is the client's
// doing or the mock's capacity: its status is not judged where the operation lists neither.
// Unmarked, it is a deployment's own answer, and judged.
func TestRefusedWorldIsNotTheDeployments(t *testing.T) {
	o := op(t, "conversationsRestore")
	body := []byte(`{"error":true,"message":"The world name \"bad!\" is not valid.","data":[]}`)
	for _, tt := range []struct {
		world, mark string
		status      int
		status1     bool
	}{
		{"bad!", "world", 400, false},
		{"w3", "world", 503, false}, // every world busy: the mock's capacity
		{"", "", 400, true},
		{"bad!", "", 400, true},
		{"w3", "", 503, true}, // a deployment's own 503
		{"", "world", 400, true},
	} {
		if got := status1(o, "X-Mock-World", tt.world, tt.mark, tt.status, body); got != tt.status1 {
			t.Errorf("X-Mock-World %q, X-Mock-Refused %q, %d: STATUS-1 %v, want %v", tt.world, tt.mark, tt.status, got, tt.status1)
		}
	}
}

// status1 judges a conversation restore sent with the request header name set to value (left
// out when empty), answered status with body and the X-Mock-Refused mark (none when empty), and
// tells whether STATUS-1 is broken.
func status1(o spec.Operation, name, value, mark string, status int, body []byte) bool {
	h := http.Header{"Content-Type": {"application/json"}}
	if value != "" {
		h.Set(name, value)
	}
	answer := http.Header{"X-Ratelimit-Limit": {"60"}, "X-Ratelimit-Remaining": {"59"}}
	if mark != "" {
		answer.Set("X-Mock-Refused", mark)
	}
	ex := check.Exchange{Op: o, ReqHeader: h, ReqBody: []byte(`{"conversation_id":1}`), Status: status, Header: answer, Body: body}
	return slices.ContainsFunc(check.Judge(context.Background(), ex), func(v check.Violation) bool { return v.Rule == rules.STATUS1 })
}
