package check_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance/check"
	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// An answer nested past what JSON readers read (10000 levels) is judged by its upper levels:
// a right answer with a deep extra member passes (the suite called it "not JSON", ENV-1, where
// the proxy passed it), and a wrong one breaks the rule its upper levels break (DOC-1), as the
// proxy says.
func TestAnswersNestedPastReadersAreJudgedByTheirUpperLevels(t *testing.T) {
	deep := strings.Repeat("[", 10001) + strings.Repeat("]", 10001)
	h := http.Header{"Content-Type": {"application/json"}, "X-Ratelimit-Limit": {"60"}, "X-Ratelimit-Remaining": {"59"}}
	for _, tt := range []struct {
		body string
		want []rules.ID
	}{
		{`{"error":false,"message":"ok","data":{"tags":[],"extra":` + deep + `}}`, nil},
		{`{"error":false,"message":"ok","data":` + deep + `}`, []rules.ID{rules.DOC1}},
	} {
		ex := check.Exchange{Op: op(t, "tagsList"), ReqHeader: http.Header{"Content-Type": {"application/json"}}, ReqBody: []byte(`{}`),
			Status: http.StatusOK, Header: h, Body: []byte(tt.body)}
		if got := check.IDs(check.Judge(context.Background(), ex)); !slices.Equal(got, tt.want) {
			t.Errorf("answer %.60s…: rules %v, want %v", tt.body, got, tt.want)
		}
		if _, cut := check.Readable([]byte(tt.body)); !cut {
			t.Errorf("answer %.60s…: Readable did not cut it", tt.body)
		}
	}
	if b, cut := check.Readable([]byte(`{"a":` + deep[:9999] + deep[len(deep)-9999:] + `}`)); cut || len(b) != 5+2*9999+1 {
		t.Errorf("an answer 10000 levels deep was cut (%d bytes)", len(b))
	}
}
