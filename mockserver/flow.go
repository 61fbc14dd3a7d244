package mockserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
	"weak"

	"github.com/opsapi/mocktoolkit/conformance/flow"
	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/internal/answerbound"
	"github.com/opsapi/mocktoolkit/internal/jsonnest"
	"github.com/opsapi/mocktoolkit/internal/redact"
	"github.com/opsapi/mocktoolkit/reference"
	"github.com/opsapi/mocktoolkit/spec"
)

// Bounds of a world's flow recording (D173): at most maxFlowSteps calls and flowBytes of
// bodies since the world's last reset, and flowBytesAll across every world (the journals'
// concern of D143: no number of worlds makes the mock hold more); later calls are counted and
// left out (a flow cut at its start would break the references of the steps kept), and the
// document's note says so.
const (
	maxFlowSteps = 2000
	flowBytes    = 8 << 20
	flowBytesAll = 16 << 20
	// maxFlowAnswer is how much of an answer the flow keeps (the journal keeps
	// maxJournalBody of it): a list answer whole, so the ids in it can be referred to.
	maxFlowAnswer = 1 << 20
)

// flowLog records a world's calls to the interface's operations since its last reset, for
// GET /__mock/flow (D170). Bodies are the journal's own copies (never written after), held
// as sent: the flow replaces credentials by references when it is built, never before, so
// the manifest's passwords and cart tokens can still be recognised.
type flowLog struct {
	budget  *flowBudget
	mu      sync.Mutex
	calls   []flowCall
	bytes   int
	dropped int                 // calls left out after the first ones recorded (given up or not)
	left    [leftOutReasons]int // calls left out, by why
	gone    bool                // its world was evicted: nothing more is kept
	// givenUp counts the calls it recorded and gave up for a world in use (flowBudget.take);
	// from then on it keeps nothing until the next reset.
	givenUp int
	// movedAt are the steps after which the world's clock was moved (the number of calls then),
	// which a flow cannot carry: its note says so.
	movedAt []int
	// gen changes with every change of what the flow holds: a document built at one gen is
	// the document of every request until the next (flowCache).
	gen uint64
	// leftSecrets are the credentials of calls left out (a form's password), which the flow
	// still replaces wherever a kept call quotes them (D200); at most maxLeftSecrets.
	leftSecrets []string
}

// maxLeftSecrets bounds the credentials a flow keeps of calls it left out.
const maxLeftSecrets = 256

// flowBudget is what every world's flow holds together (flowBytesAll). When it is full, the
// flow of the least recently used idle world gives its calls up for a world in use (D173), as
// worlds themselves give way: idle worlds otherwise held the budget and a busy world's flow
// kept only its first calls.
type flowBudget struct {
	used atomic.Int64
	// reclaim frees the flow of the least recently used idle world other than the one of
	// asking, and reports whether there was one; nil frees nothing.
	reclaim func(asking *flowLog) bool
}

// take reserves n bytes for asking, reclaiming idle worlds' flows as needed, or reports that
// the budget has no room for them.
func (b *flowBudget) take(n int, asking *flowLog) bool {
	for {
		if b.used.Add(int64(n)) <= flowBytesAll {
			return true
		}
		b.used.Add(-int64(n))
		if b.reclaim == nil || !b.reclaim(asking) {
			return false
		}
	}
}

// giveUp drops the calls of f for another world's flow, and keeps nothing more until the next
// reset (a flow with its start missing would break the references of the steps kept); it
// reports whether it held anything.
func (f *flowLog) giveUp() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.bytes == 0 {
		return false
	}
	f.budget.used.Add(-int64(f.bytes))
	f.givenUp += len(f.calls)
	f.calls, f.bytes = nil, 0
	f.gen++
	return true
}

// flowCall is one call as recorded: what flow.Call needs, without allocating a header map
// on every request.
type flowCall struct {
	op, as, contentType, accept string
	req, answer                 []byte
	status                      int
	secrets                     []string // the credential values its headers carried (D200)
}

