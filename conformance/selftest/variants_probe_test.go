package selftest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/fixtures"
)

// absentID is the suite's id that names no record (any id at least this large is taken for
// one by the variants below).
const absentID = 2147480000

// probeVariants break one rule of each probe class (conformance/probe.go): each escaped the
// specs written one by one, and must be caught by the generated matrix.
var probeVariants = []variant{
	{"ignores a tag_id that names no record on cards/update", "ID-1",
		mutate(conformance.OpCardsUpdate, func(req map[string]any) {
			if idOf(req["tag_id"]) >= absentID {
				delete(req, "tag_id")
			}
		})},
	{"creates a comment on a card that does not exist, on the caller's first card", "ID-1",
		stateful(func(h httpHandler, m fixtures.Manifest) http.HandlerFunc {
			return mutate(conformance.OpCommentsCreate, func(req map[string]any) {
				if idOf(req["card_id"]) >= absentID {
					req["card_id"] = m.Operations.CardID
				}
			})(h).ServeHTTP
		})},
	{"takes the token after a scheme word other than Bearer (Token, …; Basic is refused)", "AUTH-6",
		func(h httpHandler) httpHandler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " "); ok && scheme != "Bearer" && scheme != "Basic" && tok != "" && !strings.Contains(tok, " ") {
					r.Header.Set("Authorization", "Bearer "+tok)
				}
				h.ServeHTTP(w, r)
			})
		}},
	{"accepts a bearer token by its first 12 characters (a column that truncates, a prefix lookup)", "AUTH-2",
		func(h httpHandler) httpHandler {
			var mu sync.Mutex
			issued := map[string]string{} // a token's first 12 characters → the token
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && len(tok) >= 12 {
					mu.Lock()
					full, known := issued[tok[:12]]
					mu.Unlock()
					if known {
						r.Header.Set("Authorization", "Bearer "+full)
					}
				}
				if r.URL.Path != conformance.OpAuthenticate.Path {
					h.ServeHTTP(w, r)
					return
				}
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, r)
				var login struct {
					Data struct {
						Token string `json:"token"`
					} `json:"data"`
				}
				if json.Unmarshal(rec.Body.Bytes(), &login) == nil && len(login.Data.Token) >= 12 {
					mu.Lock()
					issued[login.Data.Token[:12]] = login.Data.Token
					mu.Unlock()
				}
				copyAnswer(w, rec.Code, rec.Header(), rec.Body.Bytes())
			})
		}},
	{"accepts a token without the Bearer scheme", "AUTH-6",
		func(h httpHandler) httpHandler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if v := r.Header.Get("Authorization"); v != "" && !strings.HasPrefix(v, "Bearer ") {
					r.Header.Set("Authorization", "Bearer "+v)
				}
				h.ServeHTTP(w, r)
			})
		}},
	{"answers domain cart removal with 401 when an Authorization header is sent", "AUTH-7",
		fake(conformance.OpDomainCartRemove, func(r *http.Request, _ map[string]any) bool {
			return r.Header.Get("Authorization") != ""
		}, 401, map[string]any{"error": true, "message": "Unauthenticated."})},
	{"lets tour/cards/update change a card of a project", "SCOPE-1",
		stateful(func(h httpHandler, m fixtures.Manifest) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				req := bodyOf(r)
				if r.URL.Path != conformance.OpTourCardsUpdate.Path || idOf(req["id"]) != m.Operations.CardID {
					h.ServeHTTP(w, r)
					return
				}
				tok := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
				a := direct(h, conformance.OpCardsUpdate.Path, tok, map[string]any{"id": req["id"], "status": req["status"]})
				a.body = success(map[string]any{"card": map[string]any{"id": req["id"], "status": req["status"]}})
				copyAnswer(w, a.status, a.header, mustJSON(a.body))
			}
		})},
	{"counts X-RateLimit-Remaining down by two", "LIMIT-4",
		rewrite(nil, func(_ *http.Request, _ map[string]any, a *answer) {
			limit, err1 := strconv.Atoi(a.header.Get("X-RateLimit-Limit"))
			rem, err2 := strconv.Atoi(a.header.Get("X-RateLimit-Remaining"))
			if err1 == nil && err2 == nil {
				a.header.Set("X-RateLimit-Remaining", strconv.Itoa(max(0, 2*rem-limit)))
			}
		})},
	{"gives the thumbnail Retry-After in minutes", "LIMIT-5",
		rewrite(op(conformance.OpThumbnailsRegenerate), func(_ *http.Request, _ map[string]any, a *answer) {
			if s, err := strconv.Atoi(a.header.Get("Retry-After")); err == nil && a.status == 429 {
				a.header.Set("Retry-After", strconv.Itoa((s+59)/60))
			}
		})},
	{"rounds total_pages down", "PAGE-1",
		rewrite(op(conformance.OpCommentsList), func(_ *http.Request, _ map[string]any, a *answer) {
			p, _ := a.data()["pagination"].(map[string]any)
			total, _ := p["total"].(float64)
			per, _ := p["per_page"].(float64)
			if per > 0 {
				p["total_pages"] = int(total) / int(per)
			}
		})},
	{"lists at most 20 comments a page, whatever per_page says", "PAGE-1",
		rewrite(op(conformance.OpCommentsList), func(_ *http.Request, _ map[string]any, a *answer) {
			if list, ok := a.data()["comments"].([]any); ok && len(list) > 20 {
				a.data()["comments"] = list[:20]
			}
		})},
}

func init() { variants = append(variants, probeVariants...) }

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("selftest: encode %v: %s", v, err))
	}
	return b
}
