package proxy_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"testing"

	"github.com/opsapi/mocktoolkit/proxy"

	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// breakAnswer wraps the mock so that change can alter each answer at path (status, headers,
// decoded body) before it is sent.
func breakAnswer(next http.Handler, path string, change func(status *int, h http.Header, body map[string]any)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != path {
			next.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		status := rec.Code
		var body map[string]any
		_ = json.Unmarshal(rec.Body.Bytes(), &body)
		h := rec.Header().Clone()
		change(&status, h, body)
		b, _ := json.Marshal(body)
		h.Set("Content-Length", strconv.Itoa(len(b)))
		for k, v := range h {
			w.Header()[k] = v
		}
		w.WriteHeader(status)
		_, _ = w.Write(b)
	})
}

const (
	pCardsList    = "/services/operations/v1/operations/cards/list"
	pCommentsList = "/services/operations/v1/operations/comments/list"
	pTagsList     = "/services/operations/v1/operations/tags/list"
	pCardsUpdate  = "/services/operations/v1/operations/cards/update"
	// pMasterBoardsSync is a superadmin operation: a member gets 403.
	pMasterBoardsSync = "/services/operations/v1/admin/master-boards/sync"
)

// Each broken variant of the mock breaks one rule; the proxy names exactly that rule, in
// X-Contract-Violations and in the journal, and still passes the broken answer on unchanged.
func TestBrokenVariantsAreCaught(t *testing.T) {
	cardID := manifest().Operations.CardID
	variants := []struct {
		name   string
		change func(status *int, h http.Header, body map[string]any)
		path   string
		noAuth bool
		body   string
		want   []rules.ID
	}{
		{"a missing rate-limit header", func(_ *int, h http.Header, _ map[string]any) { h.Del("X-RateLimit-Remaining") },
			pCardsList, false, `{}`, []rules.ID{rules.HDR1}},
		{"a rate-limit header that is not an integer", func(_ *int, h http.Header, _ map[string]any) { h.Set("X-RateLimit-Limit", "lots") },
			pTagsList, false, `{}`, []rules.ID{rules.HDR1}},
		{"a status the operation does not list", func(s *int, _ http.Header, body map[string]any) {
			*s = http.StatusNotFound
			clear(body)
			body["error"], body["message"], body["data"] = true, "Not here.", []any{}
		}, pCardsList, false, `{}`, []rules.ID{rules.STATUS1}},
		{"a 401 with data (not shape (b))", func(_ *int, _ http.Header, body map[string]any) { body["data"] = []any{} },
			pCardsList, true, `{}`, []rules.ID{rules.ENV3}},
		{"a 403 in neither shape (a) nor (b)", func(_ *int, _ http.Header, body map[string]any) { body["errors"] = []any{"No."} },
			pMasterBoardsSync, false, `{"board_id": 1}`, []rules.ID{rules.ENV3}},
		{"a 404 whose data is not an array", func(s *int, _ http.Header, body map[string]any) {
			*s = http.StatusNotFound
			clear(body)
			body["error"], body["message"], body["data"] = true, "Card 1 not found.", map[string]any{}
		}, pCardsUpdate, false, `{"id": 1}`, []rules.ID{rules.ENV2}},
		{"a success whose error is not a boolean", func(_ *int, _ http.Header, body map[string]any) { body["error"] = "false" },
			pTagsList, false, `{}`, []rules.ID{rules.ENV1}},
		{"a field of the wrong type in an answer", func(_ *int, _ http.Header, body map[string]any) {
			body["data"].(map[string]any)["pagination"].(map[string]any)["total"] = "12"
		}, pCommentsList, false, fmt.Sprintf(`{"card_id": %d}`, cardID), []rules.ID{rules.DOC1}},
		{"an integer in an answer a hair off whole (float64 reads it as 12)", func(_ *int, _ http.Header, body map[string]any) {
			body["data"].(map[string]any)["pagination"].(map[string]any)["total"] = json.Number("12.0000000000000000001")
		}, pCommentsList, false, fmt.Sprintf(`{"card_id": %d}`, cardID), []rules.ID{rules.DOC1}},
		{"an integer in an answer below the smallest float64 (read as 0)", func(_ *int, _ http.Header, body map[string]any) {
			body["data"].(map[string]any)["pagination"].(map[string]any)["total"] = json.Number("1e-400")
		}, pCommentsList, false, fmt.Sprintf(`{"card_id": %d}`, cardID), []rules.ID{rules.DOC1}},
		{"a page whose total_pages does not add up", func(_ *int, _ http.Header, body map[string]any) {
			body["data"].(map[string]any)["pagination"].(map[string]any)["total_pages"] = 99
		}, pCommentsList, false, fmt.Sprintf(`{"card_id": %d, "page": 1, "per_page": 2}`, cardID), []rules.ID{rules.PAGE1}},
		{"a 429 without Retry-After", func(s *int, h http.Header, body map[string]any) {
			*s = http.StatusTooManyRequests
			h.Del("Retry-After")
			clear(body)
			body["error"], body["message"] = true, "Too many requests."
		}, pCardsList, false, `{}`, []rules.ID{rules.HDR2}},
		{"a 422 whose errors are not keyed by field", func(_ *int, _ http.Header, body map[string]any) {
			body["errors"] = map[string]any{"request": []any{"Something is wrong."}}
		}, pCommentsList, false, `{"card_id": "seven"}`, []rules.ID{rules.ERR5, rules.REQ1}},
		{"a 422 whose errors is a list", func(_ *int, _ http.Header, body map[string]any) {
			body["errors"] = []any{"The card id field must be an integer."}
		}, pCommentsList, false, `{"card_id": "seven"}`, []rules.ID{rules.ENV4, rules.REQ1}},
		{"a success for a request that breaks a field rule", func(s *int, _ http.Header, body map[string]any) {
			*s = http.StatusOK
			clear(body)
			body["error"], body["message"] = false, "OK."
			body["data"] = map[string]any{"comments": []any{}, "pagination": map[string]any{"total": 0, "per_page": 15, "current_page": 1, "total_pages": 1}}
		}, pCommentsList, false, `{"card_id": "seven"}`, []rules.ID{rules.ERR6, rules.REQ1}},
	}
	for _, v := range variants {
		t.Run("catches "+v.name, func(t *testing.T) {
			s := startProxy(t, breakAnswer(newMock(t), v.path, v.change))
			token := ""
			if !v.noAuth {
				token = s.login(t, manifest().Users.Member)
			}
			got := s.post(t, v.path, token, v.body)
			var want []string
			for _, id := range v.want {
				want = append(want, string(id))
			}
			if ids := journalRules(s.proxy.Exchanges(1)[0]); !sameSet(ids, want) {
				t.Errorf("journal names %v, want %v: %+v", ids, want, s.proxy.Exchanges(1)[0].Violations)
			}
			if ids := violations(got); !sameSet(ids, want) {
				t.Errorf("X-Contract-Violations %v, want %v", ids, want)
			}
			upstream := s.seen.lastAnswer()
			got.header.Del(proxy.HeaderViolations)
			if got.status != upstream.status || !bytes.Equal(got.body, upstream.body) || !reflect.DeepEqual(got.header, upstream.header) {
				t.Errorf("the broken answer was changed on its way: got %d %v %q, upstream %d %v %q", got.status, got.header, got.body, upstream.status, upstream.header, upstream.body)
			}
		})
	}
}

