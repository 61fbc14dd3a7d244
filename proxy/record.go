package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/opsapi/mocktoolkit/conformance/check"
	"github.com/opsapi/mocktoolkit/internal/jsonwords"
	"github.com/opsapi/mocktoolkit/internal/redact"
	"github.com/opsapi/mocktoolkit/internal/text"
	"github.com/opsapi/mocktoolkit/spec"
)

// ScenarioRecorder stands in front of a Proxy (or any handler) and keeps the records the
// upstream's successful answers show — boards, groups, tags, cards, comments — to write them
// at stop as a scenario the mock starts from (mockserver --scenario FILE; D174, D175).
type ScenarioRecorder struct {
	next    http.Handler
	ops     map[string]bool // the interface's paths
	maxBody int64

	mu        sync.Mutex
	seen      map[string]map[int64]map[string]any // kind → id → the record's fields, later answers winning
	names     map[string]bool                     // personal names the answers showed (login results)
	carts     []map[string]any                    // carts in the order first seen (never written with their tokens)
	cartAt    map[string]int                      // a cart's session token → its place in carts
	secrets   *redact.Known                       // credentials seen in requests and answers (D196)
	notes     map[string]bool                     // records left out as seen (D197), at most maxNotes
	notesOver int                                 // notes past maxNotes, counted only
	kept      int                                 // records in seen, every kind
	over      int                                 // records left out past maxRecorded
	// The records left out, named and counted in the log (D197): as seen, by reason and by kind,
	// with the names of those already counted; and, after WriteScenario, those the file could
	// not hold.
	left        map[string]*leftOutReason
	leftKinds   map[string]int
	leftIDs     map[string]bool
	fileLeft    map[string]int
	fileCounted int
	// world is the mock world (X-Mock-World) whose answers the recording keeps, the first it
	// saw ("" for the deployment's own); worlds hold records of the same ids, which merged
	// into one scenario would overwrite each other.
	world     string
	worldSeen bool
	// The recording starts over at a rebuild of its world (record_rebuild.go, D174): the
	// world's X-Mock-World-Build last answered and those left behind, how many times it
	// restarted, why the last time, and how many records the restarts dropped.
	build          string
	pastBuilds     map[string]bool
	restarts       int
	restartWhy     string
	restartDropped int

	held    atomic.Int64 // answer bytes held by every exchange at once, at most heldMax
	heldMax int64        // maxRecordingHeld
	reading sync.Mutex   // one answer's JSON decoded at a time
}

// maxNotes bounds the distinct notes a recording keeps for its log: each world name and each
// bad id makes one, and a client sending thousands would grow the recorder and its log.
const maxNotes = 100

// note keeps a note for the log, counting those past maxNotes; r.mu is held.
func (r *ScenarioRecorder) note(s string) {
	if !r.notes[s] && len(r.notes) >= maxNotes {
		r.notesOver++
		return
	}
	r.notes[s] = true
}

// maxRecorded bounds the records a recording keeps: a scenario is a world a mock builds for a
// screen, and each record costs memory now and time at stop (60 000 cards took 12 s to write
// and check; 600 000 took gigabytes). Records past it are counted in the log, not kept.
const maxRecorded = 50_000

// recordKinds maps the keys of an answer's data to the scenario's record lists.
var recordKinds = map[string]string{
	"boards": "boards", "board": "boards", "groups": "groups", "group": "groups",
	"tags": "tags", "tag": "tags", "cards": "cards", "card": "cards",
	"comments": "comments", "comment": "comments",
}

// NewScenarioRecorder returns a recorder in front of next.
func NewScenarioRecorder(next http.Handler) (*ScenarioRecorder, error) {
	doc, err := spec.Load(context.Background())
	if err != nil {
		return nil, fmt.Errorf("new scenario recorder: %w", err)
	}
	r := &ScenarioRecorder{next: next, ops: map[string]bool{}, maxBody: DefaultMaxBody, seen: map[string]map[int64]map[string]any{}, names: map[string]bool{}, cartAt: map[string]int{}, secrets: redact.NewKnown(recordedSecrets), notes: map[string]bool{}, heldMax: maxRecordingHeld, pastBuilds: map[string]bool{},
		left: map[string]*leftOutReason{}, leftKinds: map[string]int{}, leftIDs: map[string]bool{}}
	for _, op := range spec.Operations(doc) {
		r.ops[op.Path] = true
	}
	return r, nil
}

