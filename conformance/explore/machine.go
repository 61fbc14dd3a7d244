package explore

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"pgregory.net/rapid"

	"github.com/opsapi/mocktoolkit/conformance"

	"github.com/opsapi/mocktoolkit/conformance/rules"

	"github.com/opsapi/mocktoolkit/conformance/check"
)

// runner runs cases: each a rapid state machine over the target (and the reference in
// differential mode).
type runner struct {
	ctx     context.Context
	schemas schemaOf
	target  *env
	ref     *env

	// cases, calls and waits (429s waited out) are counted as the run goes; the progress
	// lines read them from another goroutine.
	cases, calls, waits atomic.Int64
	foundAt             atomic.Int64 // the case that first broke a property (shrinking replays come after)
	trace               []Call
	failure             *Failure
	// shrinkReplays bounds the replays after the first failure (Options.ShrinkReplays).
	shrinkReplays int
	// settle is how long a list may take to show a write or copies (Options.Settle); lag the
	// longest the target's list took to show one.
	settle, lag time.Duration
	diffs       []string
	diffSeen    map[string]bool
	// unanswered is why the target gave a request no answer (a connection closed, a timeout):
	// UP-1, which a replay cannot be counted on to see again, so the run stops there.
	unanswered error
}

// property is one case: a fresh model, then steps drawn by rapid.
func (r *runner) property(t *rapid.T) {
	cases := r.cases.Add(1)
	if r.unanswered != nil {
		t.Skip("the target stopped answering") // no more calls: the run ends with why
	}
	if r.failure != nil && cases-r.foundAt.Load() > int64(r.shrinkReplays) {
		// Past the bound every replay fails at once, as the failure found last did, so rapid
		// stops shrinking without a call; r.failure keeps the shortest case replayed.
		t.Fatalf("%s: %s", r.failure.Rule, r.failure.Reason)
	}
	r.trace = nil
	r.target.reset()
	if r.ref != nil {
		r.ref.reset()
	}
	t.Repeat(map[string]func(*rapid.T){
		"request":   r.actRequest,
		"request2":  r.actRequest, // single requests weigh three steps in eleven
		"request3":  r.actRequest,
		"update":    r.actUpdate,
		"count":     r.actCount,
		"pages":     r.actPages,
		"cart":      r.actCart,
		"sync":      r.actSync,
		"deprecate": r.actDeprecate,
		"thumbs":    r.actThumbs,
		"status":    r.actStatus,
		"absent":    r.actAbsentID,
		"authForm":  r.actAuthForm,
		"foreign":   r.actForeign,
		"scope":     r.actScopeOrRate,
	})
}

// fail records v with the case so far, then fails the case with a message that does not
// change between replays.
func (r *runner) fail(t *rapid.T, v *violation) {
	r.foundAt.CompareAndSwap(0, r.cases.Load())
	r.failure = &Failure{Rule: v.Rule, Reason: v.Reason, Detail: v.Detail, Check: v.Go, ShCheck: v.Sh, Calls: slices.Clone(r.trace), Broke: v.Op}
	t.Fatalf("%s", v.Error())
}

// both runs a step on the target (where properties are checked) and, in differential mode, on
// the reference, and compares the two outcomes.
func (r *runner) both(t *rapid.T, what string, step func(e *env) string) {
	got := step(r.target)
	if got == errSkip.Error() {
		t.Skip(errSkip)
	}
	if r.ref == nil {
		return
	}
	want := step(r.ref)
	if got != want {
		key := what + ": target " + got + ", reference " + want
		if r.diffSeen == nil {
			r.diffSeen = map[string]bool{}
		}
		if !r.diffSeen[key] {
			r.diffSeen[key] = true
			r.diffs = append(r.diffs, key)
		}
	}
}

// check fails the case when e is the target and v is a violation.
func (r *runner) check(t *rapid.T, e *env, v *violation) {
	if v != nil && e == r.target {
		r.fail(t, v)
	}
}

