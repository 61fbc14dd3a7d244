package check_test

import (
	"context"
	"net/http"
	"slices"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance/check"
	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// An answer that is not valid UTF-8 is not JSON (RFC 8259 asks UTF-8 of JSON between systems):
// a decoder reads its bad bytes as U+FFFD and a client shows garbage. An escaped lone surrogate
// is valid UTF-8 text, and is not judged here.
func TestAnswerNotUTF8IsNotJSON(t *testing.T) {
	o := op(t, "tagsList")
	for _, tt := range []struct {
		body string
		env1 bool
	}{
		{"{\"error\":false,\"message\":\"\xff\xfe\",\"data\":{\"tags\":[]}}", true},
		{`{"error":false,"message":"\ud800","data":{"tags":[]}}`, false},
		{`{"error":false,"message":"ok","data":{"tags":[]}}`, false},
	} {
		ex := check.Exchange{Op: o, ReqHeader: http.Header{"Content-Type": {"application/json"}}, ReqBody: []byte(`{}`), Status: http.StatusOK,
			Header: http.Header{"X-Ratelimit-Limit": {"60"}, "X-Ratelimit-Remaining": {"59"}}, Body: []byte(tt.body)}
		vs := check.Judge(context.Background(), ex)
		if got := slices.ContainsFunc(vs, func(v check.Violation) bool { return v.Rule == rules.ENV1 }); got != tt.env1 {
			t.Errorf("%q: ENV-1 %v, want %v (%v)", tt.body, got, tt.env1, vs)
		}
	}
}
