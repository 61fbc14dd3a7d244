package mockserver

import (
	"bytes"
	"github.com/opsapi/mocktoolkit/reference"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// DefaultJournalSize is how many requests the journal keeps when Config.JournalSize is zero.
const DefaultJournalSize = 200

// maxJournalBody is how much of each body an entry keeps.
const maxJournalBody = 64 << 10

// journalEntry is one request and its answer, with credentials redacted (redact.go).
type journalEntry struct {
	ID         int64       `json:"id"`
	Time       time.Time   `json:"time"`
	Method     string      `json:"method"`
	Path       string      `json:"path"`
	Operation  string      `json:"operation,omitempty"`
	Status     int         `json:"status"`
	DurationMS float64     `json:"duration_ms"`
	Request    journalBody `json:"request"`
	Response   journalBody `json:"response"`
}

// journalBody is the headers and body of a request or an answer. The body is kept as sent
// (raw), and headers and body are redacted only when the journal is read: redacting on every request
// cost more than the rest of the pipeline (docs/performance.md).
type journalBody struct {
	Headers map[string]string `json:"headers"`
	Body    any               `json:"body"`
	header  http.Header
	raw     []byte
}

// journal is a ring of the last requests to the API (not to the mock's own endpoints).
type journal struct {
	mu      sync.Mutex
	size    int
	nextID  int64
	entries []journalEntry // a ring of at most size: entries[start] is the oldest
	start   int
}

func newJournal(size int) *journal {
	if size <= 0 {
		size = DefaultJournalSize
	}
	return &journal{size: size}
}

func (j *journal) add(e journalEntry) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.nextID++
	e.ID = j.nextID
	if len(j.entries) < j.size {
		j.entries = append(j.entries, e)
		return
	}
	j.entries[j.start] = e // overwrite the oldest, instead of shifting every entry
	j.start = (j.start + 1) % len(j.entries)
}

// list returns the entries newest first, at most limit of them (all when limit <= 0).
func (j *journal) list(limit int) []journalEntry {
	j.mu.Lock()
	defer j.mu.Unlock()
	n := len(j.entries)
	if limit > 0 && limit < n {
		n = limit
	}
	out := make([]journalEntry, 0, n)
	for i := len(j.entries) - 1; i >= 0 && len(out) < n; i-- {
		e := j.entries[(j.start+i)%len(j.entries)]
		e.Request.Headers, e.Response.Headers = redactHeaders(e.Request.header), redactHeaders(e.Response.header)
		e.Request.Body, e.Response.Body = redactBody(e.Request.raw), redactBody(e.Response.raw)
		out = append(out, e)
	}
	return out
}

func (j *journal) clear() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.entries, j.start = nil, 0
}

// journalRecorder is a statusRecorder that also keeps the first maxJournalBody bytes of an
// answer.
type journalRecorder struct {
	statusRecorder
	body []byte
}

func (rec *journalRecorder) Write(b []byte) (int, error) {
	if room := maxJournalBody - len(rec.body); room > 0 {
		keep := b[:min(room, len(b))]
		if rec.body == nil { // answers are written whole: one allocation of their size
			rec.body = make([]byte, 0, len(keep))
		}
		rec.body = append(rec.body, keep...)
	}
	return rec.statusRecorder.Write(b)
}

// recordRequests writes every request outside the mock's own endpoints to the journal.
func (s *Server) recordRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.isControlPath(r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		start := time.Now()
		at := s.clock.Now()
		reqBody, _ := io.ReadAll(io.LimitReader(r.Body, maxJournalBody+1))
		if len(reqBody) <= maxJournalBody {
			r.Body = &readAhead{Reader: bytes.NewReader(reqBody), data: reqBody, Closer: r.Body}
		} else {
			r.Body = readCloser{io.MultiReader(bytes.NewReader(reqBody), r.Body), r.Body}
			reqBody = reqBody[:maxJournalBody]
		}
		rec := &journalRecorder{statusRecorder: statusRecorder{ResponseWriter: w}}
		next.ServeHTTP(rec, r)
		e := journalEntry{
			Time: at, Method: r.Method, Path: r.URL.Path, Status: rec.status,
			DurationMS: float64(time.Since(start).Microseconds()) / 1000,
			Request:    journalBody{header: r.Header, raw: reqBody},
			Response:   journalBody{header: rec.Header(), raw: rec.body},
		}
		if rt, ok := s.ops[r.URL.Path]; ok {
			e.Operation = rt.id
		}
		s.steering.journal.add(e)
	})
}

// readAhead is a request body the journal has read whole: the pipeline takes data as it is
// instead of reading and copying it again (readBody).
type readAhead struct {
	*bytes.Reader
	data []byte
	io.Closer
}

// readCloser reads from one reader and closes another.
type readCloser struct {
	io.Reader
	io.Closer
}

// isControlPath tells the mock's own endpoints (never journaled, guarded by the admin token
// when under /__mock/) from the API's paths.
func (s *Server) isControlPath(path string) bool {
	return path == "/__mock" || strings.HasPrefix(path, "/__mock/") || s.controlMethods(path) != ""
}

// handleRequests answers the journal, newest first; ?limit=N keeps the newest N.
func (s *Server) handleRequests(w http.ResponseWriter, r *http.Request) {
	limit := 0
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			writeValidation(w, map[string][]string{"limit": {reference.MsgType("limit", "an integer of at least 1")}})
			return
		}
		limit = n
	}
	writeJSON(w, http.StatusOK, map[string]any{"requests": s.steering.journal.list(limit)})
}

// handleRequestsClear empties the journal.
func (s *Server) handleRequestsClear(w http.ResponseWriter, _ *http.Request) {
	s.steering.journal.clear()
	writeJSON(w, http.StatusOK, map[string]any{"requests": []journalEntry{}})
}
