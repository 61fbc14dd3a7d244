package conformance_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/opsapi/mocktoolkit/conformance" //nolint:revive // the suite reads as the interface does
	"github.com/opsapi/mocktoolkit/fixtures"

	"github.com/opsapi/mocktoolkit/conformance/check"
	"github.com/opsapi/mocktoolkit/conformance/report"
	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// missingID is the suite's "does not exist" record: far from every id of the manifest
// (AbsentID), set with the manifest before any spec runs.
var missingID int64

// missingToken names no cart.
const missingToken = "conformance-no-such-cart-000000000000000" // 40 characters, under the max of 64

// A role is one of the manifest's users.
type role int

const (
	anonymous role = iota
	member
	superadmin
	outsider
	teammate // optional: another user of the member's project
)

func (r role) String() string {
	return [...]string{"nobody", "the member", "the superadmin", "the outsider", "the member's teammate"}[r]
}

// hasTeammate tells whether the manifest names the optional teammate.
func hasTeammate() bool {
	return manifest.Users.Teammate.Email != "" || manifest.Tokens.Teammate != ""
}

func (r role) credentials() fixtures.Credentials {
	switch r {
	case member:
		return manifest.Users.Member
	case superadmin:
		return manifest.Users.Superadmin
	case outsider:
		return manifest.Users.Outsider
	case teammate:
		return manifest.Users.Teammate
	}
	return fixtures.Credentials{}
}

// manifestToken is the bearer token the manifest gives r, if any.
func (r role) manifestToken() string {
	switch r {
	case member:
		return manifest.Tokens.Member
	case superadmin:
		return manifest.Tokens.Superadmin
	case outsider:
		return manifest.Tokens.Outsider
	case teammate:
		return manifest.Tokens.Teammate
	}
	return ""
}

// tokens caches a bearer token per role and operation, so each operation spends its own
// rate-limit window (D14 counts per token) and a low --rate-limit slows the suite less.
var tokens = struct {
	sync.Mutex
	m     map[string]string
	owner map[string]role // token -> the role it was cached for
}{m: map[string]string{}, owner: map[string]role{}}

// login authenticates r and returns the token of the answer. That it is the bearer token of the
// other operations is D10 (the interface does not show it; it is the only way to get one), so a
// token the manifest gives r is returned instead. It holds r's login lease meanwhile, across the
// run's processes (D212).
func login(r role) string {
	GinkgoHelper()
	if tok := r.manifestToken(); tok != "" {
		return tok // the deployment's bearer tokens do not come from authenticate: the manifest gives them
	}
	return leased(r, func(string) string { return loginNow(r) })
}

// leased runs f holding r's login lease, with the token the run's latest login of r gave; the
// token f returns becomes the latest.
func leased(r role, f func(latest string) string) string {
	GinkgoHelper()
	latest, release := client.LoginLease(bg, r.String())
	fresh := ""
	defer func() { release(fresh) }() // a failed login (its spec fails) ends the lease too
	fresh = f(latest)
	return fresh
}

// loginNow is login without the lease.
func loginNow(r role) string {
	GinkgoHelper()
	c := r.credentials()
	if c.Email == "" || c.Password == "" {
		Skip(fmt.Sprintf("the manifest gives a token but no credentials for %s, and this spec needs a login", r))
	}
	ex := sendUnjudged(bg, Request{Op: OpAuthenticate, As: r.String(),
		Body: map[string]any{"email": c.Email, "password": c.Password}})
	tok, ok := ex.String("data.token")
	if ex.Status < 200 || ex.Status > 299 || !ok || tok == "" {
		Expect(ex).To(KeepTheContract()) // why it is no login, when a rule says
		Expect(ex).To(HaveSuccessStatus(), "logging in as %s with the manifest's credentials: %s", r, Cite(rules.AUTH4))
		Expect(ok && tok != "").To(BeTrue(), "%s\n\n%s", Cite(rules.AUTH4), ex.Describe())
	}
	if len(ex.Violations) > 0 {
		ids := make([]string, len(ex.Violations))
		for i, v := range ex.Violations {
			ids[i] = string(v.Rule)
		}
		By(fmt.Sprintf("the login answer breaks %s; this spec uses its token, and the authenticate specs judge it", strings.Join(slices.Compact(ids), ", ")))
	}
	tokens.Lock()
	tokens.owner[tok] = r // renewable on a 401 as a cached token is: another process's login may end it
	tokens.Unlock()
	return tok
}

