package selftest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
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
	"unicode/utf16"
	"unicode/utf8"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/check"
	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/reference"
)

// A correct variant is the reference mock with one or more of our choices for the interface's
// gaps made another way that the interface equally permits. The contract profile must pass
// against every one: a contract check that fails one rests on something the interface does not
// state.
type correct struct {
	name  string // the other choice it makes
	basis string // the section of the interface whose gap permits it
	// before sees the request before the mock does; it may change x.req, or answer by itself by
	// setting x.a and returning true.
	before func(x *xchg) bool
	// after changes the mock's answer x.a (its body is nil unless it is a JSON object).
	after func(x *xchg)
	// filter narrows the contract profile for a variant too slow to run it whole (its cost is
	// stated where the variant is declared); empty: the whole contract profile.
	filter string
	// delay, when set, says how long to hold each answer of the interface's operations.
	delay func() time.Duration
	// parallel, when set, is the CONFORMANCE_PARALLEL the suite runs with against the variant.
	parallel int
	// env is more of the suite's environment for the variant (it wins over the defaults).
	env []string
	// windows runs the window of every operation (probe:window: 22 rate windows spent, seconds
	// a run) against a variant whose choice bears on rate windows; the others leave it out.
	windows bool
}

// xchg is one POST through a correct variant.
type xchg struct {
	r      *http.Request
	h      http.Handler
	op     conformance.Operation // zero when the path is none of the interface's
	req    map[string]any        // the JSON body; nil when it is not a JSON object
	a      *answer
	caller string // e-mail of the bearer token's user ("" when unknown)
	m      *fixtures.Manifest
	queued bool // the variant's before put off part of the work (it is done after the answer)
}

// ask sends body to path as the same caller, past the variant, straight to the mock.
func (x *xchg) ask(path string, body map[string]any) *answer {
	return x.askWith(x.r.Header.Clone(), path, body)
}

// askAs sends body to path with the bearer token tok, past the variant, straight to the mock.
func (x *xchg) askAs(tok, path string, body map[string]any) *answer {
	h := x.r.Header.Clone()
	h.Set("Authorization", "Bearer "+tok)
	return x.askWith(h, path, body)
}

func (x *xchg) askWith(h http.Header, path string, body map[string]any) *answer {
	raw, _ := json.Marshal(body)
	r := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(raw))
	r.Header = h
	r.RemoteAddr = x.r.RemoteAddr
	rec := httptest.NewRecorder()
	x.h.ServeHTTP(rec, r)
	a := &answer{status: rec.Code, header: rec.Header().Clone()}
	_ = json.Unmarshal(rec.Body.Bytes(), &a.body)
	return a
}

func opByPath(path string) conformance.Operation {
	for _, o := range conformance.Operations {
		if o.Path == path {
			return o
		}
	}
	return conformance.Operation{}
}

// wrapCounting builds the variant's middleware around the mock's handler, counting in changed
// the requests and answers the variant changed (a variant that changes nothing proves nothing).
// It remembers which user each token of an authenticate answer belongs to, and reads the
// fixture manifest once.
func (c correct) wrapCounting(h httpHandler, changed *atomic.Int64) httpHandler {
	var (
		mu  sync.Mutex
		who = map[string]string{}
		m   *fixtures.Manifest
	)
	manifest := func() *fixtures.Manifest {
		mu.Lock()
		defer mu.Unlock()
		if m == nil {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/__mock/fixtures", nil))
			m = &fixtures.Manifest{}
			_ = json.Unmarshal(rec.Body.Bytes(), m)
		}
		return m
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || strings.HasPrefix(r.URL.Path, "/__mock") {
			h.ServeHTTP(w, r)
			return
		}
		raw, _ := io.ReadAll(r.Body)
		x := &xchg{r: r, h: h, op: opByPath(r.URL.Path), m: manifest()}
		_ = json.Unmarshal(raw, &x.req)
		tok := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		mu.Lock()
		x.caller = who[tok]
		mu.Unlock()
		if c.before != nil {
			sent, _ := json.Marshal(x.req)
			if c.before(x) {
				changed.Add(1)
				if c.delay != nil && x.op.ID != "" {
					time.Sleep(c.delay())
				}
				writeAnswer(w, x.a, nil)
				return
			}
			if x.req != nil {
				if now, _ := json.Marshal(x.req); !bytes.Equal(now, sent) {
					changed.Add(1)
					raw = now
				}
			}
		}
		r.Body = io.NopCloser(bytes.NewReader(raw))
		r.ContentLength = int64(len(raw))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if c.delay != nil && x.op.ID != "" {
			time.Sleep(c.delay())
		}
		x.a = &answer{status: rec.Code, header: rec.Header().Clone()}
		_ = json.Unmarshal(rec.Body.Bytes(), &x.a.body)
		if x.op.ID == conformance.OpAuthenticate.ID && x.a.status < 300 {
			if t, ok := x.a.data()["token"].(string); ok {
				email, _ := x.req["email"].(string)
				mu.Lock()
				who[t] = strings.ToLower(strings.TrimSpace(email))
				mu.Unlock()
			}
		}
		if c.after != nil {
			was := signature(x.a)
			c.after(x)
			if signature(x.a) != was {
				changed.Add(1)
			}
		}
		writeAnswer(w, x.a, rec.Body.Bytes())
	})
}

// signature is what a variant may change of an answer: status, rate-limit headers, body.
func signature(a *answer) string {
	b, _ := json.Marshal(a.body)
	return fmt.Sprintf("%d %q %q %q %s", a.status, a.header.Values("Content-Type"), a.header.Values("X-RateLimit-Limit"), a.header.Values("X-RateLimit-Remaining"), b)
}

// writeAnswer writes a, its body re-encoded when it is a JSON object, else raw.
func writeAnswer(w http.ResponseWriter, a *answer, raw []byte) {
	if a.header == nil {
		a.header = http.Header{}
	}
	if a.header.Get("Content-Type") == "" {
		a.header.Set("Content-Type", "application/json")
	}
	body := raw
	if a.body != nil {
		body, _ = json.Marshal(a.body)
	}
	copyAnswer(w, a.status, a.header, body)
}

// walk calls f on every JSON object inside v (v itself included), depth first.
func walk(v any, f func(o map[string]any)) {
	switch t := v.(type) {
	case map[string]any:
		f(t)
		for _, c := range t {
			walk(c, f)
		}
	case []any:
		for _, c := range t {
			walk(c, f)
		}
	}
}

// shapeB reports whether a body is error body shape (b): `error` and `message` only.
func isShapeB(b map[string]any) bool {
	_, d := b["data"]
	_, e := b["errors"]
	return !d && !e
}

