package check_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance/check"
)

// The interface is JSON over HTTP and does not name the answers' media type: an answer labelled
// with any JSON media type (application/json, a +json type such as RFC 9457's
// application/problem+json, with or without parameters) is judged by its body; one labelled as
// something that is not JSON breaks DOC-1.
func TestAnswersInAnyJSONMediaType(t *testing.T) {
	op := operation(t, "tagsList")
	body := []byte(`{"error":true,"message":"Unauthenticated."}`)
	for _, c := range []struct {
		contentType string
		breaks      bool
	}{
		{"application/json", false},
		{"application/json; charset=utf-8", false},
		{"application/problem+json", false},
		{"application/vnd.api+json; charset=UTF-8", false},
		{"APPLICATION/HAL+JSON", false},
		{"text/html", true},
		{"text/plain", true},
		{"application/jsonx", true},
	} {
		ex := check.Exchange{Op: op, ReqHeader: http.Header{"Content-Type": {"application/json"}}, ReqBody: []byte(`{}`),
			Status: http.StatusUnauthorized, Header: http.Header{"Content-Type": {c.contentType}}, Body: body}
		if got := len(check.Answer(context.Background(), ex)) > 0; got != c.breaks {
			t.Errorf("Content-Type %q: DOC-1 broken %v, want %v (%v)", c.contentType, got, c.breaks, check.Answer(context.Background(), ex))
		}
	}
}