// add records c, a call that acted on ran, unless cur (its world's state) is another by now: a
// reset or a loaded snapshot replaced the records it acted on and cleared the flow after the
// swap (D173). Such a call is not counted as left out either, which would end the new
// recording. Checked under f.mu, a call on the old records either lands before the clear and
// goes with it, or is left out. A nil ran records c.
func (f *flowLog) add(c flowCall, ran *worldState, cur *atomic.Pointer[worldState]) {
	cost := cap(c.req) + cap(c.answer)
	f.mu.Lock()
	if ran != nil && cur.Load() != ran {
		f.mu.Unlock()
		return
	}
	full := f.gone || len(f.calls) >= maxFlowSteps || f.bytes+cost > flowBytes || f.dropped > 0 || f.givenUp > 0
	f.mu.Unlock()
	// The budget is taken without f.mu: reclaiming locks the registry, then other flows.
	if full || !f.budget.take(cost, f) {
		f.mu.Lock()
		if ran == nil || cur.Load() == ran {
			f.dropped++ // once one call is left out, every later one is: a flow has no gaps
			f.gen++
		}
		f.mu.Unlock()
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if ran != nil && cur.Load() != ran { // replaced meanwhile: the budget back, nothing counted
		f.budget.used.Add(-int64(cost))
		return
	}
	if f.gone || f.dropped > 0 || f.givenUp > 0 || len(f.calls) >= maxFlowSteps { // changed meanwhile
		f.budget.used.Add(-int64(cost))
		f.dropped++
		f.gen++
		return
	}
	f.calls = append(f.calls, c)
	f.bytes += cost
	f.gen++
}

// keep is how much of an answer to keep for the flow: maxFlowAnswer while it records, else
// only what the journal keeps.
func (f *flowLog) keep() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.calls) >= maxFlowSteps || f.bytes >= flowBytes || f.dropped > 0 || f.givenUp > 0 || f.budget.used.Load() >= flowBytesAll {
		return maxJournalBody
	}
	return maxFlowAnswer
}

// journalCut is the journal's copy of an answer kept for the flow: the first maxJournalBody
// bytes, copied when there were more, so the journal's ring does not hold the larger array.
func journalCut(body []byte) []byte {
	if len(body) <= maxJournalBody {
		return body
	}
	return append([]byte(nil), body[:maxJournalBody]...)
}

// clear forgets the calls (a reset) and gives their bytes back.
func (f *flowLog) clear() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.budget.used.Add(-int64(f.bytes))
	f.calls, f.bytes, f.dropped, f.left, f.givenUp, f.movedAt, f.leftSecrets = nil, 0, 0, [leftOutReasons]int{}, 0, nil, nil
	f.gen++
}

// maxClockMoves bounds the moves a flow's note names.
const maxClockMoves = 10

// noteClockMove notes that the world's clock moved after the calls recorded so far (before the
// first, it only sets the time the recording started from, which no flow carries either).
func (f *flowLog) noteClockMove() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if n := len(f.calls); n > 0 && !f.gone && (len(f.movedAt) == 0 || f.movedAt[len(f.movedAt)-1] != n) && len(f.movedAt) < maxClockMoves {
		f.movedAt = append(f.movedAt, n)
		f.gen++
	}
}

// clockMoves are the steps after which the clock moved.
func (f *flowLog) clockMoves() []int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.movedAt)
}

// detach clears the flow of an evicted world for good: a request still under way in it keeps
// nothing.
func (f *flowLog) detach() {
	f.clear()
	f.mu.Lock()
	f.gone = true
	f.mu.Unlock()
}

// snapshot returns the calls as the flow package takes them, how many were left out past the
// bounds and how many for each reason of leftOut.
func (f *flowLog) snapshot() ([]flow.Call, int, int, [leftOutReasons]int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]flow.Call, len(f.calls))
	for i, c := range f.calls {
		h := http.Header{}
		switch {
		case c.contentType != "":
			h.Set("Content-Type", c.contentType)
		case len(c.req) > 0: // a body sent without one: the replay must not add one
			h["Content-Type"] = []string{""}
		}
		if c.accept != "" {
			h.Set("Accept", c.accept)
		}
		out[i] = flow.Call{Operation: c.op, As: c.as, Header: h, Request: c.req, Status: c.status, Answer: c.answer, Secrets: c.secrets}
	}
	return out, f.dropped, f.givenUp, f.left
}

// leftOut is why a call is left out of the flow.
type leftOut int

