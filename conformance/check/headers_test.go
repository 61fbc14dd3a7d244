package check_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance/check"
	"github.com/opsapi/mocktoolkit/conformance/rules"
	"github.com/opsapi/mocktoolkit/spec"
)

// The rate-limit headers and Retry-After are integers as HTTP writes them, digits only: a sign
// ("+5", "-0") or a space inside is HDR-1 or HDR-2, though strconv would read it; digits past
// 64 bits are an integer all the same.
func TestHeaderIntegersAreDigitsOnly(t *testing.T) {
	for _, c := range []struct {
		limit, remaining, retry string
		want                    rules.ID
	}{
		{"60", "59", "", ""},
		{"60", "+5", "", rules.HDR1},
		{"60", "-0", "", rules.HDR1},
		{"6 0", "5", "", rules.HDR1},
		{"60", "0", "30", ""},
		{"60", "0", "-0", rules.HDR2},
		{"60", "0", "+30", rules.HDR2},
		{"60", "0", "99999999999999999999999", ""},
		{"99999999999999999998", "99999999999999999999", "", rules.HDR1}, // both past int64: compared as written
		{"99999999999999999999", "099999999999999999998", "", ""},
		{"1000", "99999999999999999999999", "", rules.HDR1},
	} {
		h := http.Header{"X-Ratelimit-Limit": {c.limit}, "X-Ratelimit-Remaining": {c.remaining}}
		status := http.StatusOK
		if c.retry != "" {
			h.Set("Retry-After", c.retry)
			status = http.StatusTooManyRequests
		}
		var got rules.ID
		if vs := check.Headers(status, h); len(vs) > 0 {
			got = vs[0].Rule
		}
		if got != c.want {
			t.Errorf("Limit %q, Remaining %q, Retry-After %q: %q, want %q", c.limit, c.remaining, c.retry, got, c.want)
		}
	}
}

// A fraction written too close to a whole number, or too small, for float64 to tell is still
// not an integer: REQ-1 names the field of the client's request, as the mock refuses it (D8).
func TestRequestFractionsAreNotIntegers(t *testing.T) {
	op := operation(t, "tagsCreate")
	for _, v := range []string{"1.0000000000000000000001", "1e-400", "0.5"} {
		vs, _ := check.Request(context.Background(), op, http.Header{"Content-Type": {"application/json"}}, []byte(`{"name":"n","position":`+v+`}`))
		if len(vs) == 0 || vs[0].Rule != rules.REQ1 || !strings.Contains(vs[0].Detail, "position") {
			t.Errorf("position %s: %v; want REQ-1 naming position", v, vs)
		}
	}
	for _, v := range []string{"3", "3.0", "1e2", "-0"} {
		if vs, _ := check.Request(context.Background(), op, http.Header{"Content-Type": {"application/json"}}, []byte(`{"name":"n","position":`+v+`}`)); len(vs) != 0 {
			t.Errorf("position %s, a whole number: %v", v, vs)
		}
	}
}

// A request body that parses but is not one JSON text of valid Unicode breaks REQ-1: a value
// with more after it, a lone surrogate escape, bytes that are not UTF-8.
func TestRequestThatIsNotOneJSONText(t *testing.T) {
	op := operation(t, "tagsCreate")
	for _, body := range []string{`{"name":"n"}x`, `{"name":"n"}{"name":"m"}`, `{"name":"\ud800"}`, "{\"name\":\"\xff\"}"} {
		if vs, _ := check.Request(context.Background(), op, http.Header{"Content-Type": {"application/json"}}, []byte(body)); len(vs) == 0 || vs[0].Rule != rules.REQ1 {
			t.Errorf("%q: %v; want REQ-1", body, vs)
		}
	}
	if vs, _ := check.Request(context.Background(), op, http.Header{"Content-Type": {"application/json"}}, []byte(`{"name":"n"}`+"\n")); len(vs) != 0 {
		t.Errorf("one JSON text with a line end after it: %v", vs)
	}
}

// operation is the document's operation id.
func operation(t *testing.T, id string) spec.Operation {
	t.Helper()
	doc, err := spec.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range spec.Operations(doc) {
		if o.ID == id {
			return o
		}
	}
	t.Fatalf("no operation %s", id)
	return spec.Operation{}
}

// HDR-1 quotes the rate-limit values as sent: read as int64, one past it was quoted as its
// largest, a number the deployment never sent.
func TestRemainingAboveLimitIsQuotedAsSent(t *testing.T) {
	h := http.Header{"X-Ratelimit-Limit": {"1000"}, "X-Ratelimit-Remaining": {"99999999999999999999999"}}
	vs := check.Headers(http.StatusOK, h)
	if len(vs) != 1 || vs[0].Detail != "X-RateLimit-Remaining 99999999999999999999999 is above X-RateLimit-Limit 1000" {
		t.Errorf("%v, want one HDR-1 quoting both values as sent", vs)
	}
}