// send makes req in e. On the target it records the call and checks the answer; it returns the
// exchange and the call's index in the trace (-1 elsewhere). ok is false when a pool is empty.
func (r *runner) send(t *rapid.T, e *env, req request) (*conformance.Exchange, int, bool) {
	body, shown, ok := e.materialize(req.body)
	if !ok {
		return nil, -1, false
	}
	intent := conformance.Valid
	if req.invalid() {
		intent = conformance.Invalid
	}
	cr := conformance.Request{Op: req.op, As: req.as.String(), Token: e.tokens[req.as], Body: body, Intent: intent}
	if req.auth != nil {
		cr.As, cr.Authorization, cr.Token = req.auth.What, req.auth.Header(cr.Token), ""
	}
	ex, err := e.c.Send(r.ctx, cr)
	if err == nil && ex.Status == 401 && cr.Token != "" {
		// The lifetime of tokens is not shown: a token the target no longer accepts is renewed.
		if tok, lerr := e.login(r.ctx, req.as); lerr == nil {
			cr.Token = tok
			ex, err = e.c.Send(r.ctx, cr)
		}
	}
	if err != nil && e == r.target && r.ctx.Err() == nil {
		// No answer: UP-1, seen as the suite and the proxy see it. A dropped connection is not
		// shrunk (a replay may well be answered, and each one is sent to the target again).
		r.unanswered = fmt.Errorf("%s got no answer from the target (%v): rule UP-1, every request of an operation gets a whole answer; explore stops here, since a request left unanswered cannot be replayed to shrink the case (the calls of the case so far: %d)", req.op.ID, err, len(r.trace))
		t.Skip("the target gave no answer")
	}
	if err != nil {
		t.Fatalf("explore: %s on the %s: the request could not be made: %v", req.op.ID, e.name, err)
	}
	if ex.RequestErr != nil && e == r.target {
		t.Fatalf("explore bug: %s: %v", req.op.ID, ex.RequestErr)
	}
	idx := -1
	if e == r.target {
		r.calls.Add(1)
		r.waits.Add(int64(ex.Retries))
		req.found, req.fresh = namesFound(req.op.ID, req.body, shown)
		call := Call{Op: req.op, As: req.as, Body: shown, Raw: string(ex.ReqBody), Status: ex.Status, Invalid: req.invalid(), Auth: req.auth,
			Settle: req.fresh && req.intent == accepted}
		idx = len(r.trace)
		if req.retried && idx > 0 {
			idx-- // the same request sent again while its record settles: one call of the case
			r.trace[idx] = call
		} else {
			r.trace = append(r.trace, call)
		}
		req.repeated = append(append(e.repeats(req.op.ID, body), datesIn(r.schemas[req.op.ID], body)...), wideIn(r.schemas[req.op.ID], body)...)
		if copies[req.op.ID] {
			e.copiesAt = time.Now()
		}
		v := checkAnswer(req, ex)
		if v != nil && (v.Rule == rules.ERR8 || v.Rule == rules.ERR7) && req.fresh && r.settling(e) {
			// A record the case just created may be found only once a replica has it: ask again.
			select {
			case <-r.ctx.Done():
			case <-time.After(250 * time.Millisecond):
			}
			req.retried = true
			return r.send(t, e, req)
		}
		if req.retried && ex.Status != 404 {
			r.lag = max(r.lag, time.Since(e.createdAt))
		}
		if v != nil {
			v.Detail = strings.TrimSpace(v.Detail + "\n" + ex.Describe())
			r.fail(t, v)
		}
	}
	r.learn(e, req, ex, idx)
	return ex, idx, true
}

// learn adds the records a successful create made to e's pools.
func (r *runner) learn(e *env, req request, ex *conformance.Exchange, idx int) {
	if ex.Status < 200 || ex.Status >= 300 {
		return
	}
	created := func(path, prefix string, pools ...string) {
		if v, ok := ex.Int(path); ok {
			e.createdAt = time.Now()
			id := e.add(prefix, v, pools...)
			if idx >= 0 {
				r.trace[idx].Var, r.trace[idx].VarPath = id.Var, path
			}
			if prefix == "comment" {
				card, _, _ := e.materialize(map[string]any{"c": req.body["card_id"]})
				if cid, ok := card["c"].(int64); ok {
					e.comments[cid] = append(e.comments[cid], id)
				}
			}
		}
	}
	switch req.op.ID {
	case conformance.OpCardsCreate.ID:
		created("data.card.id", "card", "card", "createdCard")
	case conformance.OpTagsCreate.ID:
		created("data.tag.id", "tag", "tag")
	case conformance.OpCommentsCreate.ID:
		created("data.comment.id", "comment")
	case conformance.OpMasterBoardsCreate.ID:
		created("data.board.id", "masterBoard", "masterBoard") // when the record is an object
	case conformance.OpMasterGroupsCreate.ID:
		created("data.group.id", "masterGroup", "masterGroup", "createdMasterGrp")
	case conformance.OpMasterCardsCreate.ID:
		if req.body["card_type"] == "tour" {
			created("data.card.id", "masterCard", "createdMasterCard", "tourCard")
		} else {
			created("data.card.id", "masterCard", "createdMasterCard")
		}
	}
}

