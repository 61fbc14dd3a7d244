package proxy_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// The proxy judges the rules that span one caller's exchanges through the checker's tracker: a
// deployment that keeps X-RateLimit-Remaining where it was breaks LIMIT-1 on the third answer
// in a row, and one whose tag list does not grow after a create breaks LIST-1; the reference
// mock breaks neither.
func TestProxyJudgesAcrossOneCallersExchanges(t *testing.T) {
	const pTagsCreate = "/services/operations/v1/operations/tags/create"
	stuck := func(_ *int, h http.Header, _ map[string]any) {
		h.Set("X-RateLimit-Remaining", h.Get("X-RateLimit-Limit"))
	}
	frozen := func(_ *int, _ http.Header, body map[string]any) {
		body["data"] = map[string]any{"tags": []any{}}
	}
	for _, c := range []struct {
		name     string
		upstream http.Handler
		want     []string
	}{
		{"the reference mock", newMock(t), nil},
		{"a Remaining that never counts down", breakAnswer(newMock(t), pTagsList, stuck), []string{string(rules.LIMIT1)}},
		{"a tag list that never grows", breakAnswer(newMock(t), pTagsList, frozen), []string{string(rules.LIST1)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := startProxy(t, c.upstream)
			token := s.login(t, manifest().Users.Member)
			var got []string
			for _, call := range []struct{ path, body string }{
				{pTagsList, `{}`}, {pTagsList, `{}`}, {pTagsList, `{}`},
				{pTagsCreate, `{"name": "proxy tracked"}`}, {pTagsList, `{}`},
			} {
				for _, id := range violations(s.post(t, call.path, token, call.body)) {
					if !slices.Contains(got, id) {
						got = append(got, id)
					}
				}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("violations %v, want %v", got, c.want)
			}
		})
	}
}