// ServeHTTP passes the exchange through and notes what a successful JSON answer of one of the
// interface's operations shows.
func (r *ScenarioRecorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodPost || !r.ops[req.URL.Path] {
		if isControl(req.URL.Path) { // a reset of the recorded world starts it over (D174)
			w = &controlWriter{ResponseWriter: w, r: r, req: req}
		}
		r.next.ServeHTTP(w, req)
		return
	}
	reqBody := r.noteRequestSecrets(req)
	tee := &teeWriter{ResponseWriter: w, limit: maxRecordedAnswer, held: &r.held, heldMax: r.heldMax}
	defer tee.release()
	r.next.ServeHTTP(tee, req)
	if tee.status < 200 || tee.status > 299 {
		return
	}
	if tee.over || tee.busy {
		note := fmt.Sprintf("an answer of %s over %d MiB was not recorded: its records are not in the file", req.URL.Path, maxRecordedAnswer>>20)
		if tee.busy {
			note = fmt.Sprintf("an answer of %s was not recorded: the recorder held %d MiB of answers at once, the most it holds; its records are not in the file", req.URL.Path, r.heldMax>>20)
		}
		r.mu.Lock()
		r.note(note)
		r.mu.Unlock()
		return
	}
	// One answer is read at a time: its JSON takes several times its bytes while decoded.
	r.reading.Lock()
	defer r.reading.Unlock()
	body, why, _ := decodeBody(w.Header(), tee.body.Bytes(), maxRecordedAnswer)
	if why != "" { // an encoding the checks cannot read either
		r.mu.Lock()
		r.note("an answer of " + req.URL.Path + " was not recorded: " + why)
		r.mu.Unlock()
		return
	}
	if decodedCostOver(body, maxDecodedAnswer) { // an answer of many tiny values (D95)
		r.mu.Lock()
		r.note(fmt.Sprintf("an answer of %s was not recorded: it holds so many JSON objects and values that reading its records would take more than %d MiB of memory, the most the recorder spends on one answer; its records are not in the file", req.URL.Path, maxDecodedAnswer>>20))
		r.mu.Unlock()
		return
	}
	var answer struct {
		Error any `json:"error"`
		Data  any `json:"data"`
	}
	if err := json.Unmarshal(body, &answer); err != nil {
		r.mu.Lock()
		r.note(fmt.Sprintf("an answer of %s was not recorded: %s", req.URL.Path, unreadableAnswer(err)))
		r.mu.Unlock()
		return
	}
	r.secrets.NoteValue(answer.Data)
	if !r.sameWorld(req.Header.Get(check.WorldHeader)) || !r.answerBuild(req, w.Header()) {
		return
	}
	if r.observe(answer.Data) > 0 {
		answer.Data = nil // the ids past 2^53-1 are named from the answer's text, read again
		r.nameInexactIDs(body)
	}
	if answer.Error != true {
		r.noteDelete(req.URL.Path, reqBody)
	}
}

// sameWorld tells whether an answer of world is one the recording keeps: the first world it
// saw; another's are left out with a note.
func (r *ScenarioRecorder) sameWorld(world string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.worldSeen {
		r.world, r.worldSeen = world, true
	}
	if world == r.world {
		return true
	}
	kept := "the deployment's own"
	if r.world != "" {
		kept = fmt.Sprintf("world %q", text.Clip(r.world, 80))
	}
	r.note(fmt.Sprintf("answers of mock world %q left out: a recording keeps one world's records, %s (the first it saw), since worlds hold records of the same ids", text.Clip(world, 80), kept))
	return false
}

