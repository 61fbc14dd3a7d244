package selftest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/rules"
	"github.com/opsapi/mocktoolkit/fixtures"
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

// direct sends body to path on the mock h as the caller with token (none when empty).
func direct(h httpHandler, path, token string, body map[string]any) *answer {
	raw, _ := json.Marshal(body)
	r := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(raw))
	r.Header.Set("Content-Type", "application/json")
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	a := &answer{status: rec.Code, header: rec.Header().Clone()}
	_ = json.Unmarshal(rec.Body.Bytes(), &a.body)
	return a
}

// fixtureManifest reads the mock's manifest.
func fixtureManifest(h httpHandler) fixtures.Manifest {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/__mock/fixtures", nil))
	var m fixtures.Manifest
	_ = json.Unmarshal(rec.Body.Bytes(), &m)
	return m
}

// stateful builds a variant that needs the mock's manifest: make is called once per mock, and
// the handler it returns sees every request.
func stateful(make func(h httpHandler, m fixtures.Manifest) http.HandlerFunc) func(httpHandler) httpHandler {
	return func(h httpHandler) httpHandler { return make(h, fixtureManifest(h)) }
}

// bodyOf reads a request's JSON body and puts it back.
func bodyOf(r *http.Request) map[string]any {
	raw, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(raw))
	var req map[string]any
	_ = json.Unmarshal(raw, &req)
	return req
}

// mutate changes the JSON body of requests to o before the mock sees them.
func mutate(o conformance.Operation, change func(req map[string]any)) func(httpHandler) httpHandler {
	return func(h httpHandler) httpHandler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == o.Path {
				if req := bodyOf(r); req != nil {
					change(req)
					raw, _ := json.Marshal(req)
					r.Body = io.NopCloser(bytes.NewReader(raw))
					r.ContentLength = int64(len(raw))
				}
			}
			h.ServeHTTP(w, r)
		})
	}
}

// storesWhileRefusing creates o's record from a request whose field breaks a rule, after fix
// mends the field (ok false: the request is served as is), and answers 422 keyed by the field
// as if it had refused it: the client is told nothing was created.
func storesWhileRefusing(o conformance.Operation, field string, fix func(v any, sent bool) (any, bool), msg string) func(httpHandler) httpHandler {
	return func(h httpHandler) httpHandler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var req map[string]any
			if r.URL.Path == o.Path {
				req = bodyOf(r)
			}
			v, sent := req[field]
			mended, ok := fix(v, sent)
			if req == nil || !ok {
				h.ServeHTTP(w, r)
				return
			}
			req[field] = mended
			raw, _ := json.Marshal(req)
			r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(raw)), int64(len(raw))
			h.ServeHTTP(httptest.NewRecorder(), r)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnprocessableEntity)
			out, _ := json.Marshal(map[string]any{"message": "The given data was invalid.", "errors": map[string][]string{field: {msg}}})
			_, _ = w.Write(out)
		})
	}
}

// keepsCutTag creates a tag whose name is past its 255 characters with the name cut to 255.
var keepsCutTag = storesWhileRefusing(conformance.OpTagsCreate, "name", func(v any, _ bool) (any, bool) {
	name, _ := v.(string)
	return string([]rune(name)[:min(255, utf8.RuneCountInString(name))]), utf8.RuneCountInString(name) > 255
}, "The name may not be greater than 255 characters.")

// keepsBlankComment creates a comment sent without its text, with a text of its own.
var keepsBlankComment = storesWhileRefusing(conformance.OpCommentsCreate, "comment", func(_ any, sent bool) (any, bool) {
	return "(no text)", !sent
}, "The comment field is required.")

// overloadedGateway answers 502, in shape (a) but without the rate-limit headers, to every
// tenth tags list a token sends past its hundredth: a gateway in front of the deployment that
// gives up under a burst. Only the rate-limit floods send so many on one token, so the other
// specs never see it (the golden list of the specs that catch it stays the same run to run).
func overloadedGateway(h httpHandler) httpHandler {
	var mu sync.Mutex
	sent := map[string]int{}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != conformance.OpTagsList.Path {
			h.ServeHTTP(w, r)
			return
		}
		mu.Lock()
		sent[r.Header.Get("Authorization")]++
		n := sent[r.Header.Get("Authorization")]
		mu.Unlock()
		if n <= 100 || n%10 != 0 {
			h.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = w.Write([]byte(`{"error":true,"message":"Bad gateway.","data":[]}`))
	})
}

func idOf(v any) int64 { f, _ := v.(float64); return int64(f) }

// A variant is the reference mock with one rule of the interface broken.
type variant struct {
	name string // what is broken
	rule string // the id of the rule it breaks (conformance/rules.md)
	wrap func(httpHandler) httpHandler
}