// token returns the cached token of r for op (a login on first use).
func token(r role, op Operation) string {
	GinkgoHelper()
	if r == anonymous {
		return ""
	}
	if tok := r.manifestToken(); tok != "" {
		return tok
	}
	key := fmt.Sprintf("%d/%s", r, op.ID)
	tokens.Lock()
	tok, ok := tokens.m[key]
	tokens.Unlock()
	if ok {
		return tok
	}
	tok = login(r)
	tokens.Lock()
	tokens.m[key] = tok
	tokens.owner[tok] = r
	tokens.Unlock()
	return tok
}

// maxUnanswered is how many requests in a row may go unanswered before the run is abandoned.
const maxUnanswered = 3

// maxRefused is how many requests refused with 429 however long the client waited, by a
// deployment that has answered nothing else, end the run (it refuses everything).
const maxRefused = 5

// maxRenewals bounds the logins one request may take to get past a 401 of a cached token.
const maxRenewals = 6

// renewed replaces the cached token tok, which a deployment refused with 401, by the token of
// the run's latest login of its role when that is another (a login since ended tok), else by a
// new login, and returns it ("" when tok is not a cached token). The interface does not show
// the lifetime of tokens, so a deployment may end a token early (say, when its user logs in
// again); only D10 keeps every token valid (D212).
func renewed(tok string) string {
	GinkgoHelper()
	tokens.Lock()
	r, ok := tokens.owner[tok]
	tokens.Unlock()
	if !ok {
		return ""
	}
	fresh := leased(r, func(latest string) string {
		if latest != "" && latest != tok {
			return latest
		}
		return loginNow(r)
	})
	tokens.Lock()
	tokens.owner[fresh] = r // tok stays known: a spec holding it is renewed again on its next 401
	for k, v := range tokens.m {
		if v == tok {
			tokens.m[k] = fresh
		}
	}
	tokens.Unlock()
	return fresh
}

// send makes a request, skips the spec when a 429 asks to wait longer than the client's bound,
// fails it when the request is not what the suite meant (a suite bug), and checks what every
// answer must satisfy, as the one contract checker judges it (its status, envelope, rate-limit
// headers, validation keys and the OpenAPI document), citing the rule each broken fact breaks.
func send(r Request) *Exchange {
	GinkgoHelper()
	return sendCtx(bg, r)
}

// sendCtx is send with the spec's context (SpecContext), so an interrupted spec stops waiting.
func sendCtx(ctx context.Context, r Request) *Exchange {
	GinkgoHelper()
	ex := sendUnjudged(ctx, r)
	Expect(ex).To(KeepTheContract())
	return ex
}

