package mockserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/opsapi/mocktoolkit/conformance/flow"
	"github.com/opsapi/mocktoolkit/internal/inflight"
	"github.com/opsapi/mocktoolkit/internal/prefer"
	"github.com/opsapi/mocktoolkit/internal/redact"
)

// DefaultJournalSize is how many requests the journal keeps when Config.JournalSize is zero.
const DefaultJournalSize = 200

// Bounds of the journals (D64, D143): all worlds' journals together hold at most journalBytes
// (methods, paths, headers and bodies counted, with what their maps and slices cost), each
// body at most maxJournalBody (cut with a marker), and headers within redact.BoundHeaders. The oldest entries of the journal
// holding the most go first when a new one would pass the total, so no client, in any number
// of worlds, can make the mock hold more, and the dashboard's polling reads a bounded amount.
const (
	journalBytes   = 12 << 20
	maxJournalBody = 16 << 10
	// journalEntryCost is what an entry costs besides its strings: the fixed fields and maps.
	journalEntryCost = 512
	// journalHeaderCost is what a header name and a value cost besides their bytes.
	journalHeaderCost = 48
)

// journalEntry is one request and its answer, with credentials redacted (redact.go).
type journalEntry struct {
	ID         int64       `json:"id"`
	Time       time.Time   `json:"time"`
	Method     string      `json:"method"`
	Path       string      `json:"path"`
	World      string      `json:"world"`
	Operation  string      `json:"operation,omitempty"`
	Status     int         `json:"status"`
	DurationMS float64     `json:"duration_ms"`
	Request    journalBody `json:"request"`
	Response   journalBody `json:"response"`
	noted      bool        // its credentials are in the journal's known (journal_known.go)
	scrubbed   uint64      // the version of known its texts were scrubbed at (0: nothing known)
}

// journalBody is the headers and body of a request or an answer. What is kept is a bounded
// copy (raw, header); it is redacted the first time the journal is read and the redacted form
// is kept instead (redacting on every request cost more than the rest of the pipeline,
// docs/performance.md).
type journalBody struct {
	Headers map[string]string `json:"headers"`
	Body    any               `json:"body"`
	header  http.Header
	raw     []byte
	size    int // the body's whole length as far as it was read; > len(raw) when cut
}

// view returns the body as listed: headers and body redacted, a cut body as text with a marker.
func (b *journalBody) view() {
	if b.header == nil && b.raw == nil {
		return // already redacted
	}
	b.Headers = redact.Headers(b.header)
	raw := b.raw
	if b.size > len(raw) {
		raw = redact.CutTail(raw) // the cut may fall inside a credential
	}
	b.Body = redact.Body(raw)
	if b.size > len(b.raw) {
		text, ok := b.Body.(string)
		if !ok {
			text = redact.Text(string(raw))
		}
		b.Body = text + fmt.Sprintf(" …[cut: the first %d bytes of %d or more]", len(raw), b.size)
	}
	b.header, b.raw = nil, nil
}

// cost is what the body holds, for the journal's byte bound.
func (b *journalBody) cost() int {
	n := cap(b.raw)
	for k, vs := range b.header {
		n += len(k) + journalHeaderCost
		for _, v := range vs {
			n += len(v) + journalHeaderCost/2
		}
	}
	return n
}

// journalBudget bounds what the journals of every world hold together (D143): one world's
// large requests, or 64 worlds of them, never make the mock hold more. Its lock guards every
// journal attached to it; when a new entry would pass the bound, the oldest entry of the
// journal holding the most goes first.
type journalBudget struct {
	mu       sync.Mutex
	limit    int
	used     int
	journals map[*journal]struct{} // journals holding entries
}

func newJournalBudget(limit int) *journalBudget {
	return &journalBudget{limit: limit, journals: map[*journal]struct{}{}}
}

// largest is the attached journal holding the most bytes (nil when none holds any).
func (b *journalBudget) largest() *journal {
	var big *journal
	for j := range b.journals {
		if j.n > 0 && (big == nil || j.bytes > big.bytes) {
			big = j
		}
	}
	return big
}

// journal is a ring of exactly the last size requests to the API (not to the mock's own
// endpoints) of one world, fewer only when the budget shared by all worlds needs room (D143).
type journal struct {
	b      *journalBudget
	size   int
	bytes  int // what the entries hold (cost)
	nextID int64
	// ring grows with the entries held, up to size, and then wraps: a size made whole up front
	// cost 16 bytes a slot for every world, though the byte bound lets far fewer be held.
	ring     []*journalEntry // ring[(start+i)%len(ring)], i < n: oldest first
	costs    []int           // cost of ring[i]
	start, n int
	detached bool            // its world is gone: nothing more is kept
	known    *redact.Known   // credential values seen, replaced in every text listed (D200)
	counts   map[callKey]int // calls per operation and status since the last clear, never dropped (D105)
}