// brokenFilter is the label filter a broken variant runs the suite with: the contract specs
// that cite the rule it breaks, since they are the ones that must catch it (a rule checked on
// every answer is caught by any spec: those variants run the whole profile). The window of
// every operation (probe:window, 22 rate windows spent, seconds a run) runs only for a variant
// that breaks a rate-limit rule. The reference mock and the correct variants run the profile
// whole.
func brokenFilter(v variant) string {
	filter := "contract"
	if r, known := rules.ByID(rules.ID(v.rule)); known && !r.EveryAnswer { // the reference mock breaks none
		filter += " && " + conformance.LabelRule + v.rule
	}
	if strings.HasPrefix(v.rule, "LIMIT-") || v.rule == "HDR-2" {
		return filter
	}
	return filter + " && !" + conformance.ProbeWindow
}

var variants = []variant{
	{"drops X-RateLimit-Remaining from every answer", "HDR-1",
		rewrite(nil, func(_ *http.Request, _ map[string]any, a *answer) { a.header.Del("X-RateLimit-Remaining") })},
	{"keeps X-RateLimit-Remaining at the limit", "LIMIT-1",
		rewrite(nil, func(_ *http.Request, _ map[string]any, a *answer) {
			a.header.Set("X-RateLimit-Remaining", a.header.Get("X-RateLimit-Limit"))
		})},
	{"answers 200 instead of 404", "ERR-4",
		rewrite(nil, func(_ *http.Request, _ map[string]any, a *answer) {
			if a.status == 404 {
				a.status, a.body = 200, success([]any{})
			}
		})},
	{"answers 404 to a card update that names a tag, looking the tag up where tags are not kept", "ERR-8",
		fake(conformance.OpCardsUpdate, func(_ *http.Request, req map[string]any) bool { return req["tag_id"] != nil }, 404,
			map[string]any{"error": true, "message": "Tag not found.", "data": []any{}})},
	{"answers 404 to an update of any master card but those it started with, looking them up in a cache filled at start", "ERR-8",
		stateful(func(h httpHandler, m fixtures.Manifest) http.HandlerFunc {
			return fake(conformance.OpMasterCardsUpdate, func(_ *http.Request, req map[string]any) bool {
				id, ok := req["id"].(float64)
				return ok && id < absentID && id != float64(m.Operations.MasterCardID) && id != float64(m.Operations.MasterTourCardID)
			}, 404, map[string]any{"error": true, "message": "Card not found.", "data": []any{}})(h).ServeHTTP
		})},
	{"types data.version_id as an integer", "DOC-1",
		rewrite(op(conformance.OpThemeVersionsDeprecate), func(_ *http.Request, req map[string]any, a *answer) {
			if a.status == 200 {
				a.data()["version_id"] = req["version_id"]
			}
		})},
	{"answers a deprecation with theme_status still approved", "TRANS-3",
		rewrite(op(conformance.OpThemeVersionsDeprecate), func(_ *http.Request, _ map[string]any, a *answer) {
			if a.status == 200 {
				a.data()["theme_status"] = "approved"
			}
		})},
	{"drops `error` from success bodies", "ENV-1",
		rewrite(nil, func(_ *http.Request, _ map[string]any, a *answer) {
			if a.status < 300 {
				delete(a.body, "error")
			}
		})},
	{"swallows the thumbnail 429", "LIMIT-3",
		rewrite(op(conformance.OpThumbnailsRegenerate), func(_ *http.Request, _ map[string]any, a *answer) {
			if a.status == 429 {
				a.status, a.body = 200, success(map[string]any{"preview_image": "https://example.invalid/p.png"})
				a.header.Del("Retry-After")
			}
		})},
	{"cuts a card title past 255 characters that is not plain ASCII to 255, and accepts it", "ERR-1",
		mutate(conformance.OpCardsCreate, func(req map[string]any) {
			if title, ok := req["title"].(string); ok && utf8.RuneCountInString(title) > 255 && strings.ContainsFunc(title, func(r rune) bool { return r > 127 }) {
				req["title"] = string([]rune(title)[:255])
			}
		})},
	{"keeps a tag whose name passes 255 characters, cut to 255, while answering 422", "LIST-1", keepsCutTag},
	{"keeps a comment sent without its text, with a text of its own, while answering 422", "LIST-1", keepsBlankComment},
	{"lists one tag per name, though it answers every create of a name again with success", "LIST-1",
		rewrite(op(conformance.OpTagsList), func(_ *http.Request, _ map[string]any, a *answer) {
			tags, _ := a.data()["tags"].([]any)
			seen, kept := map[any]bool{}, []any{}
			for _, t := range tags {
				if name := t.(map[string]any)["name"]; !seen[name] {
					seen[name] = true
					kept = append(kept, t)
				}
			}
			if tags != nil {
				a.data()["tags"] = kept
			}
		})},
	{"accepts a 256-character title on cards/update", "ERR-1",
		fake(conformance.OpCardsUpdate, func(_ *http.Request, req map[string]any) bool {
			s, _ := req["title"].(string)
			return len(s) > 255
		}, 200, success(map[string]any{"card": "updated"}))},
	{"requires no token on tags/list", "AUTH-1",
		fake(conformance.OpTagsList, func(r *http.Request, _ map[string]any) bool { return r.Header.Get("Authorization") == "" },
			200, success(map[string]any{"tags": []any{}}))},
	{"lets a member through master-boards/list", "AUTH-3",
		rewrite(op(conformance.OpMasterBoardsList), func(_ *http.Request, _ map[string]any, a *answer) {
			if a.status == 403 {
				a.status, a.body = 200, success(map[string]any{"boards": []any{}})
			}
		})},
	{"fakes tour card updates without carrying them out", "TRANS-1",
		fake(conformance.OpTourCardsUpdate, func(r *http.Request, _ map[string]any) bool { return r.Header.Get("Authorization") != "" },
			200, success(map[string]any{"card": map[string]any{"status": "open"}}))},
	{"omits Retry-After from 429 answers", "HDR-2",
		rewrite(nil, func(_ *http.Request, _ map[string]any, a *answer) { a.header.Del("Retry-After") })},
	{"answers 422 without `errors`", "ENV-4",
		rewrite(nil, func(_ *http.Request, _ map[string]any, a *answer) {
			if a.status == 422 {
				delete(a.body, "errors")
			}
		})},
	{"says Retry-After 3600 on a per-minute 429", "LIMIT-6",
		rewrite(nil, func(r *http.Request, _ map[string]any, a *answer) {
			if a.status == 429 && r.URL.Path != conformance.OpThumbnailsRegenerate.Path {
				a.header.Set("Retry-After", "3600")
			}
		})},
	{"takes a due_date that is not a date-time", "ERR-1",
		fake(conformance.OpCardsUpdate, func(_ *http.Request, req map[string]any) bool {
			return req["due_date"] == "not-a-date"
		}, 200, success(map[string]any{"card": "updated"}))},
	{"takes the statuses done and archived on master-cards/update, past its enumeration", "ERR-1",
		mutate(conformance.OpMasterCardsUpdate, func(req map[string]any) {
			if req["status"] == "done" || req["status"] == "archived" {
				req["status"] = "closed"
			}
		})},
	{"reads the numbers 1 and 0 as booleans on master-cards/update", "ERR-1",
		mutate(conformance.OpMasterCardsUpdate, func(req map[string]any) {
			for _, k := range []string{"is_active", "sync_to_projects"} {
				if n, ok := req[k].(float64); ok && (n == 0 || n == 1) {
					req[k] = n == 1
				}
			}
		})},
	{"takes a date without a time as a card's due_date", "ERR-1",
		mutate(conformance.OpCardsUpdate, func(req map[string]any) {
			if d, ok := req["due_date"].(string); ok && len(d) == len("2030-01-31") && strings.Count(d, "-") == 2 {
				req["due_date"] = d + "T00:00:00Z"
			}
		})},
	{"truncates a fractional position on tags/create", "ERR-1",
		mutate(conformance.OpTagsCreate, func(req map[string]any) {
			if f, ok := req["position"].(float64); ok && f != float64(int64(f)) {
				req["position"] = int64(f)
			}
		})},
	{"reads the text \"true\" as a boolean on widget/cards/list", "ERR-1",
		mutate(conformance.OpWidgetCardsList, func(req map[string]any) {
			if v, ok := req["include_snoozed"].(string); ok {
				req["include_snoozed"] = v == "true"
			}
		})},
	{"reads an integer written as text on boards/update", "ERR-1",
		mutate(conformance.OpBoardsUpdate, func(req map[string]any) {
			for k, v := range req {
				if t, ok := v.(string); ok {
					if n, err := strconv.ParseInt(t, 10, 64); err == nil && (k == "id" || k == "position") {
						req[k] = n
					}
				}
			}
		})},
	{"takes a priority in capitals on cards/update", "ERR-1",
		mutate(conformance.OpCardsUpdate, func(req map[string]any) {
			if v, ok := req["priority"].(string); ok {
				req["priority"] = strings.ToLower(v)
			}
		})},
	{"answers 400 to closing a tour card that does not exist, 404 only to opening one", "ID-1",
		rewrite(op(conformance.OpTourCardsUpdate), func(_ *http.Request, req map[string]any, a *answer) {
			if a.status == 404 && req["status"] == "closed" {
				a.status, a.body = 400, map[string]any{"error": true, "message": "Unknown tour card.", "data": []any{}}
			}
		})},
	{"takes a master card status on tour/cards/update", "ERR-1",
		mutate(conformance.OpTourCardsUpdate, func(req map[string]any) {
			if v, ok := req["status"].(string); ok && v != "open" && v != "closed" && !strings.HasPrefix(v, "not-") && v != strings.ToUpper(v) {
				req["status"] = "closed"
			}
		})},
	{"refuses null for description on boards/update, a field the interface marks null", "ERR-3",
		rewrite(op(conformance.OpBoardsUpdate), func(_ *http.Request, req map[string]any, a *answer) {
			if v, sent := req["description"]; sent && v == nil {
				a.status, a.body = 422, map[string]any{"message": "The description field must be a string.", "errors": map[string]any{"description": []any{"The description field must be a string."}}}
			}
		})},
	{"answers a malformed e-mail with 401 instead of a validation error", "ERR-1",
		rewrite(op(conformance.OpAuthenticate), func(_ *http.Request, req map[string]any, a *answer) {
			if req["email"] == "not-an-email" && a.status == 422 {
				a.status, a.body = 401, map[string]any{"error": true, "message": "These credentials do not match our records."}
			}
		})},
	{"keys validation errors by another name", "ERR-5",
		rewrite(nil, func(_ *http.Request, _ map[string]any, a *answer) {
			if a.status == 422 {
				a.body["errors"] = map[string]any{"field": []any{"invalid"}}
			}
		})},
	{"types pagination.total as a string", "DATA-1",
		rewrite(op(conformance.OpCommentsList), func(_ *http.Request, _ map[string]any, a *answer) {
			if p, ok := a.data()["pagination"].(map[string]any); ok {
				p["total"] = fmt.Sprint(p["total"])
			}
		})},
	{"answers 422 instead of 409 for a locked cart", "CART-4",
		rewrite(op(conformance.OpDomainCartRemove), func(_ *http.Request, _ map[string]any, a *answer) {
			if a.status == 409 {
				a.status = 422
				a.body = map[string]any{"message": "locked", "errors": map[string]any{"session_token": []any{"locked"}}}
			}
		})},
	{"adds `data` to 401 bodies", "ENV-3",
		rewrite(nil, func(_ *http.Request, _ map[string]any, a *answer) {
			if a.status == 401 {
				a.body["data"] = []any{}
			}
		})},
	{"answers 403 instead of 401", "AUTH-1",
		rewrite(nil, func(_ *http.Request, _ map[string]any, a *answer) {
			if a.status == 401 {
				a.status = 403
			}
		})},
	{"deprecates a version that is not approved", "TRANS-4",
		rewrite(op(conformance.OpThemeVersionsDeprecate), func(_ *http.Request, req map[string]any, a *answer) {
			if a.status == 400 {
				a.status, a.body = 200, success(map[string]any{"version_id": fmt.Sprint(req["version_id"]), "theme_status": "deprecated"})
			}
		})},
	{"keeps rate windows of 10 seconds under X-RateLimit-Limit a minute", "LIMIT-2",
		func(h httpHandler) httpHandler {
			var n atomic.Int64
			return perUserRateIn(50, 10*time.Second).wrapCounting(h, &n)
		}},
	{"leaves `errors` out of the login success", "DOC-1",
		rewrite(op(conformance.OpAuthenticate), func(_ *http.Request, _ map[string]any, a *answer) {
			if a.status == 200 {
				delete(a.body, "errors")
			}
		})},
	{"omits Retry-After from the login throttle's 429 only", "HDR-2",
		rewrite(op(conformance.OpAuthenticate), func(_ *http.Request, _ map[string]any, a *answer) {
			if a.status == 429 {
				a.header.Del("Retry-After")
			}
		})},
	{"lets the superadmin deprecate a version that is not approved", "TRANS-4",
		func(h httpHandler) httpHandler {
			unapproved := float64(fixtureManifest(h).Websites.UnapprovedVersionID)
			isSuperadmin := func(r *http.Request) bool { // only a superadmin lists master boards
				tok := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
				return tok != "" && direct(h, conformance.OpMasterBoardsList.Path, tok, map[string]any{}).status == 200
			}
			return fake(conformance.OpThemeVersionsDeprecate, func(r *http.Request, req map[string]any) bool {
				return req["version_id"] == unapproved && isSuperadmin(r)
			}, 200, success(map[string]any{"version_id": fmt.Sprint(int64(unapproved)), "theme_status": "deprecated"}))(h)
		}},
	{"leaves a removed item in data.cart.items", "CART-1",
		rewrite(op(conformance.OpDomainCartRemove), func(_ *http.Request, req map[string]any, a *answer) {
			if cart, ok := a.data()["cart"].(map[string]any); ok && a.status == 200 {
				items, _ := cart["items"].([]any)
				cart["items"] = append(items, map[string]any{"id": req["cart_item_id"]})
			}
		})},
	{"never answers 429 on tags/list", "LIMIT-2",
		rewrite(op(conformance.OpTagsList), func(_ *http.Request, _ map[string]any, a *answer) {
			if a.status == 429 {
				a.status, a.body = 200, success(map[string]any{"tags": []any{}})
				a.header.Del("Retry-After")
			}
		})},
	{"never answers 429 on tags/create, its validation errors sent without rate-limit headers", "LIMIT-2",
		rewrite(op(conformance.OpTagsCreate), func(_ *http.Request, req map[string]any, a *answer) {
			if a.status == 429 && req["name"] == nil { // what the window probe sends: a create without its name
				a.status, a.body = 422, map[string]any{"message": "The name field is required.", "errors": map[string]any{"name": []any{"The name field is required."}}}
				a.header.Del("Retry-After")
			}
			if a.status == 422 {
				a.header.Del("X-RateLimit-Limit")
				a.header.Del("X-RateLimit-Remaining")
			}
		})},
	{"never answers 429 on cards/list, counting down to 0 all the same", "LIMIT-2",
		rewrite(op(conformance.OpCardsList), func(_ *http.Request, _ map[string]any, a *answer) {
			if a.status == 429 {
				a.status, a.body = 200, success(map[string]any{"cards": []any{}})
				a.header.Del("Retry-After")
			}
		})},
	{"never answers 429 to valid logins, counting down to 0 all the same", "LIMIT-2",
		rewrite(op(conformance.OpAuthenticate), func(_ *http.Request, req map[string]any, a *answer) {
			if a.status == 429 && req["password"] != nil { // a spent window; the token is never used: the probe runs last
				a.status, a.body = 200, success(map[string]any{"token": strings.Repeat("0", 64)})
				a.header.Del("Retry-After")
			}
		})},
	{"omits Retry-After from widget/cards/list's 429 only", "HDR-2",
		rewrite(op(conformance.OpWidgetCardsList), func(_ *http.Request, _ map[string]any, a *answer) { a.header.Del("Retry-After") })},
	{"answers text/plain", "DOC-1",
		rewrite(nil, func(_ *http.Request, _ map[string]any, a *answer) {
			a.header.Set("Content-Type", "text/plain; charset=utf-8")
		})},
	{"answers cards/update with 201", "STATUS-1",
		rewrite(op(conformance.OpCardsUpdate), func(_ *http.Request, _ map[string]any, a *answer) {
			if a.status == 200 {
				a.status = 201
			}
		})},
	{"answers master card create with 200", "STATUS-2",
		rewrite(op(conformance.OpMasterCardsCreate), func(_ *http.Request, _ map[string]any, a *answer) {
			if a.status == 201 {
				a.status = 200
			}
		})},
	{"does not check per_page's maximum", "ERR-2",
		fake(conformance.OpCommentsList, func(_ *http.Request, req map[string]any) bool {
			n, _ := req["per_page"].(float64)
			return n > 100
		}, 200, success(map[string]any{"comments": []any{}, "pagination": map[string]any{"total": 0, "per_page": 101, "current_page": 1, "total_pages": 1}}))},
	{"refuses to restore any archived conversation, answering 404", "TRANS-2",
		rewrite(op(conformance.OpConversationsRestore), func(r *http.Request, _ map[string]any, a *answer) {
			if a.status == 200 && r.Header.Get("Authorization") != "" {
				a.status, a.body = 404, map[string]any{"error": true, "message": "Conversation not found.", "data": []any{}}
			}
		})},
	{"answers conversation restore with data {}", "TRANS-2",
		rewrite(op(conformance.OpConversationsRestore), func(_ *http.Request, _ map[string]any, a *answer) {
			if a.status == 200 {
				a.body["data"] = map[string]any{}
			}
		})},
	{"answers 409 to a version that is not approved", "TRANS-4",
		rewrite(op(conformance.OpThemeVersionsDeprecate), func(_ *http.Request, _ map[string]any, a *answer) {
			if a.status == 400 {
				a.status = 409
			}
		})},
	{"logs in with a wrong password", "AUTH-5",
		rewrite(op(conformance.OpAuthenticate), func(_ *http.Request, _ map[string]any, a *answer) {
			if a.status == 401 {
				a.status, a.body = 200, success(map[string]any{"token": "forged", "id": 1, "name": "x", "email": "x@example.invalid",
					"language": nil, "needs_code__regeneration": false, "warn_message": ""})
			}
		})},
	// Behaviour rules: each caught by a contract spec that cites the rule.
	{"answers tags/list with 502 and no rate-limit headers under a burst of requests", "STATUS-1", overloadedGateway},
	{"answers comments/list with 404, a status it does not list", "STATUS-1",
		rewrite(op(conformance.OpCommentsList), func(_ *http.Request, _ map[string]any, a *answer) {
			if a.status == 422 {
				if errs, ok := a.body["errors"].(map[string]any); ok && errs["card_id"] != nil && len(errs) == 1 {
					a.status, a.body = 404, map[string]any{"error": true, "message": "Card not found.", "data": []any{}}
				}
			}
		})},
	{"types a cart item's id as a string", "DOC-1",
		rewrite(op(conformance.OpDomainCartRemove), func(_ *http.Request, _ map[string]any, a *answer) {
			if cart, ok := a.data()["cart"].(map[string]any); ok && a.status == 200 {
				items, _ := cart["items"].([]any)
				for _, it := range items {
					if it, ok := it.(map[string]any); ok {
						it["id"] = fmt.Sprint(it["id"])
					}
				}
			}
		})},
	// Found by an outside vendor's broken copies: types broken only on the answers a request
	// with a due date, or a sync, gets.
	{"answers is_overdue as text on a card created with a due date", "DOC-1",
		rewrite(op(conformance.OpCardsCreate), func(_ *http.Request, req map[string]any, a *answer) {
			if card, ok := a.data()["card"].(map[string]any); ok && req["due_date"] != nil {
				card["is_overdue"] = fmt.Sprint(card["is_overdue"])
			}
		})},
	{"answers projects_updated as text to a master card update that syncs", "DOC-1",
		rewrite(op(conformance.OpMasterCardsUpdate), func(_ *http.Request, req map[string]any, a *answer) {
			if d := a.data(); d != nil && req["sync_to_projects"] == true && d["projects_updated"] != nil {
				d["projects_updated"] = fmt.Sprint(d["projects_updated"])
			}
		})},
	{"takes an entity_id of 0 for a layout", "ERR-2",
		rewrite(op(conformance.OpThumbnailsRegenerate), func(_ *http.Request, req map[string]any, a *answer) {
			if req["type"] == "layout" && req["entity_id"] == 0.0 && a.status == 422 {
				a.status, a.body = 404, map[string]any{"error": true, "message": "Layout not found.", "data": []any{}}
			}
		})},
	{"keeps item_count at what the cart held before its first removal", "CART-2",
		func(h httpHandler) httpHandler {
			var (
				mu    sync.Mutex
				first = map[any]int64{} // session token -> item_count before its first removal
			)
			return rewrite(op(conformance.OpDomainCartRemove), func(_ *http.Request, req map[string]any, a *answer) {
				if cart, ok := a.data()["cart"].(map[string]any); ok && a.status == 200 {
					mu.Lock()
					if _, seen := first[req["session_token"]]; !seen {
						first[req["session_token"]] = idOf(cart["item_count"]) + 1
					}
					cart["item_count"] = first[req["session_token"]]
					mu.Unlock()
				}
			})(h)
		}},
	{"removes the item from its real cart on a wrong session token, answering 404", "CART-3",
		stateful(func(h httpHandler, m fixtures.Manifest) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				req := bodyOf(r)
				if r.URL.Path == conformance.OpDomainCartRemove.Path && req != nil {
					item, tok := idOf(req["cart_item_id"]), req["session_token"]
					for _, c := range m.Domains.Carts {
						if c.SessionToken != tok && slices.Contains(c.ItemIDs, item) && slices.ContainsFunc(m.Domains.Carts, func(o fixtures.ManifestCart) bool { return o.SessionToken == tok }) {
							direct(h, r.URL.Path, "", map[string]any{"session_token": c.SessionToken, "cart_item_id": item})
						}
					}
				}
				h.ServeHTTP(w, r)
			}
		})},
	{"lets the second removal from a locked cart through", "CART-4",
		stateful(func(h httpHandler, m fixtures.Manifest) http.HandlerFunc {
			var seen atomic.Int64
			return func(w http.ResponseWriter, r *http.Request) {
				req := bodyOf(r)
				if r.URL.Path == conformance.OpDomainCartRemove.Path && req["session_token"] == m.Domains.LockedCart.SessionToken && seen.Add(1)%2 == 0 {
					b, _ := json.Marshal(success(map[string]any{"cart": map[string]any{"session_token": m.Domains.LockedCart.SessionToken,
						"status": "locked", "currency": "USD", "total_price": 0, "item_count": 0, "is_claimed": false, "items": []any{}}}))
					copyAnswer(w, 200, http.Header{"Content-Type": {"application/json"}, "X-Ratelimit-Limit": {"1000"}, "X-Ratelimit-Remaining": {"999"}}, b)
					return
				}
				h.ServeHTTP(w, r)
			}
		})},
	{"allows 6 thumbnail regenerations per 10 minutes", "LIMIT-3",
		func(h httpHandler) httpHandler {
			var swallowed atomic.Bool
			return rewrite(op(conformance.OpThumbnailsRegenerate), func(_ *http.Request, _ map[string]any, a *answer) {
				if a.status == 429 && swallowed.CompareAndSwap(false, true) {
					a.status, a.body = 200, success(map[string]any{"preview_image": "https://example.invalid/p.png"})
					a.header.Del("Retry-After")
				}
			})(h)
		}},
	{"counts the thumbnail limit per user, not per project", "LIMIT-3", thumbLimitPerUser()},
	{"takes any start of 8 or more characters of a cart's session token as the token", "CART-3",
		stateful(func(h httpHandler, m fixtures.Manifest) http.HandlerFunc {
			tokens := []string{m.Domains.LockedCart.SessionToken}
			for _, c := range m.Domains.Carts {
				tokens = append(tokens, c.SessionToken)
			}
			return mutate(conformance.OpDomainCartRemove, func(req map[string]any) {
				sent, _ := req["session_token"].(string)
				for _, t := range tokens {
					if len(sent) >= 8 && len(sent) < len(t) && strings.HasPrefix(t, sent) {
						req["session_token"] = t
					}
				}
			})(h).ServeHTTP
		})},
	{"counts thumbnail regenerations in a 20-second window", "LIMIT-5",
		func(h httpHandler) httpHandler {
			var (
				mu    sync.Mutex
				began time.Time
				count int
			)
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != conformance.OpThumbnailsRegenerate.Path {
					h.ServeHTTP(w, r)
					return
				}
				mu.Lock()
				if time.Since(began) >= 20*time.Second { // a new window; the mock's own 10 minutes end with it
					began, count = time.Now(), 0
					direct(h, "/__mock/clock", "", map[string]any{"advance_seconds": 600})
				}
				if count >= 5 {
					left := int(math.Ceil((20*time.Second - time.Since(began)).Seconds()))
					mu.Unlock()
					b, _ := json.Marshal(map[string]any{"error": true, "message": "Too many regenerations."})
					copyAnswer(w, 429, http.Header{"Content-Type": {"application/json"}, "Retry-After": {strconv.Itoa(max(left, 1))},
						"X-Ratelimit-Limit": {"1000"}, "X-Ratelimit-Remaining": {"990"}}, b)
					return
				}
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, r)
				if rec.Code == 200 {
					count++
				}
				mu.Unlock()
				copyAnswer(w, rec.Code, rec.Header(), rec.Body.Bytes())
			})
		}},
	{"ignores push_to_projects on master card create", "PUSH-1",
		mutate(conformance.OpMasterCardsCreate, func(req map[string]any) { delete(req, "push_to_projects") })},
	{"copies master cards into the member's project again on every sync", "SYNC-1",
		stateful(func(h httpHandler, m fixtures.Manifest) http.HandlerFunc {
			var once sync.Once
			var tok string
			return func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != conformance.OpMasterBoardsSync.Path {
					h.ServeHTTP(w, r)
					return
				}
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, r)
				if rec.Code == 200 {
					once.Do(func() {
						a := direct(h, conformance.OpAuthenticate.Path, "", map[string]any{"email": m.Users.Member.Email, "password": m.Users.Member.Password})
						tok, _ = a.data()["token"].(string)
					})
					direct(h, conformance.OpCardsCreate.Path, tok, map[string]any{"title": "Copied again by the sync"})
				}
				copyAnswer(w, rec.Code, rec.Header(), rec.Body.Bytes())
			}
		})},
	{"ignores snoozes in the widget list", "SNOOZE-1",
		func(h httpHandler) httpHandler {
			return mutate(conformance.OpWidgetCardsList, func(req map[string]any) { req["include_snoozed"] = true })(
				rewrite(op(conformance.OpWidgetCardsList), func(_ *http.Request, _ map[string]any, a *answer) {
					if a.status == 200 {
						a.data()["snoozed_count"] = 0
					}
				})(h))
		}},
	{"answers 200 to deleting a group that is gone", "GROUP-1",
		rewrite(op(conformance.OpGroupsDelete), func(_ *http.Request, _ map[string]any, a *answer) {
			if a.status == 404 {
				a.status, a.body = 200, success([]any{})
			}
		})},
	{"answers comment create without keeping the comment", "COMMENT-1",
		fake(conformance.OpCommentsCreate, func(r *http.Request, req map[string]any) bool {
			return r.Header.Get("Authorization") != "" && req["card_id"] != nil && req["parent_comment_id"] == nil
		}, 200, success(map[string]any{"comment": map[string]any{"id": 99999, "card_id": 1, "comment": "kept nowhere", "parent_comment_id": nil}}))},
	{"reports total_pages 1 on every page", "PAGE-1",
		rewrite(op(conformance.OpCommentsList), func(_ *http.Request, _ map[string]any, a *answer) {
			if p, ok := a.data()["pagination"].(map[string]any); ok {
				p["total_pages"] = 1
			}
		})},
	{"lets an outsider update the member's card", "ISO-1",
		stateful(func(h httpHandler, m fixtures.Manifest) http.HandlerFunc {
			var tok string
			var once sync.Once
			return func(w http.ResponseWriter, r *http.Request) {
				req := bodyOf(r)
				if r.URL.Path == conformance.OpCardsUpdate.Path && idOf(req["id"]) == m.Operations.CardID && req["title"] == "outsider" {
					once.Do(func() {
						a := direct(h, conformance.OpAuthenticate.Path, "", map[string]any{"email": m.Users.Member.Email, "password": m.Users.Member.Password})
						tok, _ = a.data()["token"].(string)
					})
					r.Header.Set("Authorization", "Bearer "+tok)
				}
				h.ServeHTTP(w, r)
			}
		})},
	{"types sync counters as strings", "DATA-1",
		rewrite(op(conformance.OpMasterBoardsSync), func(_ *http.Request, _ map[string]any, a *answer) {
			for k, v := range a.data() {
				a.data()[k] = fmt.Sprint(v)
			}
		})},
	{"ignores tool_key in the widget list, listing the cards of the manifest's tool for any", "TOOL-1",
		stateful(func(h httpHandler, m fixtures.Manifest) http.HandlerFunc {
			return mutate(conformance.OpWidgetCardsList, func(req map[string]any) {
				if k, ok := req["tool_key"].(string); ok && k != "" && len(k) <= 50 {
					req["tool_key"] = m.Operations.ToolKey
				}
			})(h).ServeHTTP
		})},
}