// sendUnjudged is sendCtx without the rules of every answer: for a spec's setup login, whose
// answer the authenticate specs judge (one flaw in the login answer failed every spec of the
// run, and the summary showed all 24 operations failing).
func sendUnjudged(ctx context.Context, r Request) *Exchange {
	GinkgoHelper()
	started := time.Now()
	progress.sent(r.Op.ID)
	ex, err := client.Send(ctx, r)
	// A cached token the deployment no longer accepts: log in again and send once more (the
	// lifetime of tokens is not shown; the auth specs send no cached token). A deployment that
	// keeps one session per user ends a process's token whenever another process logs the same
	// user in, so a renewed token may itself be ended before it is used: a few rounds settle it.
	for round := 0; err == nil && ex.Status == 401 && r.Token != "" && round < maxRenewals; round++ {
		fresh := renewed(r.Token)
		if fresh == "" {
			break
		}
		r.Token = fresh
		ex, err = client.Send(ctx, r)
	}
	if err == nil {
		progress.answeredAfter(ex.Latency)
	}
	if err != nil {
		if n := client.Unanswered(); n >= maxUnanswered {
			AbortSuite(fmt.Sprintf("the deployment stopped answering: the last %d requests got no answer within %s (CONFORMANCE_TIMEOUT) or had their connection refused, the last being %s (%v); the run ends here rather than fail or wait on every spec left. Its health check may answer while its operations hang (a database down, a stuck worker), or the deployment went down.", n, cfg.Timeout, r.Op.ID, err))
		}
		AddReportEntry(report.ReportEntryChargedOp, r.Op.ID, ReportEntryVisibilityNever) // a login's, too: its row, not the spec's
		Fail(fmt.Sprintf("%s: no answer: %s. The deployment must answer every request (%s). A deployment that is only slow answers within a longer CONFORMANCE_TIMEOUT (now %s).\n\n%s", r.Op.ID, err, Cite(rules.UP1), cfg.Timeout, ex.Describe()))
	}
	if n := client.RefusedOnly(); n >= maxRefused {
		AbortSuite(fmt.Sprintf("the deployment refuses every request with 429: it has answered nothing else, and %d requests were still refused after waiting what Retry-After asked, as long as CONFORMANCE_RETRY_MAX (%s) allows, the last being %s; the run ends here rather than wait on and skip every spec left. Its rate limits may be spent from an earlier run (start with a fresh window), or it refuses everything.", n, cfg.RetryMax, r.Op.ID))
	}
	if ex.LongRetry > 0 {
		if len(ex.Broken(rules.LIMIT6)) > 0 { // a per-minute window cannot ask that long
			Expect(ex).To(KeepTheContract())
		}
		if ex.LongRetry > cfg.RetryMax {
			why := "a rate-limit window is spent; reset the deployment or run again later"
			if slices.Contains(CurrentSpecReport().Labels(), LabelFlow) {
				why = "a rate-limit window or an operation's own limit (thumbnail regenerations) is spent; reset the deployment or run again later, unless the flow itself asks for more than that limit in one window (a recording that moved the mock's clock, as the flow's note says, may)"
			}
			Skip(fmt.Sprintf("%s answered 429 asking to wait %s, longer than this suite waits (%s): %s", r.Op.ID, ex.LongRetry, cfg.RetryMax, why))
		}
		Skip(fmt.Sprintf("%s still answered 429 after %d retries that waited %s in all (the bound is %s): other requests took what each wait freed; run with fewer processes (CONFORMANCE_PARALLEL) or a higher CONFORMANCE_RETRY_MAX", r.Op.ID, ex.Retries, ex.Waited, cfg.RetryMax))
	}
	if ex.BodyPartial {
		Skip(fmt.Sprintf("%s: %v: the answer is not judged", r.Op.ID, ex.JSONErr))
	}
	if ex.RequestErr != nil {
		Fail(fmt.Sprintf("suite bug: the request is not what the spec meant to send: %s\n\n%s", ex.RequestErr, ex.Describe()))
	}
	if r.Op.ID == OpThumbnailsRegenerate.ID && ex.Status == 200 {
		thumbs.record(r.Token, started)
	}
	return ex
}

// call sends a valid request as r with its cached token for op.
func call(r role, op Operation, body map[string]any) *Exchange {
	GinkgoHelper()
	if body == nil {
		body = map[string]any{}
	}
	return send(Request{Op: op, As: r.String(), Token: token(r, op), Body: body})
}

// firstTaken sends body(id) to op as the member for each of ids in turn until one is taken
// (2xx) and returns that exchange and id, or the last refusal. Destructive specs use it on the
// records a transition uses up (an archived conversation restored, an approved version
// deprecated): whether a transition made already is refused is not shown, so a record an
// earlier run used is passed over for the next one the manifest lists (conformance/README.md,
// Destructive specs). A status the operation does not list is answered at once.
func firstTaken(op Operation, ids []int64, body func(id int64) map[string]any) (*Exchange, int64) {
	GinkgoHelper()
	var ex *Exchange
	for i, id := range ids {
		ex = call(member, op, body(id))
		if ex.Status < 400 || !op.Listed(ex.Status) {
			return ex, id
		}
		if i < len(ids)-1 {
			By(fmt.Sprintf("%d was refused with %d (an earlier run may have used it): trying %d, the next the manifest lists", id, ex.Status, ids[i+1]))
		} else if len(ids) > 1 {
			By(fmt.Sprintf("every one of the %d the manifest lists was refused: if earlier runs used them all, reset the deployment or list others", len(ids)))
		}
	}
	return ex, ids[len(ids)-1]
}

// callInvalid sends a request that breaks a field constraint on purpose.
func callInvalid(r role, op Operation, body map[string]any) *Exchange {
	GinkgoHelper()
	return send(Request{Op: op, As: r.String(), Token: token(r, op), Body: body, Intent: Invalid})
}

