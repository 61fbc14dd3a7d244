package explore

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// brokenCorpus derives, from recorded entries, the answers the self-test's broken variants
// typically give, and adds hand-made bad ones, each with the rules it breaks.
func brokenCorpus(t *testing.T, recorded []exchange) []exchange {
	t.Helper()
	find := func(name string) exchange {
		for _, e := range recorded {
			if e.name == name {
				return e
			}
		}
		t.Fatalf("no recorded exchange %q", name)
		return exchange{}
	}
	// breaks copies a recorded exchange and lets change edit its answer.
	breaks := func(name, from string, want []rules.ID, change func(status *int, h http.Header, body map[string]any)) exchange {
		e := find(from)
		e.name, e.want, e.header = name, want, e.header.Clone()
		var body map[string]any
		if err := json.Unmarshal(e.answer, &body); err != nil {
			t.Fatalf("%s: %v", from, err)
		}
		change(&e.status, e.header, body)
		e.answer, _ = json.Marshal(body)
		return e
	}
	none := []rules.ID(nil)
	return []exchange{
		breaks("drops X-RateLimit-Remaining", "tagsList example", []rules.ID{rules.HDR1}, func(_ *int, h http.Header, _ map[string]any) { h.Del("X-RateLimit-Remaining") }),
		breaks("Remaining above Limit", "tagsList example", []rules.ID{rules.HDR1}, func(_ *int, h http.Header, _ map[string]any) {
			h.Set("X-RateLimit-Limit", "10")
			h.Set("X-RateLimit-Remaining", "11")
		}),
		breaks("success without error", "tagsList example", []rules.ID{rules.ENV1}, func(_ *int, _ http.Header, b map[string]any) { delete(b, "error") }),
		breaks("an unlisted status", "cardsList example", []rules.ID{rules.STATUS1}, func(s *int, _ http.Header, _ map[string]any) { *s = http.StatusTeapot }),
		breaks("any status where codes are not shown", "cardsCreate example", none, func(s *int, _ http.Header, _ map[string]any) { *s = http.StatusCreated }),
		breaks("401 with data", "cardsList without a token", []rules.ID{rules.ENV3}, func(_ *int, _ http.Header, b map[string]any) { b["data"] = []any{} }),
		breaks("401 of authenticate with errors", "authenticate example", none, func(s *int, _ http.Header, b map[string]any) {
			*s = http.StatusUnauthorized
			for k := range b {
				delete(b, k)
			}
			b["error"], b["message"], b["errors"] = true, "Invalid credentials.", []any{"Invalid credentials."}
		}),
		breaks("401 of authenticate in authenticate's own body, data null", "authenticate example", none, func(s *int, _ http.Header, b map[string]any) {
			*s = http.StatusUnauthorized
			b["error"], b["message"], b["data"], b["errors"] = true, "Invalid credentials.", nil, []any{"Invalid credentials."}
		}),
		breaks("429 of authenticate with errors", "authenticate example", []rules.ID{rules.ENV3}, func(s *int, h http.Header, b map[string]any) {
			*s = http.StatusTooManyRequests
			h.Set("Retry-After", "30")
			for k := range b {
				delete(b, k)
			}
			b["error"], b["message"], b["errors"] = true, "Too many attempts.", []any{"Too many attempts."}
		}),
		breaks("401 of authenticate with errors not a list", "authenticate example", []rules.ID{rules.ENV3}, func(s *int, _ http.Header, b map[string]any) {
			*s = http.StatusUnauthorized
			for k := range b {
				delete(b, k)
			}
			b["error"], b["message"], b["errors"] = true, "Invalid credentials.", "wrong"
		}),
		breaks("422 keyed by body.<field>, the field's location", "commentsList with a wrong type", none, func(_ *int, _ http.Header, b map[string]any) {
			b["errors"] = map[string]any{"body.card_id": []any{"The card id must be an integer."}}
		}),
		breaks("422 keyed by a JSON pointer to the field", "commentsList with a wrong type", none, func(_ *int, _ http.Header, b map[string]any) {
			b["errors"] = map[string]any{"/card_id": []any{"The card id must be an integer."}}
		}),
		breaks("422 keyed by body.<another field>", "commentsList with a wrong type", []rules.ID{rules.ERR5}, func(_ *int, _ http.Header, b map[string]any) {
			b["errors"] = map[string]any{"body.page": []any{"The card id must be an integer."}}
		}),
		breaks("422 naming no field", "commentsList with a wrong type", []rules.ID{rules.ERR5}, func(_ *int, _ http.Header, b map[string]any) { b["errors"] = map[string]any{} }),
		breaks("422 whose errors is a list", "commentsList with a wrong type", []rules.ID{rules.ENV4}, func(_ *int, _ http.Header, b map[string]any) {
			b["errors"] = []any{"card_id must be an integer"}
		}),
		breaks("success for a broken field", "commentsList with a wrong type", []rules.ID{rules.ERR6}, func(s *int, _ http.Header, b map[string]any) {
			*s = http.StatusOK
			for k := range b {
				delete(b, k)
			}
			b["error"], b["message"], b["data"] = false, "ok", map[string]any{"comments": []any{}, "pagination": map[string]any{"total": 0, "per_page": 15, "current_page": 1, "total_pages": 0}}
		}),
		breaks("429 without Retry-After", "cardsList without a token", []rules.ID{rules.HDR2}, func(s *int, h http.Header, _ map[string]any) { *s = http.StatusTooManyRequests; h.Del("Retry-After") }),
		breaks("per-minute 429 asking an hour", "cardsList without a token", []rules.ID{rules.LIMIT6}, func(s *int, h http.Header, b map[string]any) {
			*s = http.StatusTooManyRequests
			h.Set("Retry-After", "3600")
			for k := range b {
				delete(b, k)
			}
			b["error"], b["message"] = true, "Too many requests."
		}),
		breaks("version_id as an integer", "themeVersionsDeprecate example", []rules.ID{rules.DOC1}, func(_ *int, _ http.Header, b map[string]any) {
			b["data"].(map[string]any)["version_id"] = 7
		}),
		breaks("404 with a data object", "groupsDelete example", []rules.ID{rules.ENV2}, func(s *int, _ http.Header, b map[string]any) {
			*s = http.StatusNotFound
			b["error"], b["data"] = true, map[string]any{}
		}),
		breaks("403 in neither shape", "masterBoardsList example", []rules.ID{rules.ENV3}, func(s *int, _ http.Header, b map[string]any) {
			*s = http.StatusForbidden
			b["error"], b["data"] = true, "no"
		}),
		{name: "400 that is not JSON", op: find("cardsList example").op, token: find("cardsList example").token, body: "{}", status: http.StatusBadRequest,
			header: http.Header{"X-Ratelimit-Limit": {"60"}, "X-Ratelimit-Remaining": {"59"}}, answer: []byte("Bad Request"), want: []rules.ID{rules.ENV2}},
		{name: "413 in any shape", op: find("cardsList example").op, token: find("cardsList example").token, body: "{}", status: http.StatusRequestEntityTooLarge,
			header: http.Header{"Content-Type": {"application/json"}, "X-Ratelimit-Limit": {"60"}, "X-Ratelimit-Remaining": {"59"}}, answer: []byte(`{"error":true,"message":"too large","data":[]}`)},
	}
}
