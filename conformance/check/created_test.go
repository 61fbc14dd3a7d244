package check_test

import (
	"context"
	"net/http"
	"slices"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance/check"
)

// A create whose status codes the interface does not show may answer 201 where the document
// has its 200: the body is stated whatever the success status, so it is judged by the
// documented success's schema (a card with a string id was left unjudged under 201).
func TestCreatedAnswerOfACreateWithoutStatedCodesIsJudged(t *testing.T) {
	op := operation(t, "cardsCreate")
	h := http.Header{"Content-Type": {"application/json"}}
	for _, c := range []struct {
		body   string
		breaks bool
	}{
		{`{"error":false,"message":"ok","data":{"card":{"id":"7"}}}`, true},
		{`{"error":false,"message":"ok","data":"a card"}`, true},
	} {
		ex := check.Exchange{Op: op, ReqHeader: h, ReqBody: []byte(`{"title":"n"}`), Status: http.StatusCreated, Header: h, Body: []byte(c.body)}
		vs := check.Judge(context.Background(), ex)
		if got := slices.ContainsFunc(vs, func(v check.Violation) bool { return v.Rule == "DOC-1" }); got != c.breaks {
			t.Errorf("201 with %s: DOC-1 broken %v, want %v (%v)", c.body, got, c.breaks, vs)
		}
	}
}