// outcome is the contract-level outcome of an answer that differential mode compares: the
// status class only (which 4xx a refusal takes is often a gap: D1, D36, D43).
func outcome(ex *conformance.Exchange) string {
	if ex == nil {
		return "none"
	}
	return fmt.Sprintf("%dxx", ex.Status/100)
}

// invalidOutcome adds, to the status class of the answer to a body invalid in one field, the
// keys of its errors: the interface keys them by field.
func invalidOutcome(ex *conformance.Exchange) string {
	s := outcome(ex)
	if ex != nil && ex.Status == 422 {
		s += " errors[" + strings.Join(check.ErrorKeys(ex.Body), ",") + "]"
	}
	return s
}

// actRequest sends one generated request: valid, invalid in one field, or naming a record that
// does not exist.
func (r *runner) actRequest(t *rapid.T) {
	op := rapid.SampledFrom(conformance.Operations).Draw(t, "op")
	fields := r.schemas[op.ID]
	body, ok := validBody(t, op, fields, manifestView{r.target})
	req := request{op: op, as: callerOf(op), body: body, intent: anyAnswer}
	if ok {
		req.intent = accepted
	}
	switch mode := rapid.IntRange(0, 2).Draw(t, "mode"); {
	case mode == 1:
		if f, how, broke := breakField(t, fields, body); broke {
			req.intent, req.field, req.how = invalidField, f, how
		}
	case mode == 2 && primaryID[op.ID] != "" && op.Listed(404):
		body[primaryID[op.ID]] = ref{pool: "missing"}
		req.intent = notFound
	}
	r.both(t, op.ID+" "+req.describe(), func(e *env) string {
		ex, _, ok := r.send(t, e, req)
		if !ok {
			return errSkip.Error()
		}
		if req.intent == invalidField {
			return invalidOutcome(ex)
		}
		return outcome(ex)
	})
}

// describe names what a generated request is, for differential mode's report.
func (req request) describe() string {
	switch req.intent {
	case invalidField:
		return "with " + req.field + " breaking its " + req.how
	case notFound:
		return "naming a record that does not exist"
	case accepted:
		return "with a valid body"
	}
	return "with a valid body (any answer)"
}

// listLen reads the count at path: the length of an array, or an integer.
func listLen(ex *conformance.Exchange, path string) (int64, bool) {
	if ex == nil || ex.Status != 200 {
		return 0, false
	}
	if n, ok := ex.Int(path); ok {
		return n, true
	}
	v, _ := ex.Get(path)
	a, ok := v.([]any)
	return int64(len(a)), ok
}

// count reads a list's count and marks the call so reproductions read it too.
func (r *runner) count(t *rapid.T, e *env, req request, path string) (int64, int, bool) {
	ex, idx, ok := r.send(t, e, req)
	if !ok {
		return 0, -1, false
	}
	if idx >= 0 {
		r.trace[idx].Count = path
	}
	n, ok := listLen(ex, path)
	return n, idx, ok
}