// records returns the records an answer carries: the single records of creates and updates
// (data.card, data.group, data.comment, data.tag, data.board when they are objects) and the
// items of the lists (data.cards, data.boards, data.tags, data.comments).
func records(a *answer) (single, listed []map[string]any) {
	d := a.data()
	for _, k := range []string{"card", "group", "comment", "tag", "board"} {
		if o, ok := d[k].(map[string]any); ok {
			single = append(single, o)
		}
	}
	for _, k := range []string{"cards", "boards", "tags", "comments"} {
		items, _ := d[k].([]any)
		for _, it := range items {
			if o, ok := it.(map[string]any); ok {
				listed = append(listed, o)
			}
		}
	}
	return single, listed
}

func intOf(v any) (int64, bool) {
	f, ok := v.(float64)
	return int64(f), ok && f == float64(int64(f))
}

func in(id int64, ids ...int64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// memberRecord reports whether the request of x names a record the manifest gives the member's
// project, and which field names it.
func memberRecord(x *xchg) (string, bool) {
	o := x.m.Operations
	field, ids := "", []int64(nil)
	switch x.op.ID {
	case conformance.OpCardsUpdate.ID:
		field, ids = "id", []int64{o.CardID}
	case conformance.OpBoardsUpdate.ID:
		field, ids = "id", []int64{o.BoardID}
	case conformance.OpGroupsDelete.ID:
		field, ids = "id", []int64{o.GroupID}
	case conformance.OpCommentsList.ID:
		field, ids = "card_id", []int64{o.CardID}
	case conformance.OpConversationsRestore.ID:
		field, ids = "conversation_id", append([]int64{x.m.AI.ActiveConversationID}, x.m.AI.ArchivedConversationIDs...)
	case conformance.OpThumbnailsRegenerate.ID:
		field, ids = "entity_id", []int64{x.m.Websites.PageID, x.m.Websites.TemplateID, x.m.Websites.LayoutID}
	case conformance.OpThemeVersionsDeprecate.ID:
		field, ids = "version_id", append([]int64{x.m.Websites.UnapprovedVersionID}, x.m.Websites.ApprovedVersionIDs...)
	default:
		return "", false
	}
	id, ok := intOf(x.req[field])
	return field, ok && in(id, ids...)
}

var createOps = []conformance.Operation{conformance.OpMasterBoardsCreate, conformance.OpCardsCreate,
	conformance.OpMasterGroupsCreate, conformance.OpCommentsCreate, conformance.OpTagsCreate}

// rateWindow is a fixed window of the per-user-and-endpoint rate limit variant.
type rateWindow struct {
	start time.Time
	n     int
}

// rateKey is what a variant's rate window is kept per: the caller (its client address when the
// token is unknown) and the endpoint, and the mock too: the suite's and explore's runs of one
// variant go on at once, against mocks of the same users, and one spent the other's windows
// (LIMIT-4 saw two spent).
func rateKey(x *xchg) string {
	who := x.caller
	if who == "" {
		host, _, _ := net.SplitHostPort(x.r.RemoteAddr)
		who = "address " + host
	}
	return fmt.Sprintf("%p %s %s", x.m, who, x.r.URL.Path)
}

// tooMany is a variant's 429: its window spent, wait seconds to go.
func tooMany(limit, wait int) *answer {
	return &answer{status: 429, header: http.Header{
		"X-Ratelimit-Limit": {strconv.Itoa(limit)}, "X-Ratelimit-Remaining": {"0"}, "Retry-After": {strconv.Itoa(wait)},
	}, body: map[string]any{"error": true, "message": "Too Many Attempts."}}
}

// rateHeaders writes a variant's rate-limit headers: limit, and what its before left in
// X-Variant-Remaining.
func rateHeaders(limit int) func(x *xchg) {
	return func(x *xchg) {
		x.a.header.Set("X-RateLimit-Limit", strconv.Itoa(limit))
		x.a.header.Set("X-RateLimit-Remaining", x.r.Header.Get("X-Variant-Remaining"))
	}
}

// perUserRate limits requests per user (per client address for callers without a known token)
// and per endpoint, at limit a minute, and writes honest rate-limit headers of that window on
// every answer. The mock's own per-token limit (1000) is never reached first.
func perUserRate(limit int) correct { return perUserRateIn(limit, time.Minute) }

// perUserRateIn is perUserRate with windows of the given length: a minute is correct, a shorter
// one lets more than X-RateLimit-Limit a minute through (a broken variant).
func perUserRateIn(limit int, length time.Duration) correct {
	var (
		mu      sync.Mutex
		windows = map[string]*rateWindow{}
	)
	return correct{
		name:    fmt.Sprintf("rate-limits per user and endpoint, %d a minute", limit),
		windows: true,
		// The interface (Limits) gives no per-minute numbers except the thumbnail limit, and does
		// not say what a window is kept per (the scope of tokens is open too). The headers stay
		// honest: the limit a minute, what is left of the window, seconds until it resets.
		basis: "§Limits: numeric rate-limit values per endpoint not shown; the scope of a window not stated",
		before: func(x *xchg) bool {
			mu.Lock()
			defer mu.Unlock()
			now := time.Now()
			k := rateKey(x)
			win := windows[k]
			if win == nil || now.Sub(win.start) >= length {
				win = &rateWindow{start: now}
				windows[k] = win
			}
			if win.n >= limit {
				wait := int(win.start.Add(length).Sub(now)/time.Second) + 1
				x.a = tooMany(limit, wait)
				return true
			}
			win.n++
			x.r.Header.Set("X-Variant-Remaining", strconv.Itoa(limit-win.n))
			return false
		},
		after: rateHeaders(limit),
	}
}

// slowTokenBucket limits requests per user and endpoint by a bucket of limit tokens that
// refills continuously at limit a minute, and answers 100 to 150 ms late, 8 specs at a time:
// X-RateLimit-Remaining is the whole tokens left, so answers a request's share of the minute
// apart (60/limit seconds, 100 ms at 600) rightly keep it, and Retry-After is the seconds until
// the next token. The interface (Limits) says the headers tell what is left, not how a window
// refills.
func slowTokenBucket(limit int) correct {
	type bucket struct {
		tokens float64
		at     time.Time
	}
	var (
		mu      sync.Mutex
		buckets = map[string]*bucket{}
	)
	perSecond := float64(limit) / 60
	var n atomic.Int64
	return correct{
		name:     fmt.Sprintf("answers every request 100 to 150 ms late, rate-limited per user and endpoint by a token bucket refilling %d a minute", limit),
		windows:  true,
		basis:    "latency is not in the interface; §Limits: how a window refills is not stated",
		parallel: 8,
		delay:    func() time.Duration { return 100*time.Millisecond + time.Duration(n.Add(1)*7%51)*time.Millisecond },
		before: func(x *xchg) bool {
			mu.Lock()
			defer mu.Unlock()
			now := time.Now()
			k := rateKey(x)
			b := buckets[k]
			if b == nil {
				b = &bucket{tokens: float64(limit), at: now}
				buckets[k] = b
			}
			b.tokens = min(float64(limit), b.tokens+now.Sub(b.at).Seconds()*perSecond)
			b.at = now
			if b.tokens < 1 {
				wait := int(math.Ceil((1 - b.tokens) / perSecond))
				x.a = tooMany(limit, max(wait, 1))
				return true
			}
			b.tokens--
			x.r.Header.Set("X-Variant-Remaining", strconv.Itoa(int(b.tokens)))
			return false
		},
		after: rateHeaders(limit),
	}
}

// slowPerUser answers every operation 100 to 150 ms late and rate-limits per user and endpoint
// at 600 a minute: a deployment far from the suite, run as vendors run against one, 8 specs at
// a time (D160). Latency is no part of the interface. The whole contract profile takes about a
// minute at this latency in one process, about 16 seconds in eight.
func slowPerUser() correct {
	c := perUserRate(600)
	c.name = "answers every request 100 to 150 ms late, rate-limited per user and endpoint at 600 a minute"
	c.basis = "latency is not in the interface; §Limits: numeric rate-limit values not shown"
	c.parallel = 8
	var n atomic.Int64
	c.delay = func() time.Duration { return 100*time.Millisecond + time.Duration(n.Add(1)*7%51)*time.Millisecond }
	return c
}

// clockAhead runs the deployment's clock ten years ahead of the tester's, from its first
// request on: the interface states no clock, so a contract spec may only use the time the
// deployment itself gives (its Date header).
func clockAhead() correct {
	var once sync.Once
	return correct{
		name:  "runs its clock ten years ahead of the tester's",
		basis: "the interface states no clock: a deployment's time is its own",
		before: func(x *xchg) bool {
			once.Do(func() {
				r := httptest.NewRequest(http.MethodPost, "/__mock/clock", strings.NewReader(`{"advance_seconds": 315360000}`))
				rec := httptest.NewRecorder()
				x.h.ServeHTTP(rec, r)
				if rec.Code != http.StatusOK {
					panic("advance the clock: " + rec.Body.String())
				}
			})
			return false
		},
	}
}

// newestFirst answers comments/list newest first, default per_page 20, by reading every page
// of the mock (oldest first) and paginating the reversed list itself.
func newestFirst(x *xchg) {
	if x.op.ID != conformance.OpCommentsList.ID {
		return
	}
	repaginate(x, 20, func(all []any) []any {
		for i, j := 0, len(all)-1; i < j; i, j = i+1, j-1 {
			all[i], all[j] = all[j], all[i]
		}
		return all
	})
}

// repaginate answers a comments/list as arrange orders or filters the card's comments: it reads
// every page of the mock (oldest first) and paginates the arranged list itself, per_page
// perPage when the request gives none.
func repaginate(x *xchg, perPage int64, arrange func([]any) []any) {
	own.countOnlyTheCallers(x)
	if x.a.status != 200 {
		return
	}
	defer own.spent(x)
	page := int64(1)
	if p, ok := intOf(x.req["page"]); ok {
		page = p
	}
	if p, ok := intOf(x.req["per_page"]); ok {
		perPage = p
	}
	var all []any
	for p := 1; ; p++ {
		a := x.ask(x.op.Path, map[string]any{"card_id": x.req["card_id"], "per_page": 100, "page": p})
		own.read(x, a)
		items, _ := a.data()["comments"].([]any)
		all = append(all, items...)
		pg, _ := a.data()["pagination"].(map[string]any)
		last, _ := intOf(pg["total_pages"])
		if a.status != 200 || int64(p) >= last {
			break
		}
	}
	all = arrange(all)
	total := int64(len(all))
	pages := (total + perPage - 1) / perPage
	if pages < 1 {
		pages = 1
	}
	from := (page - 1) * perPage
	out := []any{}
	if from < total {
		out = all[from:min(from+perPage, total)]
	}
	x.a.body["data"] = map[string]any{"comments": out, "pagination": map[string]any{
		"total": total, "per_page": perPage, "current_page": page, "total_pages": pages,
	}}
}

// replicaLag is how far the lagging variant's comment lists are behind its writes.
const replicaLag = 1500 * time.Millisecond

// written remembers when the lagging variant created each comment, per mock.
var written = struct {
	sync.Mutex
	at map[string]time.Time // "<manifest> <comment id>"
}{at: map[string]time.Time{}}

// lagging answers comments/list as a read replica 1.5 s behind the writes would: a comment
// created less than that ago is not in it yet (D210).
func lagging(x *xchg) {
	switch x.op.ID {
	case conformance.OpCommentsCreate.ID:
		c, _ := x.a.data()["comment"].(map[string]any)
		if id, ok := intOf(c["id"]); ok && x.a.status < 300 {
			written.Lock()
			written.at[fmt.Sprintf("%p %d", x.m, id)] = time.Now()
			written.Unlock()
		}
	case conformance.OpCommentsList.ID:
		recent := func(c any) bool {
			m, _ := c.(map[string]any)
			id, _ := intOf(m["id"])
			written.Lock()
			defer written.Unlock()
			at, ok := written.at[fmt.Sprintf("%p %d", x.m, id)]
			return ok && time.Since(at) < replicaLag
		}
		pg, _ := x.a.data()["pagination"].(map[string]any)
		perPage, ok := intOf(pg["per_page"])
		if !ok {
			return
		}
		repaginate(x, perPage, func(all []any) []any {
			return slices.DeleteFunc(all, recent)
		})
	}
}

// cachedCardLists accepts an owner_id that names no user (as no user record is described, the
// id is kept as given: here it is dropped, as if its user were unknown to the projects) and
// serves the member's card lists from a cache refreshed at most once a second: a card created
// shows in cards/list up to a second later (D210).
func cachedCardLists() correct {
	cached := cachedFor(conformance.OpCardsList, time.Second)
	return correct{
		name:  "accepts an owner_id naming no user, and serves card lists from a cache refreshed every second",
		basis: "§Endpoints 18: owner_id names a user, whose record is not shown; when a list shows a write is not stated",
		before: func(x *xchg) bool {
			if x.op.ID == conformance.OpCardsCreate.ID && x.req != nil {
				if id, ok := intOf(x.req["owner_id"]); ok && !userExists(x, id) {
					delete(x.req, "owner_id")
				}
			}
			return false
		},
		after: cached,
	}
}

// userExists tells whether the mock holds user id.
func userExists(x *xchg, id int64) bool {
	return slices.ContainsFunc(worldState(x).Users, func(u reference.User) bool { return u.ID == id })
}

// syncLag is how long after answering the late-sync variant carries a sync out.
const syncLag = time.Second

// lateSync answers master-boards/sync at once and carries it out syncLag later, from a queue,
// copying what the master board holds then: a master card created meanwhile is copied by the
// sync asked for before it (D210). The answer's counters are zero (what a queued sync will do
// is not known yet; DATA-1 asks only that they are integers).
func lateSync() correct {
	var (
		mu   sync.Mutex
		left = map[string]int{} // the variant's own rate window of the syncs it answers
	)
	return correct{
		name:   "carries out master-boards/sync 1 second after answering, from a queue, copying what the board holds then",
		basis:  "§Endpoints 10: when the copies a sync makes exist is not shown",
		filter: "contract && (op:masterCardsCreate || op:masterBoardsSync || op:cardsList || op:widgetCardsList)",
		env:    []string{"CONFORMANCE_PUSH_WAIT=10s"},
		before: func(x *xchg) bool {
			if x.op.ID != conformance.OpMasterBoardsSync.ID || x.req == nil || !strings.EqualFold(x.caller, x.m.Users.Superadmin.Email) {
				return false
			}
			board, ok := intOf(x.req["board_id"])
			if !ok || !masterBoardExists(x, board) {
				return false // a refusal (422, 404) the mock answers at once
			}
			later := *x
			later.r = x.r.Clone(context.Background())
			time.AfterFunc(syncLag, func() { later.ask(x.op.Path, map[string]any{"board_id": board}) })
			mu.Lock()
			k := rateKey(x)
			if _, ok := left[k]; !ok {
				left[k] = 1000
			}
			left[k]--
			remaining := left[k]
			mu.Unlock()
			x.a = &answer{status: 200, header: http.Header{"X-Ratelimit-Limit": {"1000"}, "X-Ratelimit-Remaining": {strconv.Itoa(remaining)}},
				body: map[string]any{"error": false, "message": "Sync queued.", "data": map[string]any{"synced_count": 0, "boards_created": 0, "skipped_no_access": 0}}}
			return true
		},
	}
}

// worldState is the mock's own state of x's world, as GET /__mock/state answers it.
func worldState(x *xchg) reference.State {
	rec := httptest.NewRecorder()
	x.h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/__mock/state", nil))
	var st reference.State
	_ = json.Unmarshal(rec.Body.Bytes(), &st)
	return st
}

// masterBoardExists tells whether the mock holds master board id.
func masterBoardExists(x *xchg, id int64) bool {
	return slices.ContainsFunc(worldState(x).Boards, func(b reference.Board) bool { return b.ID == id && b.IsMaster })
}

// conversationStatus reads the status of the caller's conversation id from the mock's own state
// ("" when the caller holds none such).
func conversationStatus(x *xchg, id int64) string {
	st := worldState(x)
	for _, u := range st.Users {
		if !strings.EqualFold(u.Email, x.caller) {
			continue
		}
		for _, c := range st.Conversations {
			if c.ID == id && c.UserID == u.ID {
				return c.Status
			}
		}
	}
	return ""
}

// revokeOnLogin answers 401 to a token of a user who has logged in again since it was issued:
// one live token per user. Run in four processes through one slow worker, it failed 71 specs
// with 401s before the processes shared their logins (D212).
func revokeOnLogin() correct {
	var (
		mu     sync.Mutex
		worker sync.Mutex
		// latest is, per mock (the variant is shared by the tests running in parallel, and one
		// test's logins revoked another's tokens), the token of each e-mail's last login.
		latest = map[httpHandler]map[string]string{}
	)
	return correct{
		name:     "keeps one live token per user: a new login revokes the earlier ones",
		parallel: 4, // processes log the same users in, each ending the others' tokens
		// The interface (Authentication) leaves the lifetime and scope of tokens open, and a
		// token no longer valid is answered 401 (AUTH-2). That earlier tokens stay valid is our
		// choice (D10).
		basis: "§Authentication: lifetime and scope of tokens not shown",
		before: func(x *xchg) bool {
			// One worker answers every request, a few milliseconds each (a small single-threaded
			// server): the processes' logins and uses interleave as they do against a slow
			// deployment, where each process's token was ended before it was used six times over.
			worker.Lock()
			time.Sleep(3 * time.Millisecond)
			worker.Unlock()
			tok := strings.TrimPrefix(x.r.Header.Get("Authorization"), "Bearer ")
			mu.Lock()
			last, known := latest[x.h][x.caller]
			mu.Unlock()
			// The public operations take no token: a stale one sent to them changes nothing.
			if x.caller == "" || !known || last == tok || x.op.Access == conformance.Public {
				return false
			}
			x.a = &answer{status: 401, header: http.Header{"X-Ratelimit-Limit": {"1000"}, "X-Ratelimit-Remaining": {"999"}},
				body: map[string]any{"error": true, "message": "This token was revoked by a newer login."}}
			return true
		},
		after: func(x *xchg) {
			if x.op.ID != conformance.OpAuthenticate.ID || x.a.status >= 300 {
				return
			}
			if t, ok := x.a.data()["token"].(string); ok {
				email, _ := x.req["email"].(string)
				mu.Lock()
				if latest[x.h] == nil {
					latest[x.h] = map[string]string{}
				}
				latest[x.h][strings.ToLower(strings.TrimSpace(email))] = t
				mu.Unlock()
			}
		},
	}
}

// refuseRedeprecation refuses with 422 to deprecate a version this mock deprecated before. The
// interface shows the deprecation of an approved version and leaves further transitions open: a
// deployment may take a deprecated version to be past deprecating (we answer 200 again, D36).
func refuseRedeprecation() correct {
	var (
		mu sync.Mutex
		// deprecated is, per mock (the variant is shared by tests running in parallel), the
		// versions deprecated so far.
		deprecated = map[httpHandler]map[string]bool{}
	)
	return correct{
		name:  "refuses with 422, body shape (c), to deprecate a version already deprecated",
		basis: "§Transitions: further transitions not shown; §Endpoints 24 lists 422",
		before: func(x *xchg) bool {
			if x.op.ID != conformance.OpThemeVersionsDeprecate.ID {
				return false
			}
			mu.Lock()
			again := deprecated[x.h][fmt.Sprint(x.req["version_id"])]
			mu.Unlock()
			if !again {
				return false
			}
			x.a = &answer{status: 422, header: http.Header{},
				body: map[string]any{"message": "The version is deprecated already.",
					"errors": map[string]any{"version_id": []any{"The version is deprecated already."}}}}
			return true
		},
		after: func(x *xchg) {
			if x.op.ID != conformance.OpThemeVersionsDeprecate.ID || x.a.status != 200 {
				return
			}
			mu.Lock()
			if deprecated[x.h] == nil {
				deprecated[x.h] = map[string]bool{}
			}
			deprecated[x.h][fmt.Sprint(x.req["version_id"])] = true
			mu.Unlock()
		},
	}
}

// groupHoldingCards is the id the variant that refuses to delete a group with cards asks for
// instead (no world holds it).
const groupHoldingCards = 2147480999

var corrects = []correct{
	{
		name: "answers 201 to the creates whose status the interface does not show (13, 18, 19, 20, 21)",
		// The interface (Endpoints) shows the bodies of authenticate and of operations 13, 18,
		// 19, 20, 21 but not their codes. Its Errors table ties 201 to master card create; that
		// can be read as forbidding 201 elsewhere or as naming the one operation whose listed
		// codes hold it. A contract check takes the reading that fails no one (STATUS-2): any
		// success status where the codes are not shown.
		basis: "§Endpoints: status codes of operations 13, 18, 19, 20, 21 not shown",
		after: func(x *xchg) {
			for _, o := range createOps {
				if x.op.ID == o.ID && x.a.status == 200 {
					x.a.status = 201
				}
			}
		},
	},
	{
		name: "counts a title's or a name's UTF-16 code units against its 255-character maximum",
		// Java's and JavaScript's string length: an emoji (outside the Basic Multilingual Plane)
		// is two. The interface gives the limit in characters without defining one (D219). A
		// value within 255 characters but past 255 UTF-16 units is sent on 256 characters long,
		// so the mock refuses it as it refuses any title past the maximum, creating nothing.
		basis: "§Limits: what counts as a character in \"max 255 characters\" not stated",
		before: func(x *xchg) bool {
			for _, f := range []string{"title", "name"} {
				if s, ok := x.req[f].(string); ok && len(utf16.Encode([]rune(s))) > 255 && utf8.RuneCountInString(s) <= 255 {
					x.req[f] = strings.Repeat("x", 256)
				}
			}
			return false
		},
	},
	{
		name: "refuses a wrong e-mail or password with 422, body shape (c) keyed by email",
		// The codes of authenticate are not shown (Endpoints); 422 is the interface's
		// validation error, shape (c).
		basis: "§Endpoints: status codes of the authenticate operation not shown",
		after: func(x *xchg) {
			if x.op.ID == conformance.OpAuthenticate.ID && x.a.status == 401 {
				x.a.status = 422
				x.a.body = map[string]any{"message": "These credentials do not match our records.",
					"errors": map[string]any{"email": []any{"These credentials do not match our records."}}}
			}
		},
	},
	{
		name: "refuses a wrong e-mail or password with 400, body shape (a)",
		// The same gap; 400 is the interface's bad request, shape (a).
		basis: "§Endpoints: status codes of the authenticate operation not shown",
		after: func(x *xchg) {
			if x.op.ID == conformance.OpAuthenticate.ID && x.a.status == 401 {
				x.a.status = 400
				x.a.body = map[string]any{"error": true, "message": "Invalid credentials.", "data": []any{}}
			}
		},
	},
	{
		name: "refuses a wrong e-mail or password with 200 and `error: true`, no data",
		// The same gap: the body's `error` flag carries the refusal (D209).
		basis: "§Endpoints: status codes of the authenticate operation not shown; its body has `error`",
		after: func(x *xchg) {
			if x.op.ID == conformance.OpAuthenticate.ID && x.a.status == 401 {
				x.a.status = 200
				x.a.body = map[string]any{"error": true, "message": "Invalid credentials.", "data": nil, "errors": []any{"Invalid credentials."}}
			}
		},
	},
	{
		name: "refuses a wrong e-mail or password with 403 shape (b) and its `errors` list",
		// The same gap; `errors` is a field the interface gives authenticate's answer (D209).
		basis: "§Endpoints: status codes of the authenticate operation not shown; §Endpoints 1 lists `errors`",
		after: func(x *xchg) {
			if x.op.ID == conformance.OpAuthenticate.ID && x.a.status == 401 {
				x.a.status = 403
				x.a.body = map[string]any{"error": true, "message": "Invalid credentials.", "errors": []any{"Invalid credentials."}}
			}
		},
	},
	{
		name: "refuses a wrong e-mail or password with 401 in authenticate's own body, `data` null and an `errors` list",
		// The same gap; `data` and `errors` are fields the interface gives authenticate's answer
		// (D209). An outside vendor's implementation answers so.
		basis: "§Endpoints: status codes of the authenticate operation not shown; §Endpoints 1 lists `data` and `errors`",
		after: func(x *xchg) {
			if x.op.ID == conformance.OpAuthenticate.ID && x.a.status == 401 {
				x.a.body = map[string]any{"error": true, "message": "Invalid credentials.", "data": nil, "errors": []any{"Invalid credentials."}}
			}
		},
	},
	{
		name: "prices a cart at a flat fee less a rebate for each item, so each removal raises total_price",
		// The interface gives a cart's total_price as a number and no more: how a cart prices
		// its items (a discount on many, a fee on few) is not shown; the sum of the items'
		// prices is our choice (D34, REF-COUNTS).
		basis: "§Resources (cart): total_price a number; cart item shape not shown",
		after: func(x *xchg) {
			if x.op.ID != conformance.OpDomainCartRemove.ID || x.a.status != 200 {
				return
			}
			if cart, _ := x.a.data()["cart"].(map[string]any); cart != nil {
				if n, ok := intOf(cart["item_count"]); ok {
					cart["total_price"] = float64(1000 - 10*n)
				}
			}
		},
	},
	{
		name: "refuses with 422 to restore a conversation that is not archived",
		// Restore moves an archived conversation back to the active list (States and
		// transitions); what it answers for one already active is not shown, and 422 is among
		// its codes. That it succeeds again is our choice.
		basis: "§States and transitions: conversation restore from archived; §Endpoints 12 lists 422",
		before: func(x *xchg) bool {
			if x.op.ID != conformance.OpConversationsRestore.ID || x.req == nil {
				return false
			}
			id, ok := intOf(x.req["conversation_id"])
			if !ok || x.caller == "" || conversationStatus(x, id) != "active" {
				return false // archived, none, another's, or no valid token: the mock answers
			}
			x.a = &answer{status: 422, header: http.Header{"X-Ratelimit-Limit": {"1000"}, "X-Ratelimit-Remaining": {"999"}},
				body: map[string]any{"message": "The conversation is not archived.", "errors": map[string]any{"conversation_id": []any{"not_archived"}}}}
			return true
		},
	},
	{
		name: "refuses to snooze a card until a time already past with 422, body shape (c)",
		// snoozed_until is a date-time (Endpoints 5); whether a past one is taken is not shown,
		// and 422 is among the operation's codes.
		basis: "§Endpoints 5: snoozed_until is a date-time, its range not stated; 422 listed",
		before: func(x *xchg) bool {
			if x.op.ID != conformance.OpCardsUpdate.ID || x.req == nil || x.caller == "" {
				return false
			}
			s, _ := x.req["snoozed_until"].(string)
			until, err := time.Parse(time.RFC3339, s)
			if err != nil || until.After(time.Now()) {
				return false
			}
			// Its fields' types and formats are checked first: a request that breaks one of
			// them is refused naming it (ERR-5), as the mock does.
			raw, _ := json.Marshal(x.req)
			if vs, _ := check.Request(x.r.Context(), x.op.Operation, x.r.Header, raw); len(vs) > 0 {
				return false
			}
			x.a = &answer{status: 422, header: http.Header{},
				body: map[string]any{"message": "A card can only be snoozed until a later time.", "errors": map[string]any{"snoozed_until": []any{"The snoozed until must be a date after now."}}}}
			return true
		},
	},
	{
		name: "lets only the member regenerate thumbnails: the member's teammate is refused with 403",
		// Which permissions a caller who is not a superadmin needs per operation is not shown;
		// the thumbnail-limit spec has the teammate take turns with the member when the manifest
		// names one, and must go on with the member alone.
		basis: "§Authentication: permissions required from non-superadmin callers per operation not shown",
		before: func(x *xchg) bool {
			if x.op.ID != conformance.OpThumbnailsRegenerate.ID || x.m.Users.Teammate.Email == "" || x.caller != strings.ToLower(x.m.Users.Teammate.Email) {
				return false
			}
			x.a = &answer{status: 403, header: http.Header{"X-Ratelimit-Limit": {"1000"}, "X-Ratelimit-Remaining": {"999"}},
				body: map[string]any{"error": true, "message": "Only the project's owner may regenerate thumbnails.", "data": []any{}}}
			return true
		},
	},
	{
		name: "answers 403 shape (a) for records of another project where 403 is listed",
		// Lacking permission is answered 403 (Authentication); what a non-superadmin may do per
		// operation is left open. The record exists, so ERR-4 (404 for what does not exist)
		// does not apply; 404 is our choice (D12).
		basis: "§Authentication rule 3; permissions of non-superadmin callers not shown",
		after: func(x *xchg) {
			if x.caller != strings.ToLower(x.m.Users.Outsider.Email) || !x.op.Listed(403) {
				return
			}
			if _, mine := memberRecord(x); mine && (x.a.status == 404 || x.a.status == 422) {
				x.a.status = 403
				x.a.body = map[string]any{"error": true, "message": "This record belongs to another project.", "data": []any{}}
			}
		},
	},
	{
		name: "shares theme versions with every project: a user of another project deprecates the member's versions",
		// A theme version's fields are version_id, theme_status and approval_status: the
		// interface ties it to no project, and permissions per operation are left open. That an
		// outsider's deprecation answers 404 is our choice (D12).
		basis: "§Resources (theme version); §Authentication: permissions of non-superadmin callers not shown",
		before: func(x *xchg) bool {
			if x.op.ID != conformance.OpThemeVersionsDeprecate.ID || x.caller != strings.ToLower(x.m.Users.Outsider.Email) {
				return false
			}
			login := x.ask(conformance.OpAuthenticate.Path, map[string]any{"email": x.m.Users.Member.Email, "password": x.m.Users.Member.Password})
			tok, _ := login.data()["token"].(string)
			x.a = x.askAs(tok, x.op.Path, x.req)
			return true
		},
	},
	{
		name: "refuses to deprecate a version that is not approved with 422, body shape (c), no rate-limit headers",
		// The status of a refused deprecation is left open (Errors); operation 24 lists 422.
		// (Not 409: the interface gives 409 to domain cart removal only.) A 422 is a validation
		// error, for which the interface lists no headers.
		basis: "§Errors: status returned when the version is not approved not shown; §Endpoints 24 lists 422; validation errors list no headers",
		after: func(x *xchg) {
			if x.op.ID == conformance.OpThemeVersionsDeprecate.ID && x.a.status == 400 {
				x.a.status = 422
				x.a.header.Del("X-RateLimit-Limit")
				x.a.header.Del("X-RateLimit-Remaining")
				x.a.body = map[string]any{"message": "Only an approved version can be deprecated.",
					"errors": map[string]any{"version_id": []any{"Only an approved version can be deprecated."}}}
			}
		},
	},
	{
		name: "answers a comments page past the last with the last page, current_page saying so",
		// What a page past the last answers is not shown (Endpoints 2, pagination object): a
		// deployment may clamp the page, as many list APIs do, and name the page it answers.
		basis: "§Endpoints 2 and the pagination object: a page past the last is not shown",
		before: func(x *xchg) bool {
			page, ok := x.req["page"].(float64)
			if x.op.ID != conformance.OpCommentsList.ID || !ok || page <= 1 {
				return false
			}
			first := map[string]any{}
			for k, v := range x.req {
				first[k] = v
			}
			first["page"] = 1
			p, _ := x.ask(x.op.Path, first).data()["pagination"].(map[string]any)
			if last, ok := p["total_pages"].(float64); ok && page > max(last, 1) {
				x.req["page"] = max(last, 1)
			}
			return false
		},
	},
	{
		name: "answers authenticate with 401 to an unknown or malformed Authorization header",
		// Authentication (2) gives a missing or invalid bearer token 401 without naming the
		// operations, and authenticate's codes are not shown: a deployment whose token check
		// runs before every route may refuse a login that carries a bad one.
		basis: "§Authentication 2: an invalid bearer token yields 401; §Endpoints 1: codes not shown",
		after: func(x *xchg) {
			auth := x.r.Header.Get("Authorization")
			if x.op.ID == conformance.OpAuthenticate.ID && auth != "" && (!strings.HasPrefix(auth, "Bearer ") || x.caller == "") {
				x.a.status = 401
				x.a.body = map[string]any{"error": true, "message": "Unauthenticated."}
			}
		},
	},
	{
		name: "labels errors application/problem+json and successes application/hal+json",
		// The interface is JSON over HTTP and names no media type for answers: a +json type is
		// JSON (RFC 6839), and RFC 9457's problem type is a common label for errors.
		basis: "§Overview: JSON over HTTP; the answers' media type is not named",
		after: func(x *xchg) {
			if x.op.ID == "" {
				return
			}
			if x.a.status >= 400 {
				x.a.header.Set("Content-Type", "application/problem+json")
			} else {
				x.a.header.Set("Content-Type", "application/hal+json; charset=utf-8")
			}
		},
	},
	{
		name: "refuses to delete a group that still holds cards with 400, body shape (a)",
		// What deleting a group does to its cards is not shown (Endpoints 11), and operation 11
		// lists 400: a deployment may keep a group's cards safe by refusing. The variant asks
		// for a group no world holds instead (so the answer keeps the operation's rate window)
		// and answers that 404 as the refusal.
		basis: "§Endpoints 11: effect on cards in the group not shown; 400 is listed",
		before: func(x *xchg) bool {
			id, ok := x.req["id"].(float64)
			if x.op.ID != conformance.OpGroupsDelete.ID || !ok {
				return false
			}
			cards := x.ask(conformance.OpCardsList.Path, map[string]any{})
			list, _ := cards.data()["cards"].([]any)
			for _, c := range list {
				if card, _ := c.(map[string]any); card["group_id"] == id {
					x.req["id"] = float64(groupHoldingCards)
					break
				}
			}
			return false
		},
		after: func(x *xchg) {
			if x.op.ID == conformance.OpGroupsDelete.ID && x.req["id"] == float64(groupHoldingCards) {
				x.a.status = 400
				x.a.body = map[string]any{"error": true, "message": "This group still holds cards; move or delete them first.", "data": []any{}}
			}
		},
	},
	{
		name: "refuses to deprecate a version that is not approved with 404, body shape (a)",
		// A deployment that looks the version up among approved ones only finds none: 404, which
		// operation 24 lists; the status of this refusal is left open (Errors).
		basis: "§Errors: status returned when the version is not approved not shown; §Endpoints 24 lists 404",
		after: func(x *xchg) {
			if x.op.ID == conformance.OpThemeVersionsDeprecate.ID && x.a.status == 400 {
				x.a.status = 404
				x.a.body = map[string]any{"error": true, "message": "No approved theme version has that id.", "data": []any{}}
			}
		},
	},
	{
		name: "answers every 403 in body shape (a)",
		// The Errors table lets a 403 take shape (a) or (b), by operation.
		basis: "§Errors: 403 is shape (a) or (b) by operation",
		after: func(x *xchg) {
			if x.a.status == 403 && x.a.body != nil {
				x.a.body = map[string]any{"error": true, "message": x.a.body["message"], "data": []any{}}
			}
		},
	},
	{
		name:  "answers every 403 in body shape (b)",
		basis: "§Errors: 403 is shape (a) or (b) by operation",
		after: func(x *xchg) {
			if x.a.status == 403 && x.a.body != nil {
				x.a.body = map[string]any{"error": true, "message": x.a.body["message"]}
			}
		},
	},
	{
		name: "words every message differently, each field's `errors` detail as one sentence, not a list",
		// The wording of messages is left open (Errors), and so is the form of a field's detail
		// in `errors` (Endpoints: an object with detail per failed field). The keys stay the
		// field names (ERR-1: keyed by field).
		basis: "§Errors: text of message values not shown",
		after: func(x *xchg) {
			if x.a.body == nil {
				return
			}
			if _, ok := x.a.body["message"]; ok {
				x.a.body["message"] = fmt.Sprintf("Réponse %d — autre texte", x.a.status)
			}
			switch e := x.a.body["errors"].(type) {
			case map[string]any:
				for k := range e {
					e[k] = "Champ " + k + " refusé. Voir la documentation."
				}
			case []any:
				for i := range e {
					e[i] = "Identifiants refusés."
				}
			}
		},
	},
	{
		name: "adds unknown fields to every body but shape (b), and to every object in data",
		// Conventions 3 and shapes (a) and (c) name the fields a body has, not that it has no
		// others; only shape (b) is closed (ENV-3). Record fields are listed, not closed; list
		// records' fields are left open. `errors` keeps only field keys (ERR-1).
		basis: "§Conventions 3 and shapes (a), (c) name required fields only; only shape (b) says \"only\"",
		after: func(x *xchg) {
			if x.a.body == nil || isShapeB(x.a.body) || x.a.status == 401 || x.a.status == 429 {
				return // shape (b), authenticate's 401 with its `errors` included (D120)
			}
			x.a.body["request_id"] = "req-0001"
			x.a.body["meta"] = map[string]any{"api_version": "v1"}
			walk(x.a.body["data"], func(o map[string]any) { o["x_vendor_note"] = "extra" })
		},
	},
	{
		name: "answers every record field null except its id and the fields the request set",
		// Whether record fields may be null is left open (Resources). A record still echoes what
		// the request set (title, status, parent_comment_id, ...).
		basis: "§Resources, Gaps: nullability of record fields not shown",
		after: func(x *xchg) {
			single, listed := records(x.a)
			for _, r := range single {
				for k := range r {
					if v, sent := x.req[k]; k != "id" && (!sent || v == nil) {
						r[k] = nil
					}
				}
			}
			for _, r := range listed {
				for k := range r {
					if k != "id" {
						r[k] = nil
					}
				}
			}
			if x.op.ID == conformance.OpAuthenticate.ID && x.a.status < 300 {
				x.a.data()["language"] = nil // "language string or null"
			}
		},
	},
	{
		name: "writes record timestamps as \"2006-01-02 15:04:05\"",
		// Timestamps are strings; their format is left open (Resources).
		basis: "§Resources: timestamps are strings; their format not shown",
		after: func(x *xchg) {
			walk(x.a.body["data"], func(o map[string]any) {
				for k, v := range o {
					s, ok := v.(string)
					if !ok {
						continue
					}
					if t, err := time.Parse(time.RFC3339, s); err == nil {
						o[k] = t.UTC().Format("2006-01-02 15:04:05")
					}
				}
			})
		},
	},
	{
		name: "trims list records to their id and title, name or comment",
		// The fields of list records are left open (Resources).
		basis: "§Resources, Gaps: fields of records inside list responses not shown",
		after: func(x *xchg) {
			_, listed := records(x.a)
			for _, r := range listed {
				for k := range r {
					if k != "id" && k != "title" && k != "name" && k != "comment" {
						delete(r, k)
					}
				}
			}
		},
	},
	{
		name: "answers untyped records as JSON-encoded strings",
		// Records typed only as a string or mixed value (board, card update, master group
		// update, master card update) have no shown shape (Resources). Master boards list's
		// strings are what the mock itself answers (D21).
		basis: "§Resources, Gaps: string or mixed records not shown",
		after: func(x *xchg) {
			if x.a.status >= 300 {
				return
			}
			d := x.a.data()
			encode := func(k string) {
				if v, ok := d[k]; ok {
					b, _ := json.Marshal(v)
					d[k] = string(b)
				}
			}
			switch x.op.ID {
			case conformance.OpCardsUpdate.ID, conformance.OpMasterCardsUpdate.ID:
				encode("card")
			case conformance.OpBoardsUpdate.ID, conformance.OpMasterBoardsCreate.ID:
				encode("board")
			case conformance.OpMasterGroupsUpdate.ID:
				encode("group")
			}
		},
	},
	lateLookups(),
	perUserRate(300),
	perUserRate(600),
	slowTokenBucket(600),
	slowPerUser(),
	revokeOnLogin(),
	refuseRedeprecation(),
	clockAhead(),
	{
		name: "lists comments from a replica 1.5 s behind the writes",
		// Whether a list reflects a write at once is not stated; COMMENT-1 and PAGE-1's probe
		// read for up to CONFORMANCE_PUSH_WAIT (D210).
		basis: "§Endpoints 2 and 20: when a new comment shows in the list is not stated",
		after: lagging,
	},
	{
		name: "lists comments newest first, 20 a page by default",
		// Default page and per_page are left open (Limits); so is the order of comments.
		basis: "§Limits: default page and per_page not shown; order not stated",
		after: newestFirst,
	},
	{
		name: "lists snoozed widget cards unless include_snoozed is false",
		// The default of include_snoozed is left open (Endpoints 8).
		basis: "§Endpoints 8: default of include_snoozed not shown",
		before: func(x *xchg) bool {
			if x.op.ID == conformance.OpWidgetCardsList.ID && x.req != nil && x.req["include_snoozed"] == nil {
				x.req["include_snoozed"] = true
			}
			return false
		},
	},
	{
		name:    "sends no rate-limit headers on validation errors",
		windows: true, // the creates' windows are spent with validation errors
		// The rate-limit headers are on every answer except validation errors, which list no
		// headers (Endpoints; HDR-1).
		basis: "§Endpoints: validation-error responses list no headers",
		after: func(x *xchg) {
			if x.a.status == 422 {
				x.a.header.Del("X-RateLimit-Limit")
				x.a.header.Del("X-RateLimit-Remaining")
			}
		},
	},
	{
		name: "answers a body that is not JSON with 422 shape (c) where 422 is listed or codes are not shown",
		// The status of an unreadable body is not stated (D2 is our choice); 422 is listed for
		// most operations, and the codes of 1, 13, 18-21 are not shown.
		basis: "§Endpoints: the status of a malformed body is not stated; 422 listed",
		after: func(x *xchg) {
			if x.req == nil && x.a.status == 400 && (x.op.Listed(422) || !x.op.CodesShown()) {
				x.a.status = 422
				x.a.body = map[string]any{"message": "The body must be a JSON object.",
					"errors": map[string]any{"body": []any{"The body must be a JSON object."}}}
			}
		},
	},
	{
		name: "carries out a master card's push 7 seconds after answering, from a queue",
		// When the copies a push makes exist is not shown (Endpoints 3: push_to_projects, and
		// projects_updated is a string, "queued" as well as a count).
		basis:  "§Endpoints 3: push_to_projects; when the copies are made is not shown",
		filter: "contract && (op:masterCardsCreate || op:groupsDelete || op:masterBoardsSync)",
		env:    []string{"CONFORMANCE_PUSH_WAIT=10s"}, // the default is 20s; the self-test's 2s
		before: func(x *xchg) bool {
			if x.op.ID == conformance.OpMasterCardsCreate.ID && x.req["push_to_projects"] == true {
				x.req["push_to_projects"], x.queued = false, true
			}
			return false
		},
		after: func(x *xchg) {
			if !x.queued || x.a.status >= 300 {
				return
			}
			x.a.data()["projects_updated"] = "queued"
			later := *x
			later.r = x.r.Clone(context.Background())
			// The queue's worker: a sync of the master board makes the copies the push owed.
			time.AfterFunc(7*time.Second, func() {
				later.ask(conformance.OpMasterBoardsSync.Path, map[string]any{"board_id": x.m.Operations.MasterBoardID})
			})
		},
	},
	lateSync(),
	cachedCardLists(),
	cachedWidgetLists(),
	cachedCommentLists(),
	tourStatusPerProject(),
}

// TestSuitePassesCorrectVariants runs the contract profile against every correct variant: each
// run must pass. The verdicts are kept in ../testdata/selftest-correct.golden (rewritten with
// -update).
func TestSuitePassesCorrectVariants(t *testing.T) {
	t.Parallel() // the sweeps wait on answers and windows more than they compute: they overlap
	if testing.Short() {
		t.Skip("runs the whole suite once per variant")
	}
	if len(corrects) < 12 {
		t.Fatalf("%d correct variants; the suite must prove itself against at least 12", len(corrects))
	}
	needFull(t)
	run := corrects
	if !full() {
		run = corrects[:1]
	}
	var (
		mu       sync.Mutex
		verdicts = map[string]string{}
	)
	t.Run("variants", func(t *testing.T) {
		for _, v := range run {
			t.Run(v.name, func(t *testing.T) {
				t.Parallel()
				var changed atomic.Int64
				filter := "contract"
				switch {
				case v.filter != "":
					filter = v.filter
				case !v.windows:
					filter += " && !" + conformance.ProbeWindow
				}
				if !full() { // the quick loop: the creates, where this sample differs (201)
					filter += " && aspect:" + conformance.AspectTransition
				}
				started := time.Now()
				var env []string
				if v.parallel > 0 {
					env = append(env, fmt.Sprintf("CONFORMANCE_PARALLEL=%d", v.parallel))
				}
				env = append(env, v.env...)
				specs, ok, out := runSuiteEnv(t, startMock(t, func(h httpHandler) httpHandler { return v.wrapCounting(h, &changed) }), env, "-ginkgo.label-filter="+filter)
				t.Logf("%s: %s", v.name, time.Since(started).Round(time.Second))
				t.Logf("%s: changed %d requests or answers; %d specs", v.name, changed.Load(), len(specs))
				var failed, skipped []string
				passed := 0
				for _, s := range specs {
					switch {
					case s.State.Is(types.SpecStateFailureStates):
						failed = append(failed, s.Name)
					case s.State == types.SpecStatePassed:
						passed++
					case s.State == types.SpecStateSkipped && s.Failure != "":
						skipped = append(skipped, s.Name+": "+s.Failure)
					}
				}
				t.Logf("%s: %d specs passed, %d skipped with a reason:\n  %s", v.name, passed, len(skipped), strings.Join(skipped, "\n  "))
				sort.Strings(failed)
				verdict := "passes"
				if changed.Load() == 0 {
					// Legitimate, but nothing the contract profile sends reaches what it changes.
					verdict = "passes (changes nothing the contract profile sends)"
				}
				if !ok || len(failed) > 0 {
					verdict = fmt.Sprintf("FAILS %d specs:\n  - %s", len(failed), strings.Join(failed, "\n  - "))
					t.Errorf("the contract profile fails against a correct mock that %s (%s)\n%s", v.name, v.basis, tail(out, 6000))
				}
				mu.Lock()
				verdicts[v.name] = verdict
				mu.Unlock()
			})
		}
	})

	if !full() {
		skipRest(t, len(run), len(corrects), "correct variants")
	}
	var b strings.Builder
	b.WriteString("# Correct variants of the reference mock (other choices the interface permits) and the\n")
	b.WriteString("# contract profile's verdict on each; every one must pass\n")
	b.WriteString("# (regenerate: go test ./conformance/selftest -run TestSuitePassesCorrectVariants -update)\n")
	for _, v := range corrects {
		fmt.Fprintf(&b, "\n%s (%s): %s\n", v.name, v.basis, verdicts[v.name])
	}
	t.Log("\n" + b.String())
	golden := filepath.Join("..", "testdata", "selftest-correct.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want, err := os.ReadFile(golden); err != nil || string(want) != b.String() {
		t.Errorf("the verdicts differ from %s (%v); review and regenerate with -update\n%s", golden, err, diffLines(string(want), b.String()))
	}
}