const (
	// forcedAnswer: a fault rule or Prefer: code= chose the answer (D61, D5); the deployment did
	// not, so a flow replayed elsewhere must not demand it.
	forcedAnswer leftOut = iota
	// garbledRequest: the request held text that is not valid UTF-8 (raw bytes or a lone
	// surrogate escape, D74); a flow is JSON, whose decoders replace such text with U+FFFD, so a
	// replay would send valid text and turn the recorded refusal into a write.
	garbledRequest
	// deepRequest: the request body nests deeper than maxFlowDepth; a flow wraps each body in
	// a few levels of its own, and JSON readers (Go's among them) stop at 10000, so one such call
	// would make the whole flow unreadable.
	deepRequest
	// brokenRequest: the request body broke off before its announced length; the call was
	// refused for it, and a replay would send the part that arrived, whole.
	brokenRequest
	// rateLimited: the answer was a 429 of a spent window or of the login throttle, which
	// depends on the recording's timing and --rate-limit, not on what the calls asked.
	rateLimited
	// refusedByGuard: the mock refused the call for its own guards, not the API's rules: an
	// origin --cors-origins does not name (D214), or a Prefer: code= the operation does not
	// list (D60); a replay without that header would be carried out.
	refusedByGuard
	// oversizeRequest: the request body passed the mock's 1 MiB and was refused unread (413);
	// a flow keeps bodies whole up to that size, so a replay would send another body.
	oversizeRequest
	// sentOtherwise: the call came by another method than POST, or with a Content-Type, charset
	// or Content-Encoding the mock does not take; a flow keeps neither the method nor those
	// headers, so a replay would POST JSON and carry out what the mock refused.
	sentOtherwise
	// mockCapacity: the mock refused the call for a bound of its own (--max-records,
	// --max-state-mb, the id ceiling), which a deployment need not have: a replay would be
	// carried out there.
	mockCapacity
	// unnamedCaller: the call (or login) was made by a user the manifest does not name, whose
	// calls no manifest role makes alike (roleOf): replayed as another, it would be answered
	// otherwise.
	unnamedCaller
	leftOutReasons
)

// leftOutNotes words each reason for the flow's note, after the number of calls.
var leftOutNotes = [leftOutReasons]string{
	forcedAnswer:    "answered by a fault rule or Prefer: code= are left out (a deployment is never asked to fail on purpose)",
	garbledRequest:  "whose request held text that is not valid UTF-8 are left out (a flow, being JSON, cannot carry such text as it was sent)",
	deepRequest:     fmt.Sprintf("whose request body nested deeper than %d levels are left out (the flow could not be read back)", maxFlowDepth),
	brokenRequest:   "whose request body broke off before its announced length are left out (a replay would send it whole)",
	rateLimited:     "answered 429 (a spent rate-limit window or the login throttle) are left out (that depends on the recording's timing, not on the calls)",
	oversizeRequest: "whose request body passed the 1 MiB the mock takes are left out (a flow keeps bodies whole only up to that size: a replay would send another body)",
	refusedByGuard:  "refused for the mock's own guards (an origin --cors-origins does not name, a Prefer code the operation does not list) are left out (a replay sends neither header)",
	unnamedCaller:   "made by a user the manifest does not name, whose calls no role of the manifest makes alike (another project's tools, a superadmin of another project), are left out, logins included (replayed as another user, they would be answered otherwise)",
	mockCapacity:    "refused for a bound of the mock's own (--max-records, --max-state-mb, the id ceiling) are left out (a deployment need not have it: a replay would be carried out there)",
	sentOtherwise:   "sent otherwise than the API's POST of JSON (another method, a Content-Type, charset or Content-Encoding the mock does not take) are left out (a flow keeps neither: a replay would POST JSON and carry them out)",
}

// sentOtherwise tells a call sent otherwise than a POST of a JSON body as the mock takes it
// (sentOtherwise's reasons).
func (s *Server) sentOtherwise(r *http.Request) bool {
	if r.Method != http.MethodPost || encodingProblem(r) != nil {
		return true
	}
	return !s.cfg.LenientContentType && contentTypeProblem(r) != nil
}

// refusedByGuard tells a call the mock refused for its own guards (refusedByGuard's reasons).
func (s *Server) refusedByGuard(r *http.Request, rt *route) bool {
	if s.apiOriginRefusal(r) != "" {
		return true
	}
	_, misuse := preferred(r.Header, rt)
	return misuse != ""
}