// actCount creates a record between two reads of its list: LIST-1.
func (r *runner) actCount(t *rapid.T) {
	which := rapid.SampledFrom([]string{"cards", "tags", "comments", "masterBoards"}).Draw(t, "list")
	var list, create request
	var path string
	switch which {
	case "cards":
		list = request{op: conformance.OpCardsList, as: member, body: map[string]any{}}
		body, _ := validBody(t, conformance.OpCardsCreate, r.schemas[conformance.OpCardsCreate.ID], manifestView{r.target})
		create, path = request{op: conformance.OpCardsCreate, as: member, body: body, intent: accepted}, "data.cards"
	case "tags":
		list = request{op: conformance.OpTagsList, as: member, body: map[string]any{}}
		body, _ := validBody(t, conformance.OpTagsCreate, r.schemas[conformance.OpTagsCreate.ID], manifestView{r.target})
		create, path = request{op: conformance.OpTagsCreate, as: member, body: body, intent: accepted}, "data.tags"
	case "comments":
		card := ref{pool: "card", idx: rapid.IntRange(0, 7).Draw(t, "card")}
		list = request{op: conformance.OpCommentsList, as: member, body: map[string]any{"card_id": card}}
		body := map[string]any{"card_id": card, "comment": drawText(t, "comment", 0)}
		reply := rapid.IntRange(0, 3).Draw(t, "reply")
		create, path = request{op: conformance.OpCommentsCreate, as: member, body: body, intent: accepted}, "data.pagination.total"
		r.both(t, "comments count", func(e *env) string { return r.countStep(t, e, list, create, path, reply) })
		return
	default:
		list = request{op: conformance.OpMasterBoardsList, as: superadmin, body: map[string]any{}}
		body, _ := validBody(t, conformance.OpMasterBoardsCreate, r.schemas[conformance.OpMasterBoardsCreate.ID], manifestView{r.target})
		create, path = request{op: conformance.OpMasterBoardsCreate, as: superadmin, body: body, intent: accepted}, "data.boards"
	}
	r.both(t, which+" count", func(e *env) string { return r.countStep(t, e, list, create, path, 0) })
}

func (r *runner) countStep(t *rapid.T, e *env, list, create request, path string, reply int) string {
	before, bi, ok1 := r.count(t, e, list, path)
	if reply > 0 {
		// a reply to a comment this case made on the same card, when there is one
		card, _, _ := e.materialize(map[string]any{"c": create.body["card_id"]})
		if cid, ok := card["c"].(int64); ok {
			if cs := e.comments[cid]; len(cs) > 0 {
				create.body = cloneBody(create.body)
				create.body["parent_comment_id"] = cs[reply%len(cs)]
			}
		}
	}
	ex, ci, ok := r.send(t, e, create)
	if !ok {
		return errSkip.Error()
	}
	answered := time.Now()
	after, ai, ok2 := r.count(t, e, list, path)
	if !ok1 || !ok2 || ex.Status == 429 {
		return "inconclusive"
	}
	want := before
	if ex.Succeeded() { // a 2xx with `error: true` where the codes are not shown is a refusal (D209)
		want++
	}
	_, isReply := create.body["parent_comment_id"]
	if isReply && after == before { // a reply may be listed under its parent, not as an entry (D210)
		want = before
	}
	if after < want {
		// A list may show a write some time after answering it (a read replica, a queue):
		// read again until it does, within the settle time (D210).
		after, ai, ok2 = r.awaitCount(t, e, list, path, want, answered)
		if !ok2 {
			return "inconclusive"
		}
	}
	if after > want && list.op.ID == conformance.OpCardsList.ID && time.Since(e.copiesAt) < r.settle {
		return "inconclusive: copies of a push or sync may still be arriving"
	}
	if after > want && e == r.target && r.lag > 0 {
		// The target's lists were seen behind its writes, so the count before may have
		// missed an earlier write that the count after shows.
		return "inconclusive: the list showed writes late before"
	}
	if after != want {
		// The reproduction reads whether its own create succeeded: a deployment may answer
		// it otherwise than the run saw.
		goCode, sh := listFollowed(bi, ci, ai, path, isReply)
		r.check(t, e, &violation{Rule: rules.LIST1,
			Reason: fmt.Sprintf("%s answered %d and the count of %s did not follow", create.op.ID, ex.Status, list.op.ID),
			Detail: fmt.Sprintf("%s: %d before, %d after; want %d", path, before, after, want), Go: goCode, Sh: sh, Op: create.op.ID})
	}
	if isReply && (after == before || after == before+1) {
		// Listed as an entry or under its parent, at once or after a lag, as D210 allows:
		// differential mode compares outcomes, and either count is the same outcome.
		return outcome(ex) + ", reply counted or under its parent"
	}
	return fmt.Sprintf("%s, count %+d", outcome(ex), after-before)
}

