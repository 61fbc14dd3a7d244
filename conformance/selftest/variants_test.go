package selftest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/opsapi/mocktoolkit/conformance"
)

type httpHandler = http.Handler

// answer is a recorded answer of the mock, for a variant to break.
type answer struct {
	status int
	header http.Header
	body   map[string]any // nil unless the body is a JSON object
}

func (a *answer) data() map[string]any {
	d, _ := a.body["data"].(map[string]any)
	return d
}

// rewrite forwards every request to the mock and lets fix change the answers to op (every
// operation when op is nil); req is the request's JSON body.
func rewrite(op *conformance.Operation, fix func(r *http.Request, req map[string]any, a *answer)) func(httpHandler) httpHandler {
	return func(h httpHandler) httpHandler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			raw, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(raw))
			var req map[string]any
			_ = json.Unmarshal(raw, &req)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			if r.Method != http.MethodPost || (op != nil && r.URL.Path != op.Path) {
				copyAnswer(w, rec.Result().StatusCode, rec.Header(), rec.Body.Bytes())
				return
			}
			a := &answer{status: rec.Code, header: rec.Header().Clone()}
			_ = json.Unmarshal(rec.Body.Bytes(), &a.body)
			fix(r, req, a)
			body := rec.Body.Bytes()
			if a.body != nil {
				body, _ = json.Marshal(a.body)
			}
			copyAnswer(w, a.status, a.header, body)
		})
	}
}

// fake answers requests to op that match when with status and body, without asking the mock.
func fake(op conformance.Operation, when func(r *http.Request, req map[string]any) bool, status int, body map[string]any) func(httpHandler) httpHandler {
	return func(h httpHandler) httpHandler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			raw, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(raw))
			var req map[string]any
			_ = json.Unmarshal(raw, &req)
			if r.URL.Path != op.Path || !when(r, req) {
				h.ServeHTTP(w, r)
				return
			}
			b, _ := json.Marshal(body)
			hdr := http.Header{"Content-Type": {"application/json"}, "X-Ratelimit-Limit": {"1000"}, "X-Ratelimit-Remaining": {"999"}}
			copyAnswer(w, status, hdr, b)
		})
	}
}