// callKey counts the calls of an operation that answered a status.
type callKey struct {
	operation string
	status    int
}

func newJournal(size int, b *journalBudget) *journal {
	if size <= 0 {
		size = DefaultJournalSize
	}
	return &journal{b: b, size: size, counts: map[callKey]int{}, known: redact.NewKnown(0)}
}

// slot is where the i-th oldest entry is; b.mu is held.
func (j *journal) slot(i int) int {
	return (j.start + i) % len(j.ring)
}

// grow makes room for one more entry in a full ring shorter than size, keeping the entries'
// order; b.mu is held.
func (j *journal) grow() {
	if j.start != 0 { // the budget took entries meanwhile: lay them out from the first slot
		ring := make([]*journalEntry, 0, min(2*len(j.ring), j.size))
		costs := make([]int, 0, cap(ring))
		ring = append(append(ring, j.ring[j.start:]...), j.ring[:j.start]...)
		costs = append(append(costs, j.costs[j.start:]...), j.costs[:j.start]...)
		j.ring, j.costs, j.start = ring, costs, 0
	}
	j.ring = append(j.ring, nil)
	j.costs = append(j.costs, 0)
}

func (j *journal) add(e journalEntry) { j.addRan(e, nil, nil) }

// addRan adds e, the record of a call that acted on ran, unless cur (its world's state) has
// been reset since (D62, D105): the reset cleared the journal and its counts after swapping
// the state, so checked under the journal's lock, a call on the old records either lands
// before the clear and goes with it, or finds the new epoch and is left out. A nil ran adds e.
func (j *journal) addRan(e journalEntry, ran *worldState, cur *atomic.Pointer[worldState]) {
	cost := journalEntryCost + len(e.Method) + len(e.Path) + len(e.Operation) + e.Request.cost() + e.Response.cost()
	b := j.b
	b.mu.Lock()
	defer b.mu.Unlock()
	if j.detached || ran != nil && cur.Load().epoch != ran.epoch {
		return
	}
	j.nextID++
	e.ID = j.nextID
	if e.Operation != "" {
		j.counts[callKey{e.Operation, e.Status}]++
	}
	if j.n == j.size {
		j.dropOldest()
	}
	for b.used+cost > b.limit {
		big := b.largest()
		if big == nil {
			break
		}
		big.dropOldest()
	}
	if j.n == len(j.ring) {
		j.grow()
	}
	i := j.slot(j.n)
	j.ring[i], j.costs[i] = &e, cost
	j.n++
	j.bytes += cost
	b.used += cost
	b.journals[j] = struct{}{}
}

// dropOldest removes the oldest entry; b.mu is held.
func (j *journal) dropOldest() {
	j.bytes -= j.costs[j.start]
	j.b.used -= j.costs[j.start]
	j.ring[j.start], j.costs[j.start] = nil, 0
	j.start = (j.start + 1) % len(j.ring)
	j.n--
	if j.n == 0 {
		delete(j.b.journals, j)
	}
}

// list returns the entries newest first, at most limit of them (all when limit <= 0).
func (j *journal) list(limit int) []journalEntry {
	j.b.mu.Lock()
	defer j.b.mu.Unlock()
	n := j.n
	if limit > 0 && limit < n {
		n = limit
	}
	out := make([]journalEntry, 0, n)
	j.noteAll()
	for i := j.n - 1; i >= 0 && len(out) < n; i-- {
		e := j.ring[j.slot(i)]
		e.Request.view()
		e.Response.view()
		j.scrub(e)
		out = append(out, *e)
	}
	return out
}

func (j *journal) clear() {
	j.b.mu.Lock()
	defer j.b.mu.Unlock()
	j.empty()
	j.counts = map[callKey]int{}
}

// detach empties the journal of a world that is gone and keeps nothing more.
func (j *journal) detach() {
	j.b.mu.Lock()
	defer j.b.mu.Unlock()
	j.empty()
	j.detached = true
}

// empty drops every entry; b.mu is held.
func (j *journal) empty() {
	for j.n > 0 {
		j.dropOldest()
	}
	j.ring, j.costs, j.start = nil, nil, 0 // the slots follow the entries held: none
}

// count is how many calls of operation (any when "") answered a status that status matches
// since the journal was last cleared.
func (j *journal) count(operation string, status statusFilter) int {
	j.b.mu.Lock()
	defer j.b.mu.Unlock()
	n := 0
	for k, c := range j.counts {
		if (operation == "" || k.operation == operation) && status.match(k.status) {
			n += c
		}
	}
	return n
}

