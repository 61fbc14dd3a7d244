package mockserver

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/opsapi/mocktoolkit/internal/redact"
)

// DefaultJournalSize is how many requests the journal keeps when Config.JournalSize is zero.
const DefaultJournalSize = 200

// Bounds of the journal (D64): it holds at most journalBytes in all (methods, paths, headers
// and bodies counted), each body at most maxJournalBody (cut with a marker), each header value
// at most maxJournalHeader and each request's headers at most maxJournalHeaders. The oldest
// entries go first when a new one would pass the total, so one client sending large requests
// cannot make the mock hold more, and the dashboard's polling reads a bounded amount.
const (
	journalBytes      = 8 << 20
	maxJournalBody    = 16 << 10
	maxJournalHeader  = 1 << 10
	maxJournalHeaders = 8 << 10
	maxJournalPath    = 2 << 10
	// journalEntryCost is what an entry costs besides its strings: the fixed fields and maps.
	journalEntryCost = 256
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
	b.Body = redact.Body(b.raw)
	if b.size > len(b.raw) {
		text, ok := b.Body.(string)
		if !ok {
			text = redact.Text(string(b.raw))
		}
		b.Body = text + fmt.Sprintf(" …[cut: the first %d bytes of %d or more]", len(b.raw), b.size)
	}
	b.header, b.raw = nil, nil
}

// cost is what the body holds, for the journal's byte bound.
func (b *journalBody) cost() int {
	n := len(b.raw)
	for k, vs := range b.header {
		n += len(k)
		for _, v := range vs {
			n += len(v)
		}
	}
	return n
}

// journal is a ring of the last requests to the API (not to the mock's own endpoints),
// bounded by count and by bytes.
type journal struct {
	mu      sync.Mutex
	size    int
	bytes   int // what the entries hold (cost)
	nextID  int64
	entries []*journalEntry // a queue: entries[start] is the oldest, new ones are appended
	costs   []int           // cost of entries[i]
	start   int
	counts  map[callKey]int // calls per operation and status since the last clear, never dropped (D105)
}

// callKey counts the calls of an operation that answered a status.
type callKey struct {
	operation string
	status    int
}

func newJournal(size int) *journal {
	if size <= 0 {
		size = DefaultJournalSize
	}
	return &journal{size: size, counts: map[callKey]int{}}
}

func (j *journal) add(e journalEntry) {
	cost := journalEntryCost + len(e.Method) + len(e.Path) + len(e.Operation) + e.Request.cost() + e.Response.cost()
	j.mu.Lock()
	defer j.mu.Unlock()
	j.nextID++
	e.ID = j.nextID
	if e.Operation != "" {
		j.counts[callKey{e.Operation, e.Status}]++
	}
	for len(j.entries) > 0 && (len(j.entries) >= j.size || j.bytes+cost > journalBytes) {
		j.dropOldest()
	}
	j.entries = append(j.entries, &e)
	j.costs = append(j.costs, cost)
	j.bytes += cost
}

// dropOldest removes the oldest entry.
func (j *journal) dropOldest() {
	j.bytes -= j.costs[j.start]
	j.entries[j.start] = nil
	j.start++
	if j.start == len(j.entries) || j.start > len(j.entries)/2 {
		j.entries = append([]*journalEntry(nil), j.entries[j.start:]...)
		j.costs = append([]int(nil), j.costs[j.start:]...)
		j.start = 0
	}
}

// list returns the entries newest first, at most limit of them (all when limit <= 0).
func (j *journal) list(limit int) []journalEntry {
	j.mu.Lock()
	defer j.mu.Unlock()
	n := len(j.entries) - j.start
	if limit > 0 && limit < n {
		n = limit
	}
	out := make([]journalEntry, 0, n)
	for i := len(j.entries) - 1; i >= j.start && len(out) < n; i-- {
		e := j.entries[i]
		e.Request.view()
		e.Response.view()
		out = append(out, *e)
	}
	return out
}

func (j *journal) clear() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.entries, j.costs, j.start, j.bytes = nil, nil, 0, 0
	j.counts = map[callKey]int{}
}

// count is how many calls of operation (any when "") answered a status that status matches
// since the journal was last cleared.
func (j *journal) count(operation string, status statusFilter) int {
	j.mu.Lock()
	defer j.mu.Unlock()
	n := 0
	for k, c := range j.counts {
		if (operation == "" || k.operation == operation) && status.match(k.status) {
			n += c
		}
	}
	return n
}

// withinJournalBounds tells headers the journal can keep as they are.
func withinJournalBounds(h http.Header) bool {
	n := 0
	for k, vs := range h {
		for _, v := range vs {
			if len(v) > maxJournalHeader {
				return false
			}
			n += len(k) + len(v)
		}
	}
	return n <= maxJournalHeaders
}

// journalHeader copies h for the journal within its bounds: each value cut at
// maxJournalHeader, and the headers past maxJournalHeaders in all left out (the header
// X-Mock-Journal-Cut then says how many).
func journalHeader(h http.Header) http.Header {
	if withinJournalBounds(h) {
		return h // kept as it is: nothing changes a request's or an answer's headers after it is served
	}
	out := make(http.Header, len(h))
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	room, left := maxJournalHeaders, 0
	for _, k := range keys {
		for _, v := range h[k] {
			if len(v) > maxJournalHeader {
				v = v[:maxJournalHeader] + "…[cut]"
			}
			if room < len(k)+len(v) {
				left++
				continue
			}
			room -= len(k) + len(v)
			out[k] = append(out[k], v)
		}
	}
	if left > 0 {
		out.Set("X-Mock-Journal-Cut", strconv.Itoa(left)+" header values left out")
	}
	return out
}

// journalRecorder is a statusRecorder that also keeps the first maxJournalBody bytes of an
// answer.
type journalRecorder struct {
	statusRecorder
	body []byte
	size int
}

func (rec *journalRecorder) Write(b []byte) (int, error) {
	if room := maxJournalBody - len(rec.body); room > 0 {
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
		reqBody, readErr := readUpTo(r.Body, r.ContentLength, maxJournalBody+1) // one more: was it cut?
		reqSize := len(reqBody)
		if readErr == nil && reqSize <= maxJournalBody {
			r.Body = &readAhead{Reader: bytes.NewReader(reqBody), data: reqBody, Closer: r.Body}
		} else { // cut, or broken off: the pipeline reads the rest, and meets the error itself
			r.Body = readCloser{io.MultiReader(bytes.NewReader(reqBody), r.Body), r.Body}
			reqBody = reqBody[:min(reqSize, maxJournalBody)]
		}
		rec := &journalRecorder{statusRecorder: statusRecorder{ResponseWriter: w}}
		next.ServeHTTP(rec, r)
		path := r.URL.Path // never the query: it may carry credentials
		if len(path) > maxJournalPath {
			path = path[:maxJournalPath] + "…[cut]"
		}
		e := journalEntry{
			Time: at, World: wl.name, Method: r.Method, Path: path, Status: rec.status,
			DurationMS: float64(time.Since(start).Microseconds()) / 1000,
			Request:    journalBody{header: journalHeader(r.Header), raw: reqBody, size: reqSize},
			Response:   journalBody{header: journalHeader(rec.Header()), raw: rec.body, size: rec.size},
		}
		if rt, ok := s.ops[r.URL.Path]; ok {
			e.Operation = rt.id
		}
		wl.journal.add(e)
	})
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