func copyAnswer(w http.ResponseWriter, status int, h http.Header, body []byte) {
	for k, v := range h {
		if k != "Content-Length" {
			w.Header()[k] = v
		}
	}
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

func success(data any) map[string]any {
	return map[string]any{"error": false, "message": "OK", "data": data}
}

func op(o conformance.Operation) *conformance.Operation { return &o }

// A variant is the reference mock with one rule of the interface broken.
type variant struct {
	name string // what is broken
	rule string // the interface rule it breaks
	wrap func(httpHandler) httpHandler
}

var variants = []variant{
	{"drops X-RateLimit-Remaining from every answer", "§Endpoints: every response carries the rate-limit headers",
		rewrite(nil, func(_ *http.Request, _ map[string]any, a *answer) { a.header.Del("X-RateLimit-Remaining") })},
	{"keeps X-RateLimit-Remaining at the limit", "§Limits: Remaining is the number left in the window",
		rewrite(nil, func(_ *http.Request, _ map[string]any, a *answer) {
			a.header.Set("X-RateLimit-Remaining", a.header.Get("X-RateLimit-Limit"))
		})},
	{"answers 200 instead of 404", "§Errors rule 2",
		rewrite(nil, func(_ *http.Request, _ map[string]any, a *answer) {
			if a.status == 404 {
				a.status, a.body = 200, success([]any{})
			}
		})},
	{"types data.version_id as an integer", "§Endpoints 24: data.version_id (string)",
		rewrite(op(conformance.OpThemeVersionsDeprecate), func(_ *http.Request, req map[string]any, a *answer) {
			if a.status == 200 {
				a.data()["version_id"] = req["version_id"]
			}
		})},
	{"drops `error` from success bodies", "§Conventions 3",
		rewrite(nil, func(_ *http.Request, _ map[string]any, a *answer) {
			if a.status < 300 {
				delete(a.body, "error")
			}
		})},
	{"swallows the thumbnail 429", "§Limits: 5 regenerations per project per 10 minutes",
		rewrite(op(conformance.OpThumbnailsRegenerate), func(_ *http.Request, _ map[string]any, a *answer) {
			if a.status == 429 {
				a.status, a.body = 200, success(map[string]any{"preview_image": "https://example.invalid/p.png"})
				a.header.Del("Retry-After")
			}
		})},
	{"accepts a 256-character title on cards/update", "§Errors rule 1 (max length)",
		fake(conformance.OpCardsUpdate, func(_ *http.Request, req map[string]any) bool {
			s, _ := req["title"].(string)
			return len(s) > 255
		}, 200, success(map[string]any{"card": "updated"}))},
	{"requires no token on tags/list", "§Authentication rules 1-2",
		fake(conformance.OpTagsList, func(r *http.Request, _ map[string]any) bool { return r.Header.Get("Authorization") == "" },
			200, success(map[string]any{"tags": []any{}}))},
	{"lets a member through master-boards/list", "§Authentication rules 3-4",
		rewrite(op(conformance.OpMasterBoardsList), func(_ *http.Request, _ map[string]any, a *answer) {
			if a.status == 403 {
				a.status, a.body = 200, success(map[string]any{"boards": []any{}})
			}
		})},
	{"fakes tour card updates without carrying them out", "§States and transitions: tour card status",
		fake(conformance.OpTourCardsUpdate, func(r *http.Request, _ map[string]any) bool { return r.Header.Get("Authorization") != "" },
			200, success(map[string]any{"card": map[string]any{"status": "open"}}))},
	{"omits Retry-After from 429 answers", "§Endpoints: a 429 carries Retry-After",
		rewrite(nil, func(_ *http.Request, _ map[string]any, a *answer) { a.header.Del("Retry-After") })},
	{"answers 422 without `errors`", "§Endpoints: shape (c); §Errors rule 1",
		rewrite(nil, func(_ *http.Request, _ map[string]any, a *answer) {
			if a.status == 422 {
				delete(a.body, "errors")
			}
		})},
	{"keys validation errors by another name", "§Errors rule 1: errors keyed by field",
		rewrite(nil, func(_ *http.Request, _ map[string]any, a *answer) {
			if a.status == 422 {
				a.body["errors"] = map[string]any{"field": []any{"invalid"}}
			}
		})},
	{"types pagination.total as a string", "§Resources: pagination fields are integers",
		rewrite(op(conformance.OpCommentsList), func(_ *http.Request, _ map[string]any, a *answer) {
			if p, ok := a.data()["pagination"].(map[string]any); ok {
				p["total"] = fmt.Sprint(p["total"])
			}
		})},
	{"answers 422 instead of 409 for a locked cart", "§Errors rule 3; §Endpoints 22",
		rewrite(op(conformance.OpDomainCartRemove), func(_ *http.Request, _ map[string]any, a *answer) {
			if a.status == 409 {
				a.status = 422
				a.body = map[string]any{"message": "locked", "errors": map[string]any{"session_token": []any{"locked"}}}
			}
		})},
	{"adds `data` to 401 bodies", "§Endpoints: shape (b) is error and message only",
		rewrite(nil, func(_ *http.Request, _ map[string]any, a *answer) {
			if a.status == 401 {
				a.body["data"] = []any{}
			}
		})},
	{"answers 403 instead of 401", "§Authentication rule 2",
		rewrite(nil, func(_ *http.Request, _ map[string]any, a *answer) {
			if a.status == 401 {
				a.status = 403
			}
		})},
	{"deprecates a version that is not approved", "§States and transitions: approved only",
		rewrite(op(conformance.OpThemeVersionsDeprecate), func(_ *http.Request, req map[string]any, a *answer) {
			if a.status == 400 {
				a.status, a.body = 200, success(map[string]any{"version_id": fmt.Sprint(req["version_id"]), "theme_status": "deprecated"})
			}
		})},
	{"leaves a removed item in data.cart.items", "§Endpoints 22: removes one item",
		rewrite(op(conformance.OpDomainCartRemove), func(_ *http.Request, req map[string]any, a *answer) {
			if cart, ok := a.data()["cart"].(map[string]any); ok && a.status == 200 {
				items, _ := cart["items"].([]any)
				cart["items"] = append(items, map[string]any{"id": req["cart_item_id"]})
			}
		})},
	{"never answers 429 on tags/list", "§Errors: 429 once the limit is spent",
		rewrite(op(conformance.OpTagsList), func(_ *http.Request, _ map[string]any, a *answer) {
			if a.status == 429 {
				a.status, a.body = 200, success(map[string]any{"tags": []any{}})
				a.header.Del("Retry-After")
			}
		})},
	{"answers text/plain", "§Conventions 1 (JSON), as the spec document encodes it",
		rewrite(nil, func(_ *http.Request, _ map[string]any, a *answer) {
			a.header.Set("Content-Type", "text/plain; charset=utf-8")
		})},
	{"answers cards/update with 201", "§Endpoints 5: 200",
		rewrite(op(conformance.OpCardsUpdate), func(_ *http.Request, _ map[string]any, a *answer) {
			if a.status == 200 {
				a.status = 201
			}
		})},
	{"answers master card create with 200", "§Errors: 201 for master card create",
		rewrite(op(conformance.OpMasterCardsCreate), func(_ *http.Request, _ map[string]any, a *answer) {
			if a.status == 201 {
				a.status = 200
			}
		})},
	{"does not check per_page's maximum", "§Limits: per_page max 100",
		fake(conformance.OpCommentsList, func(_ *http.Request, req map[string]any) bool {
			n, _ := req["per_page"].(float64)
			return n > 100
		}, 200, success(map[string]any{"comments": []any{}, "pagination": map[string]any{"total": 0, "per_page": 101, "current_page": 1, "total_pages": 1}}))},
	{"answers conversation restore with data {}", "§Endpoints 12: data is an empty array",
		rewrite(op(conformance.OpConversationsRestore), func(_ *http.Request, _ map[string]any, a *answer) {
			if a.status == 200 {
				a.body["data"] = map[string]any{}
			}
		})},
	{"answers 409 to a version that is not approved", "§Errors: 409 is domain cart removal only",
		rewrite(op(conformance.OpThemeVersionsDeprecate), func(_ *http.Request, _ map[string]any, a *answer) {
			if a.status == 400 {
				a.status = 409
			}
		})},
	{"logs in with a wrong password", "§What the service does: authenticates by e-mail and password",
		rewrite(op(conformance.OpAuthenticate), func(_ *http.Request, _ map[string]any, a *answer) {
			if a.status == 401 {
				a.status, a.body = 200, success(map[string]any{"token": "forged", "id": 1, "name": "x", "email": "x@example.invalid",
					"language": nil, "needs_code__regeneration": false, "warn_message": ""})
			}
		})},
	{"types sync counters as strings", "§Endpoints 10: counters are integers",
		rewrite(op(conformance.OpMasterBoardsSync), func(_ *http.Request, _ map[string]any, a *answer) {
			for k, v := range a.data() {
				a.data()[k] = fmt.Sprint(v)
			}
		})},
}

// TestSuitePassesTheReference runs the contract profile against the correct mock: it must pass.
func TestSuitePassesTheReference(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole suite")
	}
	specs, ok, out := runSuite(t, startMock(t, nil), "-ginkgo.label-filter=contract")
	if !ok {
		t.Fatalf("the contract profile fails against the reference mock:\n%s", out)
	}
	t.Logf("the contract profile passes against the reference mock (%d specs)", len(specs))
}