// maxFlowDepth is the deepest request body a flow keeps (deepRequest).
const maxFlowDepth = 1000

// skip counts a call left out for why, and keeps the credentials it carried (secrets), unless it
// acted on ran and cur is another by now (add).
func (f *flowLog) skip(why leftOut, ran *worldState, cur *atomic.Pointer[worldState], secrets []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if ran != nil && cur.Load() != ran {
		return
	}
	f.left[why]++
	f.leftSecrets = append(f.leftSecrets, secrets[:min(len(secrets), maxLeftSecrets-len(f.leftSecrets))]...)
	f.gen++
}

// leftOutSecrets are the credentials of the calls left out (leftSecrets).
func (f *flowLog) leftOutSecrets() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.leftSecrets)
}

// version is the flow's gen and how many bytes of calls it holds.
func (f *flowLog) version() (gen uint64, bytes int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.gen, f.bytes
}

// unreplayable tells why a request body cannot be kept in a flow as sent, if it cannot.
func unreplayable(body []byte) (leftOut, bool) {
	if (!utf8.Valid(body) || bytes.Contains(body, []byte(`\u`))) && len(spec.InvalidText(body)) > 0 {
		return garbledRequest, true
	}
	if len(body) > 2*maxFlowDepth && jsonnest.Nesting(body) > maxFlowDepth { // shorter bodies cannot nest that deep: no scan on the hot path
		return deepRequest, true
	}
	return 0, false
}

// recordFlow adds one call of operation op, which acted on st, to the world's flow: who called
// (from the bearer token, in st), the headers that may matter and both bodies.
func (wl *world) recordFlow(op string, st *worldState, r *http.Request, req []byte, status int, answer []byte) {
	as, stood := callerRole(st, r), true
	if op == "authenticate" {
		req, stood = standInLogin(st, req, status)
	}
	if as == "" || !stood {
		wl.flow.skip(unnamedCaller, st, &wl.cur, requestCredentials(r, req))
		return
	}
	wl.flow.add(flowCall{op: op, as: as, contentType: r.Header.Get("Content-Type"), accept: r.Header.Get("Accept"),
		req: req, status: status, answer: answer, secrets: requestCredentials(r, req)}, st, &wl.cur)
}

// requestCredentials are the credential values a request carries outside its JSON fields, which
// the flow replaces wherever they are quoted (D200): its headers' (HeaderCredentials), its
// query's, and a form body's (a client posting password=… is refused, but the value is a
// credential all the same).
func requestCredentials(r *http.Request, body []byte) []string {
	out := append(redact.HeaderCredentials(r.Header), redact.QueryCredentials(r.URL.RawQuery)...)
	if b := bytes.TrimSpace(body); len(b) > 0 && b[0] != '{' && b[0] != '[' {
		out = append(out, redact.QueryCredentials(string(b))...)
	}
	return out
}

// callerRole says who a request's bearer token belongs to, as a flow writes it (D171): a
// manifest user by e-mail, else the role that calls as that user does (roleOf), else ""
// when no role does; "none" without a token, "invalid" for a token the world does not know.
func callerRole(st *worldState, r *http.Request) string {
	token, ok := bearer(r)
	if !ok {
		return flow.AsNone
	}
	u, err := st.store.UserByToken(token)
	if err != nil {
		return flow.AsInvalid
	}
	role, _ := roleOf(st, u)
	return role
}