// journalRecorder is a statusRecorder that also keeps the first limit bytes of an answer:
// maxJournalBody, or more while the world's flow records (flowLog.keep, D173).
type journalRecorder struct {
	statusRecorder
	body  []byte
	size  int
	limit int
	// skeleton is what the flow keeps of an answer past limit while it records: its ids at
	// their places (flow.Skeleton), so an id taken from a long list is still a reference.
	skeleton []byte
}

// maxFlowSkeleton bounds the answers whose ids the flow keeps past maxFlowAnswer: a list of
// some 25,000 cards, read once more as it is written.
const maxFlowSkeleton = 32 << 20

func (rec *journalRecorder) Write(b []byte) (int, error) {
	if rec.size == 0 && rec.limit == maxFlowAnswer && len(b) > rec.limit && len(b) <= maxFlowSkeleton {
		rec.skeleton = flow.Skeleton(b) // answers are written whole: b is the answer
	}
	if room := rec.limit - len(rec.body); room > 0 {
		keep := b[:min(room, len(b))]
		if rec.body == nil { // answers are written whole: one allocation of their size
			rec.body = make([]byte, 0, len(keep))
		}
		rec.body = append(rec.body, keep...)
	}
	rec.size += len(b)
	return rec.statusRecorder.Write(b)
}

// recordRequests writes every request outside the mock's own endpoints to the journal.
func (s *Server) recordRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.isControlPath(r.URL.Path) || worldError(r) != nil {
			next.ServeHTTP(w, r)
			return
		}
		wl := s.worldOf(r)
		start := time.Now()
		at := wl.clock.Now()
		rt, op := s.ops[r.URL.Path]
		// The state the call acts on: the one bound now, unless the pipeline tells another
		// (ranOn). The call is recorded only while it is still the world's (D62, D105, D173).
		ran := &ranOn{st: wl.state()}
		if op {
			r = r.WithContext(context.WithValue(r.Context(), ranOnKey{}, ran))
		}
		// While the world's flow records, a request is read whole up to the flow's bound (the
		// mock's own body limit), so a long body replays as sent; the journal keeps its first
		// maxJournalBody bytes either way (D173).
		limit := wl.flow.keep()
		unread := op && r.ContentLength > maxBody // the pipeline refuses it unread (413): reading here would send "100 Continue"
		var reqBody []byte
		var readErr error
		if !unread {
			held, err := s.bodies.Hold(w, r, maxBody) // every body held at once stays under maxBodiesHeld (D216)
			if err != nil {
				s.peekRate(w, r)
				writeBodiesFull(w, s.bodies.Max())
				return
			}
			defer held.Release()
			reqBody, readErr = readUpTo(r.Body, r.ContentLength, limit+1) // one more: was it cut?
			// Cut short for another client's body (D216).
			if errors.Is(readErr, inflight.ErrGaveWay) {
				s.peekRate(w, r)
				writeBodyGaveWay(w)
				return
			}
		}
		reqBody, reqSize := passBodyOn(r, reqBody, readErr, unread, limit)
		if bodyEncoded(r.Header) && reqSize > 0 { // bytes redaction cannot read are not kept (D184)
			reqBody = []byte("[a body sent with Content-Encoding " + clip(r.Header.Get("Content-Encoding"), 60) + ": not kept]")
			reqSize = len(reqBody)
		}
		rec := &journalRecorder{statusRecorder: statusRecorder{ResponseWriter: w}, limit: limit}
		next.ServeHTTP(rec, r)
		e := journalEntry{
			Time: at, World: wl.name, Method: r.Method, Path: s.loggedPath(r), Status: rec.status,
			DurationMS: float64(time.Since(start).Microseconds()) / 1000,
			Request:    journalBody{header: redact.BoundHeaders(r.Header), raw: journalCut(reqBody), size: reqSize},
			Response:   journalBody{header: redact.BoundHeaders(rec.Header()), raw: journalCut(rec.body), size: rec.size},
		}
		if op {
			e.Operation = rt.id
			s.flowStep(wl, ran.st, rt, r, rec, reqBody, readErr)
		}
		wl.journal.noteOnRecord(r.Header, r.URL.RawQuery, e.Request.raw, e.Response.raw) // D200
		wl.journal.addRan(e, ran.st, &wl.cur)
	})
}

// ranOnKey keys an operation request's ranOn in its context.
type ranOnKey struct{}