// caller is who calls op in the specs that are not about permissions: the superadmin for S
// operations, the member otherwise, nobody for public ones.
func caller(op Operation) role {
	switch op.Access {
	case Superadmin:
		return superadmin
	case Bearer:
		return member
	}
	return anonymous
}

// with returns a copy of body with key set to v (or deleted when v is omit).
func with(body map[string]any, key string, v any) map[string]any {
	out := make(map[string]any, len(body)+1)
	for k, x := range body {
		out[k] = x
	}
	if v == omit {
		delete(out, key)
	} else {
		out[key] = v
	}
	return out
}

type omitted struct{}

var omit any = omitted{}

// unique returns a short text unique to this spec run, for titles the specs look for later.
func unique(prefix string) string {
	return fmt.Sprintf("%s %d-%d", prefix, GinkgoParallelProcess(), time.Now().UnixNano())
}

// findByID returns the object with "id" id among objs.
func findByID(objs []map[string]any, id int64) (map[string]any, bool) {
	for _, o := range objs {
		if n, ok := Integer(o["id"]); ok && n == id {
			return o, true
		}
	}
	return nil, false
}

// idsOf lists the "id" values of objs.
func idsOf(objs []map[string]any) []int64 {
	out := make([]int64, 0, len(objs))
	for _, o := range objs {
		if n, ok := Integer(o["id"]); ok {
			out = append(out, n)
		}
	}
	return out
}

// num reads an integer field of a JSON object.
func num(o map[string]any, key string) (int64, bool) {
	return Integer(o[key])
}

// expectTheStatusGiven checks that a card status update answers, where its card is an object
// with a status, the status the request gave (TRANS-1), as the one checker judges it. The specs
// that use it run Serial: an update of the card overlapping theirs may rightly show in the answer.
func expectTheStatusGiven(ex *Exchange) {
	GinkgoHelper()
	failOn(check.GivenStatus(ex.Checked()), rules.TRANS1, ex)
}

// failOn fails the spec on the first of vs, the one checker's violations of rule: what was
// seen comes first (a JUnit report shows a failure's first line as its message), then the
// rule's statement and the exchange.
func failOn(vs []check.Violation, rule rules.ID, ex *Exchange) {
	GinkgoHelper()
	if len(vs) > 0 {
		Fail(fmt.Sprintf("rule %s is broken: %s\n%s\n\n%s", vs[0].Rule, vs[0].Detail, Cite(rule), ex.Describe()))
	}
}

// memberCards lists the member's cards (cards/list).
func memberCards(r role) []map[string]any {
	GinkgoHelper()
	ex := call(r, OpCardsList, nil)
	Expect(ex).To(HaveStatus(200), Cite(rules.DATA1))
	return ex.Objects("data.cards")
}

// listedCards are the cards the member's project lists in cards/list and in the widget list of
// the manifest's tool (which list shows the copies of master cards is not shown).
func listedCards() []map[string]any {
	GinkgoHelper()
	cards := memberCards(member)
	if w := call(member, OpWidgetCardsList, map[string]any{"tool_key": manifest.Operations.ToolKey, "include_snoozed": true}); w.Status == 200 {
		cards = append(cards, w.Objects("data.cards")...)
	}
	return cards
}

// copiesOf returns the cards among cards whose master_card_id is master (D23).
func copiesOf(cards []map[string]any, master int64) []map[string]any {
	var out []map[string]any
	for _, c := range cards {
		if id, ok := num(c, "master_card_id"); ok && id == master {
			out = append(out, c)
		}
	}
	return out
}

// expectSuccess checks the operation's stated success status (or any 2xx where the interface
// does not show it) and the success envelope.
func expectSuccess(ex *Exchange) {
	GinkgoHelper()
	if code := ex.Op.SuccessCode(); code != 0 {
		Expect(ex).To(HaveStatus(code), Cite(rules.STATUS2))
	} else {
		Expect(ex).To(HaveSuccessStatus(), Cite(rules.DATA1)+" (its status is not shown; any success)")
	}
	Expect(ex).To(HaveSuccessEnvelope())
}

// expectNotFound checks a 404 with body shape (a).
func expectNotFound(ex *Exchange, rule string) {
	GinkgoHelper()
	Expect(ex).To(HaveStatus(404), rule)
	Expect(ex).To(HaveEnvelopeA())
}

