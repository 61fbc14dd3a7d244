package proxy

import (
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/opsapi/mocktoolkit/conformance/rules"
	"github.com/opsapi/mocktoolkit/internal/querycheck"
	"github.com/opsapi/mocktoolkit/internal/redact"
	"github.com/opsapi/mocktoolkit/internal/text"
)

// maxJournalBody is how much of each body a journal entry keeps.
const maxJournalBody = 64 << 10

// Exchange is one request and its answer as the journal keeps them: credentials redacted, bodies
// cut to 64 KiB, headers within redact.BoundHeaders, with the violations found.
type Exchange struct {
	ID         int64       `json:"id"`
	Time       time.Time   `json:"time"`
	Method     string      `json:"method"`
	Path       string      `json:"path"`
	Operation  string      `json:"operation,omitempty"`
	Status     int         `json:"status"`
	DurationMS float64     `json:"duration_ms"` // until the answer's header and checked body were in
	Violations []Violation `json:"violations"`
	Notes      []string    `json:"notes,omitempty"`
	Request    Message     `json:"request"`
	Response   Message     `json:"response"`
	scrubbed   uint64      // the version of the journal's known credentials its texts were scrubbed at
}

// Message is the headers and body of a request or an answer. Body is the decoded JSON when the
// body is JSON, else its text.
type Message struct {
	Headers map[string]string `json:"headers"`
	Body    any               `json:"body"`
}

// journal is a ring of the last exchanges. known holds the credential values its exchanges
// carried (D200): every text of an entry is scrubbed of them when it is added, and again when
// listed if more were seen since (a comment may quote a password before anyone logs in with it).
type journal struct {
	known   *redact.Known
	mu      sync.Mutex
	size    int
	nextID  int64
	entries []Exchange // entries[start] is the oldest once the ring is full
	start   int
}

func newJournal(size int) *journal {
	if size <= 0 {
		size = DefaultJournalSize
	}
	return &journal{size: size, known: redact.NewKnown(0)}
}

// add stores e with the next id and returns that id.
func (j *journal) add(e Exchange) int64 {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.nextID++
	e.ID = j.nextID
	if len(j.entries) < j.size {
		j.entries = append(j.entries, e)
		return e.ID
	}
	j.entries[j.start] = e
	j.start = (j.start + 1) % len(j.entries)
	return e.ID
}

// amend changes the entry of id, if the journal still holds it, and returns it as changed.
func (j *journal) amend(id int64, change func(*Exchange)) (Exchange, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	for i := range j.entries {
		if e := &j.entries[i]; e.ID == id {
			e.Violations = slices.Clone(e.Violations)
			e.Notes = slices.Clone(e.Notes) // a list written earlier may still read the old ones
			change(e)
			e.scrubbed = 0 // its new texts are scrubbed when next listed
			return *e, true
		}
	}
	return Exchange{}, false
}

// list returns the entries newest first, at most limit of them (all when limit <= 0).
func (j *journal) list(limit int) []Exchange {
	j.mu.Lock()
	defer j.mu.Unlock()
	n := len(j.entries)
	if limit > 0 && limit < n {
		n = limit
	}
	out := make([]Exchange, 0, n)
	version := j.known.Version()
	for i := len(j.entries) - 1; i >= 0 && len(out) < n; i-- {
		e := &j.entries[(j.start+i)%len(j.entries)]
		if e.scrubbed != version {
			j.scrub(e)
		}
		out = append(out, *e)
	}
	return out
}

// scrub replaces the credential values known in every text of e: its path, headers, bodies,
// violations and notes (D200).
func (j *journal) scrub(e *Exchange) {
	k := j.known
	e.scrubbed = k.Version()
	e.Path = k.Replace(e.Path)
	for _, m := range []*Message{&e.Request, &e.Response} {
		m.Headers = k.ScrubHeaders(m.Headers)
		m.Body = k.Scrub(m.Body)
	}
	if len(e.Violations) > 0 { // copies: an earlier list may still be reading the old ones
		vs := make([]Violation, len(e.Violations))
		for i, v := range e.Violations {
			v.Detail = k.Replace(v.Detail)
			vs[i] = v
		}
		e.Violations = vs
	}
	if len(e.Notes) > 0 {
		ns := make([]string, len(e.Notes))
		for i, n := range e.Notes {
			ns[i] = k.Replace(n)
		}
		e.Notes = ns
	}
}

// Exchanges returns the journal, newest first, at most limit entries (all when limit <= 0).
func (p *Proxy) Exchanges(limit int) []Exchange { return p.journal.list(limit) }

