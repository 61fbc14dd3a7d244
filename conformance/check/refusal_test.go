package check_test

import (
	"context"
	"net/http"
	"slices"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance/check"
	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// Where a create's codes are not shown, a refusal in a 2xx with `error: true` of a request that
// breaks a field rule is the validation error (ERR-1, D209): its `errors` names the field
// (ERR-5), as the suite's validation specs ask. The proxy passed such a refusal without
// `errors` while the suite failed it.
func TestRefusalOfABrokenFieldNamesIt(t *testing.T) {
	create := operation(t, "tagsCreate")
	for _, c := range []struct {
		name, req, answer string
		breaks            bool
	}{
		{"no errors", `{"name":12345}`, `{"error":true,"message":"The given data was invalid."}`, true},
		{"errors a list", `{"name":12345}`, `{"error":true,"message":"Invalid.","errors":["name must be text"]}`, true},
		{"errors naming another field", `{"name":12345}`, `{"error":true,"message":"Invalid.","errors":{"color":["bad"]}}`, true},
		{"errors naming the field", `{"name":12345}`, `{"error":true,"message":"Invalid.","errors":{"name":["The name must be a string."]}}`, false},
		{"a valid request refused for another reason", `{"name":"Marketing"}`, `{"error":true,"message":"Tag quota reached."}`, false},
	} {
		ex := check.Exchange{Op: create, ReqHeader: http.Header{"Content-Type": {"application/json"}}, ReqBody: []byte(c.req),
			Status: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}, "X-Ratelimit-Limit": {"60"}, "X-Ratelimit-Remaining": {"59"}}, Body: []byte(c.answer)}
		vs := check.Deployment(check.Judge(context.Background(), ex))
		if got := slices.Contains(check.IDs(vs), rules.ERR5); got != c.breaks || len(vs) > 1 {
			t.Errorf("%s: %v, want ERR-5 %v and nothing else", c.name, vs, c.breaks)
		}
	}
}
