package check

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// maxCallers bounds the callers a Tracker remembers; past it, it forgets them all and starts
// again (a rule spanning exchanges is then judged from the next ones).
const maxCallers = 4096

// quickGap is how soon after an answer the caller's next request must come for the two to be
// judged "in a row" by LIMIT-1 (D123).
const quickGap = 2 * time.Second

// Tracker judges the rules that span the exchanges of one caller (D123): X-RateLimit-Remaining
// counts down on answers in a row (LIMIT-1), and a successful create shows up in the caller's
// next list (LIST-1 for tags and master boards, COMMENT-1 for a card's comments) and is found by
// its id (ERR-8), and a cart
// item removed stays removed while each removal lowers item_count (CART-1, CART-2), and a card's
// status update answers the status given unless another update overlapped it (TRANS-1). It is safe
// for concurrent use; the caller key is whatever identifies a caller (the proxy uses its bearer
// token).
type Tracker struct {
	mu      sync.Mutex
	callers map[string]*trail
	carts   map[string]cartMark  // by session token: cart removal is public
	gone    map[string]time.Time // groups a delete removed, by id, when answered (groups.go)
	// statuses are the recent status updates of each master card, by id, whoever sent them
	// (StatusSent): another caller's update may be what an answer shows.
	statuses map[string][]*statusWrite
	traffic  traffic       // every request judged, for LIMIT-1's quiet (quiet.go)
	lag      time.Duration // how long a list may not show a create (ListSettle)
	build    string        // the mock's build of the records last answered from (prefer.WorldBuild)
}

// trail is what a Tracker remembers of one caller.
type trail struct {
	rate  map[string]rateMark  // by operationId
	lists map[string]listMark  // the last list, by list key
	made  map[string]time.Time // records the caller's creates made ("card 12"), when answered (found.go)
}

// listMark is the last list of one kind to one caller and the creates that came after it.
type listMark struct {
	entries  int64
	answered time.Time
	// creates counts the successful creates asked for after the list was answered; mixed is
	// set when a create overlapped it, so the next list cannot be judged.
	creates []time.Time // when each was answered
	mixed   bool
}

// rateMark is the last 2xx answer of one operation to one caller.
type rateMark struct {
	limit, remaining int64
	answered         time.Time
	run              int       // answers in a row that left Remaining where it was
	started          time.Time // when the first request of the run was sent
}

// NewTracker returns an empty tracker.
func NewTracker() *Tracker {
	return NewTrackerLag(ListSettle)
}

// NewTrackerLag returns an empty tracker whose lists may not show a create for lag (0: they
// show it at once).
func NewTrackerLag(lag time.Duration) *Tracker {
	return &Tracker{callers: map[string]*trail{}, carts: map[string]cartMark{}, lag: lag}
}