// record journals a finished exchange, redacted, and counts it for the reports: credentials
// by name (D97), then every credential value the journal has seen, this exchange's included
// (its bearer token, the strings of its bodies' credential fields; D200).
func (p *Proxy) record(ex *exchange) int64 {
	known := p.journal.known
	known.NoteHeaders(ex.reqHeader)
	known.NoteHeaders(ex.respHeader)
	if _, query, ok := strings.Cut(ex.target, "?"); ok {
		known.NoteQuery(query)
	}
	reqBody := shownBody(ex.reqHeader, ex.reqBody, ex.reqPlain)
	var respPlain []byte
	if ex.respWhole {
		respPlain = ex.respBody // decoded when it came compressed
	}
	respBody := shownBody(ex.respHeader, ex.respBody, respPlain)
	known.NoteBody(reqBody)
	if len(ex.respBody) > largeAnswer { // decoded whole, it takes several times its size: one at a time
		p.largeChecks <- struct{}{}
		known.NoteBody(ex.respBody)
		<-p.largeChecks
	} else {
		known.NoteBody(ex.respBody)
	}
	e := Exchange{
		Time:       ex.start.UTC(),
		Method:     ex.method,
		Path:       redact.BoundTarget(redact.Target(ex.target)),
		Status:     ex.status,
		DurationMS: float64(time.Since(ex.start).Microseconds()) / 1000,
		Violations: ex.violations,
		Notes:      ex.notes,
		Request:    Message{Headers: redact.Headers(redact.BoundHeaders(ex.reqHeader)), Body: redact.Body(cut(reqBody))},
		Response:   Message{Headers: redact.Headers(redact.BoundHeaders(ex.respHeader)), Body: redact.Body(cut(respBody))},
	}
	if e.Violations == nil {
		e.Violations = []Violation{}
	}
	if ex.op != nil {
		e.Operation = ex.op.ID
	}
	p.journal.scrub(&e)
	id := p.journal.add(e)
	// An exchange the upstream did not answer whole has no body to judge: its verdict is UP-1,
	// or nobody's when the client went away; it is not one judged by status and headers only.
	p.stats.add(e, id, ex.op != nil && !ex.unrouted && !ex.unanswered, ex.op == nil || ex.noWholeAnswer || (ex.respWhole && ex.reqJudged))
	p.logViolations(id, e)
	return id
}

// brokeLate adds UP-1 to an exchange already journaled (id) whose answer body, streaming past
// what was read ahead, broke off: the journal entry, while it is kept, and the reports count it
// as they count a shorter answer that broke off (D95).
func (p *Proxy) brokeLate(id int64, ex *exchange, why string) {
	v := violation(rules.UP1, why)
	e, ok := p.journal.amend(id, func(e *Exchange) {
		e.Violations = append(e.Violations, v)
		e.Notes = append(e.Notes, why)
	})
	if !ok { // pushed out of the journal already: counted all the same
		e = Exchange{ID: id, Method: ex.method, Path: redact.BoundTarget(redact.Target(ex.target)), Status: ex.status}
		if ex.op != nil {
			e.Operation = ex.op.ID
		}
	}
	p.stats.late(e, id, v, ex.op != nil && !(ex.respWhole && ex.reqJudged))
	p.logViolations(id, Exchange{ID: id, Method: e.Method, Path: e.Path, Status: e.Status, Violations: []Violation{v}})
}

// logViolations logs a deployment's violations one line per exchange. A client's are
// summarised: the first of each rule is logged, saying that later ones are only counted (the
// report and GET /__proxy/exchanges hold them all), so a suite sending invalid requests on
// purpose does not flood the log.
func (p *Proxy) logViolations(id int64, e Exchange) {
	var deployment []Violation
	for _, v := range e.Violations {
		if v.Party != Client {
			deployment = append(deployment, v)
			continue
		}
		if _, seen := p.clientRules.LoadOrStore(v.Rule, true); !seen {
			p.logger.Warn("client violation: the request breaks the contract; later ones of this rule are counted in the report, not logged",
				"id", id, "method", e.Method, "path", e.Path, "status", e.Status, "rule", v.Rule)
		}
	}
	if len(deployment) > 0 {
		p.logger.Warn("contract violation", "id", id, "method", e.Method, "path", e.Path, "status", e.Status, "rules", ruleIDs(deployment))
	}
}

// cut keeps the first maxJournalBody bytes of b.
func cut(b []byte) []byte {
	if len(b) > maxJournalBody {
		return redact.CutTail(b[:maxJournalBody]) // the cut may fall inside a credential
	}
	return b
}

// handleExchanges answers the journal as JSON, newest first; ?limit=N keeps the newest N.
func (p *Proxy) handleExchanges(w http.ResponseWriter, r *http.Request) {
	limit := 0
	if len(r.URL.Query()["limit"]) > 1 { // which one was meant is a guess, as the mock's journal says
		writeJSON(w, http.StatusUnprocessableEntity, map[string]any{
			"message": "The limit parameter is given more than once: give it once.",
			"errors":  map[string][]string{"limit": {"The limit parameter is given more than once: give it once."}},
		})
		return
	}
	if q := r.URL.Query(); q.Has("limit") && q.Get("limit") == "" {
		writeJSON(w, http.StatusUnprocessableEntity, map[string]any{
			"message": "The limit parameter is empty: give an integer of at least 1, or leave it out.",
			"errors":  map[string][]string{"limit": {"The limit parameter is empty: give an integer of at least 1, or leave it out."}},
		})
		return
	}
	if v := r.URL.Query().Get("limit"); v != "" {
		n, ok := querycheck.Limit(v)
		if !ok {
			writeJSON(w, http.StatusUnprocessableEntity, map[string]any{
				"message": "The limit must be an integer of at least 1.",
				"errors":  map[string][]string{"limit": {"The limit must be an integer of at least 1."}},
			})
			return
		}
		limit = n
	}
	writeJSON(w, http.StatusOK, map[string]any{"exchanges": p.journal.list(limit)})
}

// shownBody is what the journal keeps of a body: the body itself, or, when it came compressed
// (a Content-Encoding other than identity), the decoded bytes plain, or a placeholder when
// they were not read (an encoding the proxy does not decode, a stream broken or past the
// bound): redaction cannot read compressed bytes, so they are never kept (D97, D184).
func shownBody(h http.Header, body, plain []byte) []byte {
	enc := codings(h.Get("Content-Encoding"))
	switch {
	case enc == "" || len(body) == 0:
		return body
	case plain != nil:
		return plain
	}
	return []byte("[a body sent with Content-Encoding " + text.Clip(enc, 60) + ": not kept]")
}