// thumbs remembers when each regeneration the suite itself got accepted was sent, per project
// (kept under the role of a project: the teammate's under the member), for rule LIMIT-3: only
// the suite's own successes can be counted, since an earlier run or another process may have
// spent part of a window.
var thumbs = &thumbLedger{sent: map[role][]time.Time{}}

type thumbLedger struct {
	sync.Mutex
	sent map[role][]time.Time
}

func (l *thumbLedger) record(tok string, at time.Time) {
	tokens.Lock()
	r, ok := tokens.owner[tok]
	tokens.Unlock()
	for _, m := range []role{member, superadmin, outsider, teammate} {
		if tok != "" && m.manifestToken() == tok {
			r, ok = m, true
		}
	}
	if !ok {
		return
	}
	if r == teammate {
		r = member // one project, one window (Limits: per project)
	}
	l.Lock()
	l.sent[r] = append(l.sent[r], at)
	l.Unlock()
}

// inWindow counts r's successes sent after since.
func (l *thumbLedger) inWindow(r role, since time.Time) int {
	l.Lock()
	defer l.Unlock()
	n := 0
	for _, t := range l.sent[r] {
		if t.After(since) {
			n++
		}
	}
	return n
}

// alignedSkew is how far the deployment's clock and the moment a request is counted may be from
// the suite's clock when a window aligned on the clock begins.
const alignedSkew = 3 * time.Second

// alignedThumbWindow tells whether a fixed 10-minute window aligned on the clock (…:00, …:10,
// UTC) began after from and holds at most five of the member's project's successes, the last
// one included: a deployment counting in such windows rightly accepted that last one, however
// many the suite counted in the 10 minutes before (LIMIT-3 does not state the window's kind). It
// returns the window's start.
func alignedThumbWindow(from time.Time) (time.Time, bool) {
	return alignedWindow(time.Now(), from, func(since time.Time) int { return thumbs.inWindow(member, since) })
}

// alignedWindow is alignedThumbWindow at now, counting successes sent after a time with count.
func alignedWindow(now, from time.Time, count func(time.Time) int) (time.Time, bool) {
	boundary := now.Truncate(10 * time.Minute)
	return boundary, boundary.Add(-alignedSkew).After(from) && count(boundary.Add(-alignedSkew)) <= 5
}

// later is the later of a and b.
func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// pushedGroup gives the member's project a group the suite may delete: a new master group, and
// a master card pushed into it (push_to_projects), whose copy in the member's project names the
// copy's group. It skips the spec when the member's card list does not show that copy with its
// `master_card_id` and `group_id` (list records' fields are not shown).
func pushedGroup() int64 {
	GinkgoHelper()
	g := call(superadmin, OpMasterGroupsCreate, map[string]any{"board_id": manifest.Operations.MasterBoardID, "title": unique("Group to delete")})
	expectSuccess(g)
	masterGroup, ok := g.Int("data.group.id")
	Expect(ok).To(BeTrue(), "%s\n\n%s", Cite(rules.DATA1), g.Describe())
	c := finding(bg, func() *Exchange {
		return call(superadmin, OpMasterCardsCreate, map[string]any{"group_id": masterGroup, "title": unique("Card in group to delete"), "card_type": "widget", "push_to_projects": true})
	})
	Expect(c).To(HaveStatus(201), Cite(rules.STATUS2))
	masterCard, _ := c.Int("data.card.id")
	// The copy may come after the answer (D210), as PUSH-1 waits for it.
	copies := copiesOf(listedCards(), masterCard)
	for deadline := time.Now().Add(cfg.PushWait); len(copies) == 0 && time.Now().Before(deadline); copies = copiesOf(listedCards(), masterCard) {
		time.Sleep(250 * time.Millisecond)
	}
	if len(copies) == 0 {
		Skip(fmt.Sprintf("within %s of the push, the member's card list shows no card with master_card_id %d (list records' fields are not shown), so the suite has no group of the member's project to delete", cfg.PushWait, masterCard))
	}
	group, ok := num(copies[0], "group_id")
	if !ok || group <= 0 {
		Skip("the member's card list does not show the pushed copy's group_id (list records' fields are not shown)")
	}
	return group
}