// ranOn is the state of its world an operation request acted on: the one bound when it came
// in, or the one the pipeline served it from (serveBound: a request held across a reset or a
// loaded snapshot is served by the new records, D62). The journal and the flow record the call
// only while that state is still the world's (D105, D173).
type ranOn struct{ st *worldState }

// ranOnOf is r's ranOn, or nil (a handler called without the journal in front).
func ranOnOf(r *http.Request) *ranOn {
	o, _ := r.Context().Value(ranOnKey{}).(*ranOn)
	return o
}

// set notes that the request acts on st.
func (o *ranOn) set(st *worldState) {
	if o != nil {
		o.st = st
	}
}

// passBodyOn gives the pipeline the request body the journal read ahead, whole, cut at limit
// (the rest still to read) or broken off (the same error again), and returns the bytes the
// journal keeps and the size it reports.
func passBodyOn(r *http.Request, reqBody []byte, readErr error, unread bool, limit int) ([]byte, int) {
	reqSize := len(reqBody)
	switch {
	case unread:
		reqBody = []byte(fmt.Sprintf("[a body of %d bytes, over the %s the mock takes: not read]", r.ContentLength, byteSize(maxBody)))
		return reqBody, len(reqBody)
	case readErr == nil && reqSize <= limit:
		r.Body = &readAhead{Reader: bytes.NewReader(reqBody), data: reqBody, Closer: r.Body}
		return reqBody, reqSize
	case readErr != nil: // broken off: the pipeline meets the same error (net/http's body says EOF after it)
		r.Body = readCloser{io.MultiReader(bytes.NewReader(reqBody), failingReader{readErr}), r.Body}
	default: // cut: the pipeline reads the rest
		r.Body = readCloser{io.MultiReader(bytes.NewReader(reqBody), r.Body), r.Body}
	}
	return reqBody[:min(reqSize, limit)], reqSize
}

// flowStep records an operation's exchange in the world's flow while one records (D170), or
// says why it was left out: a forced or rate-limited answer, a request the guard refused, one
// too large, or one a replay could not send as it came. A call that acted on records a reset
// or a loaded snapshot replaced since (ran is no longer the world's state) is neither recorded
// nor counted: the flow restarted without it (D173).
func (s *Server) flowStep(wl *world, ran *worldState, rt *route, r *http.Request, rec *journalRecorder, reqBody []byte, readErr error) {
	why, cannot := unreplayable(reqBody)
	if readErr != nil {
		why, cannot = brokenRequest, true
	}
	skip := why
	switch {
	case rec.Header().Get("X-Mock-Forced") != "":
		skip = forcedAnswer
	case rec.status == http.StatusTooManyRequests:
		skip = rateLimited
	case s.refusedByGuard(r, rt):
		skip = refusedByGuard
	case rec.Header().Get(prefer.Refused) == prefer.RefusedCapacity:
		skip = mockCapacity
	case s.sentOtherwise(r):
		skip = sentOtherwise
	case rec.status == http.StatusRequestEntityTooLarge:
		skip = oversizeRequest
	case !cannot:
		answer := rec.body
		if rec.skeleton != nil {
			answer = rec.skeleton
		}
		wl.recordFlow(rt.id, ran, r, reqBody, rec.status, answer)
		return
	}
	// A call left out still tells the flow its credentials (a form's password), which a later
	// call may quote.
	wl.flow.skip(skip, ran, &wl.cur, requestCredentials(r, reqBody))
}

// readUpTo reads at most limit bytes of body, in one allocation when its length is known.
func readUpTo(body io.Reader, length int64, limit int) ([]byte, error) {
	if length >= 0 && length < int64(limit) {
		b := make([]byte, length)
		n, err := io.ReadFull(body, b)
		if err == nil { // a body longer than announced cannot happen: net/http stops at Content-Length
			return b[:n], nil
		}
		return b[:n], err
	}
	return io.ReadAll(io.LimitReader(body, int64(limit)))
}

// readAhead is a request body the journal has read whole: the pipeline takes data as it is
// instead of reading and copying it again (readBody). Nobody writes to data.
type readAhead struct {
	*bytes.Reader
	data []byte
	io.Closer
}

// failingReader fails every read with err.
type failingReader struct{ err error }

func (f failingReader) Read([]byte) (int, error) { return 0, f.err }

// readCloser reads from one reader and closes another.
type readCloser struct {
	io.Reader
	io.Closer
}

// isControlPath tells the mock's own endpoints (never journaled) from the API's paths and the
// unknown ones: a path under /__mock/ that is no endpoint is an unknown path, answered 404 with
// the rate-limit headers and journaled as any (it spent the window, and the journal left it
// out).
func (s *Server) isControlPath(path string) bool { return s.controlMethods(path) != "" }
