package check_test

import (
	"context"
	"net/http"
	"slices"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance/check"
	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// An answer is one JSON text, as a request is (REQ-1): a success body with a stray `}` or `]`
// after its object, or a second value, is not JSON and breaks ENV-1 (a decoder's More reports
// false before a closing bracket, so `{...}}` once passed).
func TestAnswerWithMoreAfterItsJSONBreaksTheEnvelope(t *testing.T) {
	op := operation(t, "tagsList")
	const good = `{"error":false,"message":"ok","data":{"tags":[]}}`
	for _, c := range []struct {
		body   string
		breaks bool
	}{
		{good, false},
		{good + "\n", false},
		{good + "}", true},
		{good + "]]]", true},
		{good + " xyz", true},
		{good + good, true},
	} {
		ex := check.Exchange{Op: op, ReqHeader: http.Header{"Content-Type": {"application/json"}}, ReqBody: []byte(`{}`),
			Status: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(c.body)}
		vs := check.Deployment(check.Judge(context.Background(), ex))
		if got := slices.Contains(check.IDs(vs), rules.ENV1); got != c.breaks {
			t.Errorf("answer %q: ENV-1 broken %v, want %v (%v)", c.body, got, c.breaks, vs)
		}
	}
}