// awaitCount reads list again until it counts want entries at path, for up to the settle time
// after the create was answered; it returns the last count. The longest a target's list took
// to catch up is kept (r.lag): once a case has failed, shrinking replays wait at most twice
// that, so a list that never shows a write is not waited on at every replay.
func (r *runner) awaitCount(t *rapid.T, e *env, list request, path string, want int64, answered time.Time) (int64, int, bool) {
	settle := r.settle
	if r.failure != nil && e == r.target {
		settle = min(settle, 2*r.lag)
	}
	for {
		wait := min(250*time.Millisecond, time.Until(answered.Add(settle)))
		if wait <= 0 {
			return r.count(t, e, list, path)
		}
		select {
		case <-r.ctx.Done():
			return 0, -1, false
		case <-time.After(wait):
		}
		n, idx, ok := r.count(t, e, list, path)
		if !ok || n >= want {
			if e == r.target {
				r.lag = max(r.lag, time.Since(answered))
			}
			return n, idx, ok
		}
	}
}

// copies are the operations that may copy master cards into the projects: the member's card
// list may still gain copies for the settle time after one (D210).
var copies = map[string]bool{conformance.OpMasterBoardsSync.ID: true, conformance.OpMasterCardsCreate.ID: true, conformance.OpMasterCardsUpdate.ID: true}

func cloneBody(b map[string]any) map[string]any {
	out := make(map[string]any, len(b))
	for k, v := range b {
		out[k] = v
	}
	return out
}

// actPages reads a page of a card's comments: the checker judges its arithmetic (PAGE-1).
func (r *runner) actPages(t *rapid.T) {
	card := ref{pool: "card", idx: rapid.IntRange(0, 7).Draw(t, "card")}
	perPage := rapid.SampledFrom([]int64{1, 2, 3, 15, 100}).Draw(t, "per_page")
	page := rapid.Int64Range(1, 4).Draw(t, "page")
	req := request{op: conformance.OpCommentsList, as: member, intent: accepted,
		body: map[string]any{"card_id": card, "per_page": perPage, "page": page}}
	r.both(t, "comments page", func(e *env) string {
		ex, _, ok := r.send(t, e, req)
		if !ok {
			return errSkip.Error()
		}
		return outcome(ex)
	})
}

// creators make the record an update acts on when the case has none yet.
var creators = map[string]struct {
	op   conformance.Operation
	pool string
}{
	conformance.OpCardsUpdate.ID:        {conformance.OpCardsCreate, "createdCard"},
	conformance.OpMasterCardsUpdate.ID:  {conformance.OpMasterCardsCreate, "createdMasterCard"},
	conformance.OpMasterGroupsUpdate.ID: {conformance.OpMasterGroupsCreate, "createdMasterGrp"},
}

// actUpdate updates a record the case created (creating one first when there is none), with a
// valid body or one invalid in one field.
func (r *runner) actUpdate(t *rapid.T) {
	op := rapid.SampledFrom([]conformance.Operation{conformance.OpCardsUpdate, conformance.OpMasterCardsUpdate,
		conformance.OpMasterGroupsUpdate, conformance.OpBoardsUpdate}).Draw(t, "update")
	fields := r.schemas[op.ID]
	body, _ := validBody(t, op, fields, manifestView{r.target})
	req := request{op: op, as: callerOf(op), body: body, intent: accepted}
	if rapid.Bool().Draw(t, "update.invalid") {
		if f, how, broke := breakField(t, fields, body); broke {
			req.intent, req.field, req.how = invalidField, f, how
		}
	}
	var create request
	c, creates := creators[op.ID]
	if creates {
		cbody, _ := validBody(t, c.op, r.schemas[c.op.ID], manifestView{r.target})
		create = request{op: c.op, as: callerOf(c.op), body: cbody, intent: accepted}
	}
	r.both(t, op.ID+" "+req.describe(), func(e *env) string {
		if creates && len(e.pools[c.pool]) == 0 {
			if _, _, ok := r.send(t, e, create); !ok {
				return errSkip.Error()
			}
		}
		ex, _, ok := r.send(t, e, req)
		if !ok {
			return errSkip.Error()
		}
		if req.intent == invalidField {
			return invalidOutcome(ex)
		}
		return outcome(ex)
	})
}