// Rebuilt forgets every caller when a mock says (prefer.WorldBuild) its records were replaced
// since the last answer: a world dropped and made again, or reset or loaded by a control that
// did not pass the proxy, holds the records as seeded, not as the tracker saw them change. Only
// a mock's world's tracker takes it: a deployment sending the header would have its tracking
// forgotten at will.
func (t *Tracker) Rebuilt(build string) {
	if build == "" {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.build != "" && t.build != build {
		clear(t.callers)
		clear(t.carts)
		clear(t.gone)
	}
	t.build = build
}

// Forget drops what the tracker remembers of every caller: the records its counts stand on were
// replaced (a mock reset or loaded a snapshot), so a list may rightly count fewer entries.
func (t *Tracker) Forget() {
	t.mu.Lock()
	defer t.mu.Unlock()
	clear(t.callers)
	clear(t.carts)
	clear(t.gone)
}

// Judge records ex, an exchange of caller whose request was sent at sent and answered at
// answered, and returns the rules it breaks together with the caller's earlier exchanges, a
// cart removal's with the earlier removals from its cart, and a status update's with the
// updates of its card that overlapped it. Zero times are not tracked; an empty caller (no
// Authorization) only in the removals from a cart and the status updates.
func (t *Tracker) Judge(caller string, ex Exchange, sent, answered time.Time) []Violation {
	if sent.IsZero() || answered.IsZero() {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.traffic.saw(sent) // a refusal may count against a limit too
	if tr := t.callers[caller]; tr != nil && caller != "" {
		if vs := tr.found(ex, answered, t.lag); len(vs) > 0 {
			return vs
		}
	}
	if ex.Status < 200 || ex.Status >= 300 || ex.BodyPartial {
		return nil
	}
	var vs []Violation
	if !RefusedInSuccess(ex.Op, ex.Status, ex.Body) { // a refusal, though 2xx, changed nothing (D209)
		t.deleted(ex)
		vs = t.groupDelete(ex, sent, answered)
	}
	vs = append(vs, t.removal(ex, sent, answered)...)
	vs = append(vs, t.givenStatus(ex, sent, answered)...)
	if caller == "" {
		return vs
	}
	tr := t.callers[caller]
	if tr == nil {
		if len(t.callers) >= maxCallers {
			t.callers = map[string]*trail{}
		}
		tr = &trail{rate: map[string]rateMark{}, lists: map[string]listMark{}}
		t.callers[caller] = tr
	}
	tr.remember(ex, answered)
	vs = append(vs, tr.countDown(ex, sent, answered, &t.traffic)...)
	vs = append(vs, tr.listed(ex, sent, answered, t.lag)...)
	return vs
}

// countDown is LIMIT-1: three 2xx answers of one operation in a row, each asked for within
// quickGap of the previous answer and none overlapping, all asked for within one request's
// share of the minute (60/Limit seconds), cannot all leave X-RateLimit-Remaining at the same
// non-zero value (D123). A slower run can: a token bucket refills a request's share in that
// time, and a sliding window in its steady state lets one old request go for each new one. A
// run that requests sent a minute before it may explain is not judged (quiet.go).
func (tr *trail) countDown(ex Exchange, sent, answered time.Time, seen *traffic) []Violation {
	limit, limitWhy := HeaderInt(ex.Header, "X-RateLimit-Limit")
	rem, remWhy := HeaderInt(ex.Header, "X-RateLimit-Remaining")
	if limitWhy != "" || remWhy != "" {
		delete(tr.rate, ex.Op.ID)
		return nil
	}
	prev, ok := tr.rate[ex.Op.ID]
	mark := rateMark{limit: limit, remaining: rem, answered: answered, run: 1, started: sent}
	if ok && !sent.Before(prev.answered) && sent.Sub(prev.answered) < quickGap && limit == prev.limit && rem == prev.remaining && rem > 0 {
		mark.run, mark.started = prev.run+1, prev.started
	}
	share := time.Minute / time.Duration(max(limit, 1))
	if mark.run > 1 && sent.Sub(mark.started) >= share { // too slow to judge: start the run here
		mark.run, mark.started = 1, sent
	}
	tr.rate[ex.Op.ID] = mark
	if mark.run == 3 && seen.quietBefore(mark.started, answered, limit) {
		return []Violation{{Rule: rules.LIMIT1, Detail: fmt.Sprintf("three answers of %s in a row, asked for within %s (less than one request's share of the minute at %d a minute), left X-RateLimit-Remaining at %d", ex.Op.ID, sent.Sub(mark.started).Round(time.Millisecond), limit, rem)}}
	}
	return nil
}

// A list a create shows up in: the list's operation, where its entries are counted, and the
// rule a create that does not show up breaks. No operation of the interface deletes tags,
// master boards or comments, so a list can only grow.
var (
	listOf = map[string]struct {
		key, count string
		rule       rules.ID
		create     string // the operation whose creates the list must show
	}{
		"tagsList":         {"tags", "data.tags", rules.LIST1, "tagsCreate"},
		"masterBoardsList": {"masterBoards", "data.boards", rules.LIST1, "masterBoardsCreate"},
		"commentsList":     {"comments", "data.pagination.total", rules.COMMENT1, "commentsCreate"},
	}
	createOf = map[string]string{"tagsCreate": "tags", "masterBoardsCreate": "masterBoards", "commentsCreate": "comments"}
)

// listed is LIST-1 and COMMENT-1: after a caller's successful creates, its next list of the
// same kind (of the same card, for comments) counts at least one more entry per create than
// the list before them. Only creates asked for after that list was answered, and answered
// before the next list was asked for, are judged; an overlap leaves the next list unjudged.
func (tr *trail) listed(ex Exchange, sent, answered time.Time, lag time.Duration) []Violation {
	if key, ok := createOf[ex.Op.ID]; ok {
		if isReply(ex) {
			return nil // a reply may be listed under its parent, not as an entry of its own (D210)
		}
		if RefusedInSuccess(ex.Op, ex.Status, ex.Body) {
			return nil // a refusal, though 2xx: it creates nothing (D209)
		}
		key += scope(ex)
		if m, known := tr.lists[key]; known {
			if sent.Before(m.answered) {
				m.mixed = true
			} else {
				m.creates = append(m.creates, answered)
			}
			tr.lists[key] = m
		}
		return nil
	}
	l, ok := listOf[ex.Op.ID]
	if !ok {
		return nil
	}
	key := l.key + scope(ex)
	n, ok := count(ex.Body, l.count)
	if !ok {
		delete(tr.lists, key)
		return nil
	}
	before, known := tr.lists[key]
	mark := listMark{entries: n, answered: answered}
	if !known || before.mixed || len(before.creates) == 0 || slices.ContainsFunc(before.creates, sent.Before) {
		tr.lists[key] = mark // nothing to judge, or a create still under way when this list was asked for
		return nil
	}
	created := int64(len(before.creates))
	if n >= before.entries+created {
		tr.lists[key] = mark
		return nil
	}
	since := sent.Sub(before.creates[len(before.creates)-1])
	if since < lag {
		return nil // the list may lag the writes: a later one is judged against the same count
	}
	tr.lists[key] = mark
	return []Violation{{Rule: l.rule, Op: l.create, Detail: fmt.Sprintf("%d successful %s since the caller's last %s, which counted %d, yet it now counts %d, %s after the last create", created, createdWord(created), ex.Op.ID, before.entries, n, since.Round(time.Second))}}
}

// ListSettle is how long after a create a list may still not show it (D123): a deployment may
// read lists from a replica behind the writes, or carry out work after the answer. The suite
// waits as long by default (CONFORMANCE_PUSH_WAIT), and explore mode too.
const ListSettle = 20 * time.Second

func createdWord(n int64) string {
	if n == 1 {
		return "create"
	}
	return "creates"
}

// isReply tells a comment create that names a parent: whether the list shows replies as entries
// of their own or under their parent is not shown, so a reply is not counted.
func isReply(ex Exchange) bool {
	if ex.Op.ID != "commentsCreate" {
		return false
	}
	var req struct {
		Parent any `json:"parent_comment_id"`
	}
	return json.Unmarshal(ex.ReqBody, &req) == nil && req.Parent != nil
}

// scope narrows a list key to the card a comment list or create is about.
func scope(ex Exchange) string {
	if ex.Op.ID != "commentsList" && ex.Op.ID != "commentsCreate" {
		return ""
	}
	var req struct {
		CardID json.Number `json:"card_id"`
	}
	dec := json.NewDecoder(bytes.NewReader(ex.ReqBody))
	dec.UseNumber()
	if dec.Decode(&req) != nil {
		return ":?"
	}
	return ":" + req.CardID.String()
}

// count reads the number at path of body, or the length of the array there.
func count(body []byte, path string) (int64, bool) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return 0, false
	}
	for _, key := range strings.Split(path, ".") {
		obj, ok := v.(map[string]any)
		if !ok {
			return 0, false
		}
		v = obj[key]
	}
	switch x := v.(type) {
	case []any:
		return int64(len(x)), true
	case json.Number:
		n, err := x.Int64()
		return n, err == nil
	}
	return 0, false
}

// CallerKey identifies the caller of a request by its Authorization header ("" when it has
// none).
func CallerKey(h http.Header) string { return h.Get("Authorization") }