// TestSuitePassesTheReference runs the contract profile against the correct mock, in parallel
// processes (parallelRun): it must pass, with every spec in one report.
func TestSuitePassesTheReference(t *testing.T) {
	t.Parallel() // the sweeps wait on answers and windows more than they compute: they overlap
	if testing.Short() {
		t.Skip("runs the whole suite")
	}
	filter := "contract"
	if !full() { // the quick loop: the 22 windows against the reference run under make test
		filter += " && !" + conformance.ProbeWindow
	}
	specs, ok, out := parallelRun(t, func() string { return startMock(t, nil) }, "-ginkgo.label-filter="+filter)
	if !ok {
		t.Fatalf("the %s profile fails against the reference mock:\n%s", filter, out)
	}
	t.Logf("the %s profile passes against the reference mock (%d specs)", filter, len(specs))
	checkEffectLabels(t, specs)
}

// TestSuiteCatchesBreaks runs the contract specs citing each broken variant's rule against it
// (brokenFilter): each run must fail. It lists which specs caught which break, in the log and
// in ../testdata/selftest.golden (rewritten with -update).
func TestSuiteCatchesBreaks(t *testing.T) {
	t.Parallel() // the sweeps wait on answers and windows more than they compute: they overlap
	if testing.Short() {
		t.Skip("runs the whole suite once per variant")
	}
	if len(variants) < 20 {
		t.Fatalf("%d variants; the suite must prove itself against at least 20", len(variants))
	}
	needFull(t)
	run := variants
	if !full() { // the quick loop: one variant whose rule narrows the specs that run
		i := slices.IndexFunc(variants, func(v variant) bool { return strings.Contains(brokenFilter(v), conformance.LabelRule) })
		run = variants[i : i+1]
	}
	var (
		mu     sync.Mutex
		caught = map[string][]string{}
	)
	t.Run("variants", func(t *testing.T) {
		for _, v := range run {
			t.Run(v.name, func(t *testing.T) {
				t.Parallel()
				specs, ok, out := runSuite(t, startMock(t, v.wrap), "-ginkgo.label-filter="+brokenFilter(v))
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
				// A rule no spec names (it is checked on every answer) is caught by any spec;
				// any other must be caught by a spec that cites it.
				if r, known := rules.ByID(rules.ID(v.rule)); !known {
					t.Errorf("variant %q breaks %q, which the rule registry lacks", v.name, v.rule)
				} else if !r.EveryAnswer && !slices.ContainsFunc(specs, func(s specResult) bool {
					return s.State.Is(types.SpecStateFailureStates) && slices.Contains(s.Labels, conformance.LabelRule+v.rule)
				}) {
					t.Errorf("no spec citing %s catches the mock that %s (caught by: %v)", v.rule, v.name, failed)
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
		fmt.Fprintf(&b, "\n%s (breaks rule %s): caught by %d specs\n", v.name, v.rule, len(failed))
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