// A request that breaks a field rule is the client's violation, not the deployment's.
func TestRequestViolationsAreTheClients(t *testing.T) {
	s := startProxy(t, newMock(t))
	token := s.login(t, manifest().Users.Member)
	got := s.post(t, pCommentsList, token, `{"card_id": 1, "per_page": 500}`)
	if got.status != http.StatusUnprocessableEntity {
		t.Fatalf("status %d, want the mock's 422", got.status)
	}
	vs := s.proxy.Exchanges(1)[0].Violations
	if len(vs) != 1 || vs[0].Rule != rules.REQ1 || vs[0].Party != proxy.Client {
		t.Fatalf("violations %+v, want one client REQ-1", vs)
	}
	if n := s.proxy.DeploymentViolations(); n != 0 {
		t.Errorf("%d deployment violations, want 0", n)
	}
}

// When the upstream cannot be reached the client gets 502 in shape (a), with a message naming
// the upstream, and the rule UP-1.
func TestUpstreamFailureAnswers502InShapeA(t *testing.T) {
	s := startProxy(t, newMock(t))
	s.upstream.Close()
	got := s.post(t, pCardsList, "", `{}`)
	var body map[string]any
	if err := json.Unmarshal(got.body, &body); err != nil {
		t.Fatalf("502 body %q is not JSON: %v", got.body, err)
	}
	msg, _ := body["message"].(string)
	data, isArray := body["data"].([]any)
	if got.status != http.StatusBadGateway || body["error"] != true || !isArray || len(data) != 0 || !bytes.Contains([]byte(msg), []byte(s.upstream.URL)) {
		t.Errorf("got %d %s, want 502 shape (a) naming %s", got.status, got.body, s.upstream.URL)
	}
	if ids := violations(got); !sameSet(ids, []string{string(rules.UP1)}) {
		t.Errorf("X-Contract-Violations %v, want [%s]", ids, rules.UP1)
	}
}

func journalRules(e proxy.Exchange) []string {
	var ids []string
	for _, v := range e.Violations {
		ids = append(ids, string(v.Rule))
	}
	return ids
}

func sameSet(got, want []string) bool {
	seen := map[string]int{}
	for _, g := range got {
		seen[g]++
	}
	for _, w := range want {
		seen[w]--
	}
	for _, n := range seen {
		if n != 0 {
			return false
		}
	}
	return true
}

// Removals from one cart are judged together, by the cart's session token (the operation is
// public): a removal that leaves item_count where the previous one left it breaks CART-2, and
// removing an item again with 200 breaks CART-1.
func TestCartRemovalsAreJudgedTogether(t *testing.T) {
	const pCartRemove = "/services/domains/v1/domain-cart/remove"
	cart := manifest().Domains.Carts[0]
	keepCount := func(_ *int, _ http.Header, body map[string]any) {
		if data, ok := body["data"].(map[string]any); ok {
			data["cart"].(map[string]any)["item_count"] = 7
		}
	}
	s := startProxy(t, breakAnswer(newMock(t), pCartRemove, keepCount))
	remove := func(item int64) []string {
		got := s.post(t, pCartRemove, "", fmt.Sprintf(`{"session_token": %q, "cart_item_id": %d}`, cart.SessionToken, item))
		return violations(got)
	}
	if ids := remove(cart.ItemIDs[0]); len(ids) > 0 {
		t.Fatalf("the first removal: %v", ids)
	}
	if ids := remove(cart.ItemIDs[1]); !sameSet(ids, []string{string(rules.CART2)}) {
		t.Errorf("a second removal leaving item_count at 7: %v, want CART-2", ids)
	}
}