// observe keeps the records under data's keys, and the names of login results. It returns how
// many records it left out for an id past 2^53-1 either way, which it does not name: decoded,
// such an id is already another one, so the caller names them from the answer's text
// (nameInexactIDs).
func (r *ScenarioRecorder) observe(data any) (inexact int) {
	obj, ok := data.(map[string]any)
	if !ok {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if name, ok := obj["name"].(string); ok && obj["token"] != nil && name != "" {
		r.names[name] = true
	}
	if cart, ok := obj["cart"].(map[string]any); ok {
		r.keepCart(cart)
	}
	for key, v := range obj {
		kind, ok := recordKinds[key]
		if !ok {
			continue
		}
		switch x := v.(type) {
		case map[string]any:
			if !r.keep(kind, x) {
				inexact++
			}
		case []any:
			for _, e := range x {
				if rec, ok := e.(map[string]any); ok && !r.keep(kind, rec) {
					inexact++
				}
			}
		}
	}
	return inexact
}

// keep merges one record into what was seen; master records stay out (the scenario's lists
// are of the member's project). A record whose id is not one is left out, named in the log by
// its id (D197), except one whose id is past 2^53-1 either way: keep returns false for it,
// unnamed, since its decoded id is already another (observe's caller names it).
func (r *ScenarioRecorder) keep(kind string, rec map[string]any) bool {
	id, ok := intField(rec, "id")
	f, isNum := rec["id"].(float64)
	switch {
	case isNum && pastExact(f):
		return false
	case isNum && (!ok || id < 1):
		r.leaveOut(kind, badIDReason(kind), fmt.Sprintf("%s %v", kind, f), true)
	case !isNum:
		raw, _ := json.Marshal(rec["id"])
		if r := []rune(string(raw)); len(r) > 40 {
			raw = []byte(string(r[:40]) + "…")
		}
		r.leaveOut(kind, badIDReason(kind), kind+" "+string(raw), rec["id"] != nil) // records with no id are told apart by none
	}
	if !ok || id < 1 {
		return true
	}
	if master, _ := rec["is_master"].(bool); master {
		return true
	}
	if r.seen[kind] == nil {
		r.seen[kind] = map[int64]map[string]any{}
	}
	old := r.seen[kind][id]
	if old == nil {
		if r.kept >= maxRecorded {
			r.over++
			r.leftKinds[kind]++
			return true
		}
		r.kept++
		old = map[string]any{}
		r.seen[kind][id] = old
	}
	for k, v := range rec {
		old[k] = v
	}
	return true
}

// keepCart keeps a cart as its latest answer showed it, by its session token.
func (r *ScenarioRecorder) keepCart(cart map[string]any) {
	token, _ := cart["session_token"].(string)
	if token == "" {
		return
	}
	if i, ok := r.cartAt[token]; ok {
		r.carts[i] = cart
		return
	}
	if r.kept >= maxRecorded {
		r.over++
		r.leftKinds["carts"]++
		return
	}
	r.kept++
	r.cartAt[token] = len(r.carts)
	r.carts = append(r.carts, cart)
}

// maxRecordedAnswer bounds the answer the recorder reads for records: far past the proxy's
// checks (a project of tens of thousands of cards answers cards/list in tens of MiB), since the
// recording is what a team takes from staging.
const maxRecordedAnswer = 64 << 20

// maxRecordingHeld bounds the answer bytes the recorder holds at once over every exchange (as
// D95 bounds the checks'): 40 clients of endless answers took the proxy to 2.6 GB, each held up
// to maxRecordedAnswer. An answer that would pass it streams through unrecorded, with a note.
const maxRecordingHeld = 2 * maxRecordedAnswer

// unreadableAnswer words why an answer's JSON could not be read for the recording: every record
// in it is left out, so the log says why.
func unreadableAnswer(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && strings.HasPrefix(te.Value, "number") {
		return "it " + check.NumberPastRange(strings.TrimPrefix(te.Value, "number ")) + ", so none of its records are in the file"
	}
	return "it is not JSON (" + jsonwords.Syntax(err) + "), so none of its records are in the file"
}

// maxExactInt is the largest integer JSON's numbers (float64) hold exactly: a larger id read
// from an answer may already be another one, so it is never kept (D197).
const maxExactInt = 1<<53 - 1

func intField(rec map[string]any, key string) (int64, bool) {
	f, ok := rec[key].(float64)
	return int64(f), ok && f == float64(int64(f)) && f >= -maxExactInt && f <= maxExactInt
}

// teeWriter passes an answer through and keeps its status and up to limit bytes of its body.
type teeWriter struct {
	http.ResponseWriter
	status  int
	body    bytes.Buffer
	limit   int64
	over    bool          // the answer passed limit
	busy    bool          // the answer would have passed heldMax with the others' bytes
	held    *atomic.Int64 // the bytes every teeWriter of the recorder holds
	heldMax int64
	counts  int64 // this one's part of held
}

// release gives back the bytes the writer holds, keeping none.
func (t *teeWriter) release() {
	t.held.Add(-t.counts)
	t.counts = 0
	t.body = bytes.Buffer{}
}

func (t *teeWriter) WriteHeader(code int) {
	if t.status == 0 {
		t.status = code
	}
	t.ResponseWriter.WriteHeader(code)
}

func (t *teeWriter) Write(b []byte) (int, error) {
	if t.status == 0 {
		t.status = http.StatusOK
	}
	switch {
	case t.over || t.busy:
	case int64(t.body.Len()+len(b)) > t.limit:
		t.over = true
		t.release()
	case t.held.Add(int64(len(b))) > t.heldMax:
		t.held.Add(-int64(len(b)))
		t.busy = true
		t.release()
	default:
		t.counts += int64(len(b))
		t.body.Write(b)
	}
	return t.ResponseWriter.Write(b)
}

// Flush lets streamed answers through.
func (t *teeWriter) Flush() {
	if f, ok := t.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (t *teeWriter) Unwrap() http.ResponseWriter { return t.ResponseWriter }