// TestSuiteCatchesBreaks runs the contract profile against every broken variant: each run must
// fail. It lists which specs caught which break, in the log and in ../testdata/selftest.golden
// (rewritten with -update).
func TestSuiteCatchesBreaks(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole suite once per variant")
	}
	if len(variants) < 20 {
		t.Fatalf("%d variants; the suite must prove itself against at least 20", len(variants))
	}
	needFull(t)
	run := variants
	if !full() {
		run = variants[:1]
	}
	var (
		mu     sync.Mutex
		caught = map[string][]string{}
	)
	t.Run("variants", func(t *testing.T) {
		for _, v := range run {
			t.Run(v.name, func(t *testing.T) {
				t.Parallel()
				specs, ok, out := runSuite(t, startMock(t, v.wrap), "-ginkgo.label-filter=contract")
				var failed []string
				for _, s := range specs {
					if s.State.Is(types.SpecStateFailureStates) {
						failed = append(failed, s.Name)
					}
				}
				sort.Strings(failed)
				mu.Lock()
				caught[v.name] = failed
				mu.Unlock()
				if ok || len(failed) == 0 {
					t.Errorf("the suite passes against a mock that %s (breaks %s)\n%s", v.name, v.rule, tail(out, 3000))
				}
			})
		}
	})

	if !full() {
		skipRest(t, len(run), len(variants), "broken variants")
	}
	var b strings.Builder
	b.WriteString("# Broken variants of the reference mock and the contract specs that catch them\n")
	b.WriteString("# (regenerate: go test ./conformance/selftest -run TestSuiteCatchesBreaks -update)\n")
	for _, v := range variants {
		failed := caught[v.name]
		fmt.Fprintf(&b, "\n%s (breaks %s): caught by %d specs\n", v.name, v.rule, len(failed))
		for i, f := range failed {
			if i == 5 {
				fmt.Fprintf(&b, "  ... and %d more\n", len(failed)-5)
				break
			}
			fmt.Fprintf(&b, "  - %s\n", f)
		}
	}
	t.Log("\n" + b.String())
	if *update {
		if err := os.WriteFile(filepath.Join("..", "testdata", "selftest.golden"), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