// roleOf is the manifest role a world's user u calls as in a flow (D171), with that role's
// credentials: the manifest's user of that e-mail; else, for a user the manifest does not name,
// the role whose calls it makes alike: the superadmin when u is one of the same project, the
// member when u works in the member's project, the outsider when u's project has the tools of
// the outsider's. "" when none does: a call of u replayed as another would be answered
// otherwise (a user of a project with other tools, recorded as the outsider, listed widgets the
// outsider's project answers 403 for), so its calls are left out.
func roleOf(st *worldState, u reference.User) (string, fixtures.Credentials) {
	users := st.manifest.Users
	for _, r := range []struct {
		as string
		c  fixtures.Credentials
	}{{flow.AsMember, users.Member}, {flow.AsSuperadmin, users.Superadmin}, {flow.AsOutsider, users.Outsider}, {flow.AsTeammate, users.Teammate}} {
		if r.c.Email != "" && strings.EqualFold(u.Email, r.c.Email) {
			return r.as, r.c // the teammate is a user of its own: conversations are per user
		}
	}
	member, _ := st.store.UserByEmail(users.Member.Email)
	outsider, _ := st.store.UserByEmail(users.Outsider.Email)
	superadmin, _ := st.store.UserByEmail(users.Superadmin.Email)
	switch {
	case u.IsSuperadmin:
		if superadmin.IsSuperadmin && superadmin.ProjectID == u.ProjectID {
			return flow.AsSuperadmin, users.Superadmin
		}
	case member.ProjectID != 0 && u.ProjectID == member.ProjectID && !member.IsSuperadmin:
		return flow.AsMember, users.Member
	case outsider.ProjectID != 0 && !outsider.IsSuperadmin && u.ProjectID != member.ProjectID &&
		slices.Equal(st.store.ProjectTools(u.ProjectID), st.store.ProjectTools(outsider.ProjectID)):
		return flow.AsOutsider, users.Outsider
	}
	return "", fixtures.Credentials{}
}

// standInLogin is a login body as a flow keeps it (D171): a login as a user of the world the
// manifest does not name is written as the login of the role its calls take (roleOf), with
// that role's password when it logged in, so a flow never carries such a user's e-mail and a
// replay logs in as the target's user in that role (it kept the e-mail and a redacted password,
// and failed against a fresh copy of the world it was recorded in). ok is false for a user no
// role stands in for: the login is left out, as its calls are.
func standInLogin(st *worldState, req []byte, status int) (out []byte, ok bool) {
	var body map[string]any
	dec := json.NewDecoder(bytes.NewReader(req))
	dec.UseNumber()
	if dec.Decode(&body) != nil {
		return req, true
	}
	email, _ := body["email"].(string)
	u, known := st.store.UserByEmail(email)
	if !known {
		return req, true // no user's: an address typed, which names no record
	}
	role, c := roleOf(st, u)
	switch {
	case role == "":
		return nil, false
	case strings.EqualFold(c.Email, u.Email):
		return req, true // the manifest's own user
	}
	body["email"] = c.Email
	if status >= 200 && status < 300 {
		body["password"] = c.Password
	}
	out, err := json.Marshal(body)
	if err != nil {
		return req, true
	}
	return out, true
}

// handleFlow answers the world's flow since its last reset or loaded snapshot (D170, D173): GET /__mock/flow.
func (s *Server) handleFlow(w http.ResponseWriter, r *http.Request) {
	wl := s.worldOf(r)
	st := wl.state()
	gen, size := wl.flow.version()
	if doc := wl.flowDoc.get(st, gen); doc != nil { // unchanged since it was built: shared
		answerbound.Share(w) // counted once, by the answer that built it
		writeFlow(w, wl, doc)
		return
	}
	if size > largeFlow {
		// One large build at a time, the turn given up once the document is built: a client
		// that does not read its flow holds its bytes, not every other world's turn.
		bw, release, ok := s.flowBuilds.Take(r.Context(), w)
		if !ok {
			return // the client went away while another flow was built
		}
		defer release()
		w = bw
		if doc := wl.flowDoc.get(st, gen); doc != nil { // built meanwhile by another request
			answerbound.Share(w)
			writeFlow(w, wl, doc)
			return
		}
	}
	doc, err := json.Marshal(s.buildFlow(wl, st))
	if err != nil {
		writeShapeA(w, http.StatusInternalServerError, "Internal server error.")
		return
	}
	built := &flowBody{append(doc, '\n')}
	wl.flowDoc.put(st, gen, built)
	writeFlow(w, wl, built)
}

// flowBody is an encoded flow document, shared by the answers writing it.
type flowBody struct{ b []byte }

// writeFlow answers doc; the cache keeps it while this answer is written.
func writeFlow(w http.ResponseWriter, wl *world, doc *flowBody) {
	w.Header().Set("Content-Disposition", fmt.Sprintf("inline; filename=%q", "flow-"+wl.name+".json"))
	writeBody(w, http.StatusOK, doc.b)
	runtime.KeepAlive(doc)
}

// buildFlow builds the flow document of wl's calls since its reset.
func (s *Server) buildFlow(wl *world, st *worldState) flow.Document {
	calls, dropped, givenUp, left := wl.flow.snapshot()
	var secrets []string
	if s.cfg.AdminToken != "" {
		secrets = append(secrets, s.cfg.AdminToken)
	}
	secrets = append(secrets, wl.flow.leftOutSecrets()...)
	doc := flow.Build("world "+wl.name, calls, st.manifest, secrets...)
	doc.Source = fmt.Sprintf("mock world %s, scenario %s, seed %d", wl.name, st.source.Scenario, st.source.Seed)
	var notes []string
	if st.source.Snapshot {
		notes = append(notes, "recorded since a snapshot was loaded (PUT /__mock/state, or the state file the mock started from): a deployment replaying it needs the records the steps name")
	}
	for why, n := range left {
		if n > 0 {
			note := fmt.Sprintf("%d calls %s", n, leftOutNotes[why])
			if n == 1 {
				note = "1 call " + strings.Replace(leftOutNotes[why], " are left out", " is left out", 1)
			}
			notes = append(notes, note)
		}
	}
	if s.cfg.LenientContentType {
		if steps := typedOtherwise(doc); len(steps) > 0 {
			notes = append(notes, "recorded on a mock started with --lenient-content-type: steps "+strings.Join(steps, ", ")+" sent their bodies without application/json, which the mock refuses by default and a deployment may refuse too")
		}
	}
	if moved := wl.flow.clockMoves(); len(moved) > 0 {
		steps := make([]string, len(moved))
		for i, n := range moved {
			steps[i] = strconv.Itoa(n)
		}
		notes = append(notes, "the world's clock was moved during the recording (after step "+strings.Join(steps, ", ")+"): a flow does not carry the clock, so a replay runs on the target's own time, and a step that relied on the move (a thumbnail window or a rate window that had passed, a snooze that had ended) may answer otherwise")
	}
	if givenUp > 0 {
		// The calls left out after the ones given up are counted too: the note said only that
		// the recorded calls were given up, as if the world had made no call since.
		later := ""
		if dropped > 0 {
			later = fmt.Sprintf(", and %d later calls were not recorded", dropped)
		}
		notes = append(notes, fmt.Sprintf("the %d calls recorded since the last reset were given up while this world was idle, to make room for the flows of worlds in use (%d MiB across all worlds)%s; reset this world to record afresh", givenUp, flowBytesAll>>20, later))
	} else if dropped > 0 {
		notes = append(notes, fmt.Sprintf("the recording holds the first %d calls since the last reset; %d later calls are left out (at most %d calls and %d MiB of bodies a world, %d MiB across all worlds)", len(calls), dropped, maxFlowSteps, flowBytes>>20, flowBytesAll>>20))
	}
	doc.Note = strings.Join(notes, "; ")
	return doc
}

// typedOtherwise are the steps of doc whose body was sent with a Content-Type other than
// application/json, or none: only --lenient-content-type reads them.
func typedOtherwise(doc flow.Document) []string {
	var steps []string
	for _, st := range doc.Steps {
		if _, typed := st.Headers["Content-Type"]; typed {
			steps = append(steps, strconv.Itoa(st.Step))
		}
	}
	return steps
}

// largeFlow is the size of a world's recorded calls past which its flow is built in turn.
const largeFlow = 1 << 20

// flowCache is a world's last flow document, encoded, and what it was built from: every
// download of an unchanged flow shares its bytes (many clients fetching one large flow held a
// copy each, and took a build each, a second of CPU for 8 MB). It is held weakly: once no
// answer is writing it, the collector may take it back.
type flowCache struct {
	mu  sync.Mutex
	st  *worldState
	gen uint64
	doc weak.Pointer[flowBody]
}

// get is the document built from st at gen, or nil.
func (c *flowCache) get(st *worldState, gen uint64) *flowBody {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.st != st || c.gen != gen {
		return nil
	}
	return c.doc.Value()
}

func (c *flowCache) put(st *worldState, gen uint64, doc *flowBody) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.st, c.gen, c.doc = st, gen, weak.Make(doc)
}
