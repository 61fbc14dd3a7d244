package mockserver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/opsapi/mocktoolkit/internal/text"
)

// Worlds (D100): a client picks its world with the path prefix /__worlds/<name> in front of any
// path the mock serves, or with the header X-Mock-World. Without either it is served by the
// default world.
const (
	// WorldHeader names the world of a request when its path has no /__worlds/ prefix.
	WorldHeader = "X-Mock-World"
	// WorldPrefix is the path prefix that names a world: /__worlds/<name>/services/...
	WorldPrefix = "/__worlds/"
	// DefaultWorld is the name of the world served without a prefix or header.
	DefaultWorld = "default"
	// DefaultMaxWorlds is how many named worlds the mock keeps when Config.MaxWorlds is zero.
	DefaultMaxWorlds = 64
	// maxWorldName is the longest world name.
	maxWorldName = 64
)

// errNoWorld is a request whose world cannot be served: a bad name, named worlds turned off,
// or a world that could not be built. It answers 400 shape (a) with its message.
type errNoWorld struct {
	status int // 400 when zero
	msg    string
}

func (e *errNoWorld) Error() string { return e.msg }

// registry holds the default world and up to max named worlds, the least recently used going
// first when a new one needs room (D100).
type registry struct {
	mu       sync.Mutex
	max      int
	def      *world
	named    map[string]*world
	building map[string]chan struct{} // worlds being built, closed when done (world)
	// dropped remembers why a world of each name was last dropped to make room, so the world
	// made afresh under that name says so (its notes) instead of silently losing its records.
	dropped map[string]string
	logger  *slog.Logger
}

// maxDroppedNames bounds dropped.
const maxDroppedNames = 1024

// CheckWorldName reports why name cannot name a world, or nil: 1 to 64 letters, digits, '-'
// and '_', starting with a letter or digit.
func CheckWorldName(name string) error {
	if name == "" || len(name) > maxWorldName {
		return fmt.Errorf("a world name has 1 to %d characters", maxWorldName)
	}
	for i, c := range name {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || (i > 0 && (c == '-' || c == '_'))
		if !ok {
			return fmt.Errorf("a world name has only letters, digits, '-' and '_', and starts with a letter or digit")
		}
	}
	return nil
}

// badWorldName words why name names no world. A name written %-encoded in the path
// (/__worlds/%C3%A9t%C3%A9/) is quoted as its sender wrote it before encoding, and as sent.
func badWorldName(name string, err error) string {
	if plain, uerr := url.PathUnescape(name); uerr == nil && plain != name && utf8.ValidString(plain) {
		return fmt.Sprintf("The world name %q (sent as %q) is not valid: %s.", clip(plain, 80), clip(name, 80), err)
	}
	return fmt.Sprintf("The world name %q is not valid: %s.", clip(name, 80), err)
}

// errAbsent is the answer of world(name, false) when no world of that name exists.
var errAbsent = errors.New("no such world")

// world finds the world name, creating it from the configured seed and scenario on first use
// when create is set (else errAbsent), and counts the caller's request as in flight in it
// until release (D141). A new world needs room: the least recently used idle world goes (unless
// evict is false: then a full registry makes none); when every world is busy, none is made.
// A world is built outside the registry's lock, so a slow build (a heavy scenario) holds up
// only the requests for that world; builds run a few at a time (buildSlots).
func (s *Server) world(name string, create, evict bool) (*world, error) {
	if name == "" || name == DefaultWorld {
		s.worlds.def.inflight.Add(1)
		return s.worlds.def, nil
	}
	if err := CheckWorldName(name); err != nil {
		return nil, &errNoWorld{msg: badWorldName(name, err)}
	}
	r := s.worlds
	r.mu.Lock()
	for {
		if w, ok := r.named[name]; ok {
			w.inflight.Add(1)
			r.mu.Unlock()
			return w, nil
		}
		done, building := r.building[name]
		if !building {
			break
		}
		r.mu.Unlock()
		<-done // the world is being built by another request: take it when it is there
		r.mu.Lock()
	}
	if !create {
		r.mu.Unlock()
		return nil, errAbsent
	}
	if err := r.slot(name, evict); err != nil {
		r.mu.Unlock()
		return nil, err
	}
	done := make(chan struct{})
	r.building[name] = done
	r.mu.Unlock()
	w, err := s.buildWorld(name, evict)
	if w != nil {
		w.byPage = !evict
		s.admitting.Lock() // its room and its registration in one step
		defer s.admitting.Unlock()
		if err = s.roomFor(nil, w.state().store.Size(), 0, fmt.Sprintf("The world %q", clip(name, 80)), evict); err != nil {
			w.journal.detach()
			w.flow.detach()
			w, err = nil, &errNoWorld{status: noRoomStatus, msg: err.Error() + "."}
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.building, name)
	close(done)
	if err != nil {
		return nil, err
	}
	if err := r.slot(name, evict); err != nil { // others may have taken the room meanwhile
		return nil, err
	}
	if why, ok := r.dropped[name]; ok {
		delete(r.dropped, name)
		st := *w.state()
		st.notes = append(slices.Clone(st.notes), why)
		w.cur.Store(&st)
	}
	w.inflight.Add(1)
	r.named[name] = w
	return w, nil
}

// slot makes room for one more named world, or says why there is none; r.mu is held.
func (r *registry) slot(name string, evict bool) error {
	if r.max < 0 {
		return &errNoWorld{msg: "This mock serves only its default world (it was started with --max-worlds 0)."}
	}
	for len(r.named) > 0 && len(r.named)+len(r.building) >= r.max {
		if !evict {
			return &errNoWorld{status: http.StatusServiceUnavailable, msg: fmt.Sprintf("The mock already holds %d named worlds (--max-worlds %d), and a request from a page of another site does not push out a world to make %q: reset or delete a world, or call from the mock's own site.", len(r.named), r.max, clip(name, 80))}
		}
		if !r.evictOldest(nil, fmt.Sprintf("more than --max-worlds %d named worlds", r.max)) {
			return &errNoWorld{status: http.StatusServiceUnavailable, msg: fmt.Sprintf("The mock already holds %d named worlds (--max-worlds %d) and every one is busy with a request, so the world %q cannot be made now: try again in a moment, or start the mock with a larger --max-worlds.", len(r.named), r.max, clip(name, 80))}
		}
	}
	return nil
}

// buildWorld builds the named world from the configured seed and scenario, a few builds at a
// time; its caller makes room for its records under --max-state-mb (D206) as it registers it.
func (s *Server) buildWorld(name string, evict bool) (*world, error) {
	s.buildSlots <- struct{}{}
	w, err := s.newWorld(name, Source{Seed: s.cfg.Seed, Scenario: s.cfg.Scenario}, s.base.Now())
	<-s.buildSlots
	if err != nil {
		s.logger.Error("create world", "world", name, "err", err)
		return nil, &errNoWorld{msg: fmt.Sprintf("The world %q could not be created: %s.", name, err)}
	}
	return w, nil
}

// evictOldest drops the least recently used named world that no request is using, other than
// keep, and reports whether there was one (D141: a busy world is never dropped, so no
// acknowledged write is lost with it). Worlds a page of another site made go before any other
// (D213): a page that keeps its own worlds in use does not push out the test workers'.
func (r *registry) evictOldest(keep *world, why string) bool {
	var oldest *world
	for _, w := range r.named {
		if w == keep || w.inflight.Load() > 0 {
			continue
		}
		if oldest == nil || (w.byPage && !oldest.byPage) || (w.byPage == oldest.byPage && w.lastUsed.Load() < oldest.lastUsed.Load()) {
			oldest = w
		}
	}
	if oldest == nil {
		return false
	}
	r.forget(oldest)
	at := time.Now().UTC().Format(time.RFC3339)
	r.logger.Warn("world dropped to make room", "world", oldest.name, "why", why)
	if len(r.dropped) >= maxDroppedNames {
		clear(r.dropped)
	}
	r.dropped[oldest.name] = fmt.Sprintf("a world of this name was dropped at %s to make room (%s), its records with it; this one was made afresh", at, why)
	return true
}

// reclaimFlow has the flow of the least recently used idle world, other than asking's, give its
// calls up to the flow budget (flowBudget.take, D173), and reports whether one did.
func (r *registry) reclaimFlow(asking *flowLog) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	worlds := append(make([]*world, 0, len(r.named)+1), r.def)
	for _, w := range r.named {
		worlds = append(worlds, w)
	}
	slices.SortFunc(worlds, func(a, b *world) int { return cmp.Compare(a.lastUsed.Load(), b.lastUsed.Load()) })
	for _, w := range worlds {
		if w.flow != asking && w.inflight.Load() == 0 && w.flow.giveUp() {
			return true
		}
	}
	return false
}

// forget drops w from the named worlds (eviction, DELETE /__mock/worlds); r.mu is held.
func (r *registry) forget(w *world) {
	delete(r.named, w.name)
	w.journal.detach()
	w.flow.detach() // gives its bytes back to the flows' budget (D173)
}

// all lists the default world, then the named ones by name.
func (r *registry) all() []*world {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]*world, 0, len(r.named)+1)
	for _, w := range r.named {
		out = append(out, w)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return append([]*world{r.def}, out...)
}

// lookup finds an existing world without creating it.
func (r *registry) lookup(name string) (*world, bool) {
	if name == "" || name == DefaultWorld {
		return r.def, true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	w, ok := r.named[name]
	return w, ok
}

type worldKey struct{}

// bound is the world of a request, or why it has none.
type bound struct {
	w   *world
	err error
	// pending is set when a control that changes the world names one not there yet: the
	// world is made once the control has checked its body (worldToChange).
	pending *pendingWorld
}

// pendingWorld is a world a control that changes it (reset, clock, a fault rule, a snapshot)
// makes only once its body is checked (D141): a refused one makes no world and pushes none out.
type pendingWorld struct {
	name  string
	evict bool
	w     *world // made, held in flight until the request ends
}

// splitWorld takes the /__worlds/<name> prefix off an escaped path: the name, the escaped path
// the mock serves, and whether there was a prefix.
func splitWorld(path string) (name, rest string, ok bool) {
	tail, found := strings.CutPrefix(path, WorldPrefix)
	if !found {
		return "", path, false
	}
	name, rest, _ = strings.Cut(tail, "/")
	return name, "/" + rest, true
}

// bindWorld binds the request's world once, before anything else reads the path (D100): the
// /__worlds/<name> prefix is taken off the path (read from the path as sent, so an escaped
// '/' stays in the name, D146), the X-Mock-World header read, and the world created on first
// use, only by a request the mock admits (D141, mayCreateWorld). A request whose world cannot
// be served is answered by dispatch.
func (s *Server) bindWorld(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, path, prefixed := splitWorld(r.URL.EscapedPath())
		header := r.Header.Get(WorldHeader)
		// A header sent blank is an unset variable, most likely: not the default world.
		blank := len(r.Header.Values(WorldHeader)) > 0 && strings.TrimSpace(header) == ""
		if !prefixed && header == "" && !blank { // the default world: worldOf falls back to it unbound
			def := s.worlds.def
			def.touch()
			def.requests.Add(1)
			next.ServeHTTP(w, r)
			return
		}
		r2 := r
		if prefixed {
			u := *r.URL
			u.Path, u.RawPath = path, ""
			if p, err := url.PathUnescape(path); err == nil {
				u.Path = p
			}
			r2 = r.WithContext(r.Context())
			r2.URL = &u
		}
		b := bound{}
		if blank && !prefixed {
			b.err = &errNoWorld{msg: fmt.Sprintf("The %s header is empty: name a world, or leave the header out for the default world.", WorldHeader)}
		}
		if n := len(r.Header.Values(WorldHeader)); b.err == nil && n > 1 {
			b.err = &errNoWorld{msg: fmt.Sprintf("The %s header is given %d times: send it once.", WorldHeader, n)}
		}
		if b.err == nil && header != "" {
			if prefixed && header != name {
				b.err = &errNoWorld{msg: fmt.Sprintf("The path names world %q and the %s header names %q: use one.", clip(name, 80), WorldHeader, clip(header, 80))}
			}
			if !prefixed {
				name = header
			}
		}
		if b.err == nil && name != DefaultWorld {
			if err := CheckWorldName(name); err != nil {
				b.err = &errNoWorld{msg: badWorldName(name, err)}
			}
		}
		if b.err == nil {
			var answered bool
			if b, answered = s.bindNamed(w, r2, name); answered {
				return
			}
		}
		if b.w != nil {
			defer b.w.release()
			b.w.touch()
			b.w.requests.Add(1)
		}
		if p := b.pending; p != nil {
			defer func() {
				if p.w != nil {
					p.w.release()
				}
			}()
		}
		next.ServeHTTP(w, r2.WithContext(context.WithValue(r2.Context(), worldKey{}, b)))
	})
}

// bindNamed finds the world name, or makes it for a request the mock admits that reaches an
// operation or a control (D141, D185): a path that leads nowhere (an unknown path, dot
// segments) answers 404 and makes no world. answered tells that mayCreateWorld answered r.
func (s *Server) bindNamed(w http.ResponseWriter, r *http.Request, name string) (b bound, answered bool) {
	b.w, b.err = s.world(name, false, false)
	if b.err != errAbsent { // admission is decided before any world is made (D141)
		return b, false
	}
	if isPreflight(r) || serverWide[getOrHead(r)+" "+r.URL.Path] {
		// The browser's question before a page's call, not the call, and the answers that are
		// the same in every world: they make no world (D141, D213).
		return bound{err: errAbsent}, false
	}
	if !s.reaches(r) {
		return bound{err: &errNoWorld{status: http.StatusNotFound, msg: fmt.Sprintf("The world %q does not exist, and only a POST to one of the API's operations or a request to the mock's own endpoints makes one; %s %s is neither.", clip(name, 80), r.Method, clip(r.URL.Path, 100))}}, false
	}
	if worldless[getOrHead(r)+" "+r.URL.Path] {
		return bound{}, false // the server's list of worlds: no world is needed, or made
	}
	if _, control := s.ctrl[getOrHead(r)+" "+r.URL.Path]; control {
		if msg := controlQueryProblem(getOrHead(r), r); msg != "" { // a refused control makes no world
			return bound{err: &errNoWorld{status: http.StatusBadRequest, msg: msg}}, false
		}
		if worldReads[getOrHead(r)+" "+r.URL.Path] {
			// A read or a clear of a world that is not there (never made, or dropped) says so:
			// made afresh it would answer "never called" or an empty flow, and push out another.
			return bound{err: &errNoWorld{status: http.StatusNotFound, msg: s.noSuchWorld(name)}}, false
		}
	}
	if !s.mayCreateWorld(w, r, name) {
		return b, true
	}
	if worldChanges[getOrHead(r)+" "+r.URL.Path] {
		return bound{pending: &pendingWorld{name: name, evict: s.mayEvict(r)}}, false
	}
	// A page of another site may make a world while there is room, never by pushing out
	// another, unless --cors-origins names its origin: a few dozen fetches from any site would
	// otherwise wipe every worker's world.
	b.w, b.err = s.world(name, true, s.mayEvict(r))
	return b, false
}

// worldReads are the controls that read or clear what a world has recorded or holds (its
// journal, flow, snapshot and fault rules): asked of a world not there, they make none (D141),
// since a world made afresh would answer for one dropped with its records ("never called", an
// empty flow). The fixture manifest, the clock and the dashboard do make one: they are how a
// test worker or a person starts with a world.
var worldReads = map[string]bool{
	"GET /__mock/requests": true, "GET /__mock/requests/count": true, "DELETE /__mock/requests": true,
	"GET /__mock/faults": true, "DELETE /__mock/faults": true,
	"GET /__mock/state": true, "GET /__mock/flow": true,
}

// worldless are the controls of the server's worlds themselves (list, forget): asked under the
// prefix of a world not there, they act as without it, behind the same guards, and make none.
var worldless = map[string]bool{"GET /__mock/worlds": true, "DELETE /__mock/worlds": true}

// worldChanges are the controls that change a world from a body they check first: they make a
// world not there yet only once the body is taken (worldToChange), never for a refused one.
var worldChanges = map[string]bool{"POST /__mock/reset": true, "POST /__mock/clock": true, "POST /__mock/faults": true, "PUT /__mock/state": true}

// noSuchWorld words the answer to a read of a world the mock does not hold, saying when and
// why a world of that name was dropped, when one was.
func (s *Server) noSuchWorld(name string) string {
	s.worlds.mu.Lock()
	why := s.worlds.dropped[name]
	s.worlds.mu.Unlock()
	if why != "" {
		why = " (" + strings.TrimSuffix(why, "; this one was made afresh") + ")"
	} else {
		why = " (never made, or dropped to make room)"
	}
	return fmt.Sprintf("The mock holds no world named %q%s; GET /__mock/worlds lists them, and a reset or an API call through its prefix makes it.", clip(name, 80), why)
}

// worldToChange is the world a control changes: the request's, made now when the request
// named a world not there yet (pendingWorld). When it cannot be made, the answer is written
// and ok is false.
func (s *Server) worldToChange(w http.ResponseWriter, r *http.Request) (*world, bool) {
	b, _ := r.Context().Value(worldKey{}).(bound)
	p := b.pending
	if p == nil || p.w != nil {
		return s.worldOf(r), true
	}
	wl, err := s.world(p.name, true, p.evict)
	if err != nil {
		writeNoWorld(w, err)
		return nil, false
	}
	p.w = wl
	wl.touch()
	wl.requests.Add(1)
	wl.clock.stampDate(w.Header())
	return wl, true
}

// writeNoWorld answers a request whose world cannot be served: 400 shape (a) unless the error
// says otherwise (404 for one not there, 503 with Retry-After when every world is busy).
func writeNoWorld(w http.ResponseWriter, err error) {
	status := http.StatusBadRequest
	if e, ok := err.(*errNoWorld); ok && e.status != 0 {
		status = e.status
	}
	if status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "1")
	}
	writeShapeA(w, status, err.Error())
}

// mayEvict tells whether r may push out an idle world to make room: any request but one from
// a page of another site whose origin --cors-origins does not name (D141, D206).
func (s *Server) mayEvict(r *http.Request) bool {
	return !fromAnotherSite(r) || s.corsListed(r.Header.Get("Origin"))
}

// isPreflight tells whether r is a CORS preflight.
func isPreflight(r *http.Request) bool {
	return r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != ""
}

// reaches tells whether r, its world prefix taken off, would be served by an operation (a POST)
// or a control of the mock: only such a request makes a world.
func (s *Server) reaches(r *http.Request) bool {
	if _, ok := s.ops[r.URL.Path]; ok {
		return r.Method == http.MethodPost
	}
	_, ok := s.ctrl[r.Method+" "+r.URL.Path]
	return ok
}

// serverWide are the mock's answers that are the same in every world: asked under a world that
// does not exist, they are answered without making it (D213), so a health probe or a fetch of
// the document never pushes out a test worker's world.
var serverWide = map[string]bool{"GET /healthz": true, "GET /favicon.ico": true, "GET /openapi.json": true, "GET /openapi.yaml": true}

// getOrHead is r's method, HEAD read as GET (HEAD is GET without the body).
func getOrHead(r *http.Request) string {
	if r.Method == http.MethodHead {
		return http.MethodGet
	}
	return r.Method
}

// worldOf is the world bound to r (the default world when none was bound, as in handlers
// called directly).
func (s *Server) worldOf(r *http.Request) *world {
	b, _ := r.Context().Value(worldKey{}).(bound)
	switch {
	case b.w != nil:
		return b.w
	case b.pending != nil && b.pending.w != nil:
		return b.pending.w
	}
	return s.worlds.def
}

// pendingFor tells whether r names a world its control makes only once its body is checked,
// not made yet: until worldToChange, r has no world of its own.
func pendingFor(r *http.Request) bool {
	b, _ := r.Context().Value(worldKey{}).(bound)
	return b.pending != nil && b.pending.w == nil
}

// worldError is why r has no world, or nil.
func worldError(r *http.Request) error {
	b, _ := r.Context().Value(worldKey{}).(bound)
	var e *errNoWorld
	if errors.As(b.err, &e) {
		return e
	}
	return b.err
}

// worldInfo is one row of GET /__mock/worlds.
type worldInfo struct {
	Name     string    `json:"name"`
	Scenario string    `json:"scenario"`
	Seed     int64     `json:"seed"`
	Snapshot bool      `json:"snapshot"`
	Created  time.Time `json:"created"`
	LastUsed time.Time `json:"last_used"`
	Requests int64     `json:"requests"`
	Now      string    `json:"now"`
	Frozen   bool      `json:"frozen"`
	Notes    []string  `json:"notes"`
	// RecordsBytes is about how much memory its records take, as --max-state-mb counts it.
	RecordsBytes int64 `json:"records_bytes"`
}

func (w *world) info() worldInfo {
	st := w.state()
	src := st.source
	notes := st.notes
	if notes == nil {
		notes = []string{}
	}
	return worldInfo{
		Name: w.name, Scenario: src.Scenario, Seed: src.Seed, Snapshot: src.Snapshot,
		Created: w.created, LastUsed: time.Unix(0, w.lastUsed.Load()).UTC(),
		Requests: w.requests.Load(), Now: w.clockNow(), Frozen: w.clock.Frozen(), Notes: notes,
		RecordsBytes: st.store.Size(),
	}
}

// handleWorlds lists every world the mock holds.
func (s *Server) handleWorlds(w http.ResponseWriter, _ *http.Request) {
	all := s.worlds.all()
	rows := make([]worldInfo, len(all))
	for i, wl := range all {
		rows[i] = wl.info()
	}
	writeJSON(w, http.StatusOK, map[string]any{"worlds": rows, "max_worlds": s.worlds.max, "max_state_bytes": s.stateLimit()})
}

// clip shortens a value quoted in a message to about n bytes (text.Clip).
func clip(s string, n int) string { return text.Clip(s, n) }

// handleWorldDelete forgets the named world of ?name= (a test worker's teardown); its tokens
// and records go with it, and its next use builds it afresh. The default world is never
// forgotten: it is reset to the configured seed and scenario instead (D100, D147).
func (s *Server) handleWorldDelete(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Query().Get("name")
	switch {
	case len(r.URL.Query()["name"]) > 1:
		writeValidation(w, map[string][]string{"name": {"The name field is given more than once: delete one world at a time."}})
		return
	case name == "":
		writeValidation(w, map[string][]string{"name": {"The name field is required: give the world to delete as ?name=."}})
		return
	case name == DefaultWorld:
		def, src := s.worlds.def, Source{Seed: s.cfg.Seed, Scenario: s.cfg.Scenario}
		if err := s.resetWorld(def, src); err != nil {
			s.writeResetError(w, def, src, err)
			return
		}
		s.logins.clearClient(clientAddr(r))
		writeJSON(w, http.StatusOK, map[string]any{"reset": DefaultWorld})
		return
	}
	switch busy, ok := s.forgetWhenIdle(r, name); {
	case !ok:
		writeShapeA(w, http.StatusNotFound, s.noSuchWorld(name))
	case busy > 0:
		writeShapeA(w, http.StatusConflict, fmt.Sprintf("The world %q is still busy with %d request(s) after %s: it was not deleted; try again when they have finished.", clip(name, 80), busy, deleteWait))
	default:
		writeJSON(w, http.StatusOK, map[string]any{"deleted": name})
	}
}

// deleteWait bounds how long DELETE /__mock/worlds waits for a world's requests (D186).
const deleteWait = 10 * time.Second

// forgetWhenIdle drops the named world once no request but r is being served in it, waiting up
// to deleteWait (D186): a request in flight, such as a create in its latency fault, finishes
// in its world and its answer holds. ok is false when there is no such world; busy is how many
// requests still ran at the deadline (the world then stays).
func (s *Server) forgetWhenIdle(r *http.Request, name string) (busy int64, ok bool) {
	reg := s.worlds
	deadline := time.Now().Add(deleteWait)
	for {
		reg.mu.Lock()
		wl, found := reg.named[name]
		if found {
			busy = wl.inflight.Load()
			if s.worldOf(r) == wl {
				busy-- // the delete itself, sent in the world it deletes
			}
			if busy <= 0 {
				reg.forget(wl)
			}
		}
		reg.mu.Unlock()
		if !found || busy <= 0 || time.Now().After(deadline) || r.Context().Err() != nil {
			return max(busy, 0), found
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// mayCreateWorld decides, before a world is looked up for creation, whether r may bring the
// world name into being (D141): making a world (and perhaps evicting another) is a change to
// the mock, so it takes a request the mock admits. The mock's own endpoints keep their guards
// (Host, Origin, admin token); any request must also come under a Host the host policy allows,
// from no foreign Origin the CORS policy refuses, and not be a page's no-CORS load from another
// site (an <img>, <script>, <form> or navigation: Sec-Fetch-Site and Sec-Fetch-Mode say so; a
// page of the same site, such as the app under test on another port of localhost, may link).
// A refused request is answered 403 shape (b) and no world is made.
func (s *Server) mayCreateWorld(w http.ResponseWriter, r *http.Request, name string) bool {
	if strings.HasPrefix(r.URL.Path, "/__mock") && !(s.hostAllowed(w, r) && s.admitted(w, r)) {
		return false
	}
	why := s.steering.hosts.Refuses(r, "New worlds are made only under")
	origin := r.Header.Get("Origin")
	switch {
	case why != "":
	case origin != "" && origin != "http://"+r.Host && origin != "https://"+r.Host && !s.corsAllows(origin):
		why = "New worlds are made only by requests from the mock's own pages and the origins of --cors-origins; the origin " + strconv.Quote(clip(origin, 100)) + " is not one of them."
	case crossSite(r) && r.Header.Get("Sec-Fetch-Mode") != "cors":
		why = "A page of another site loading this address without CORS (an image, a script, a form) does not make a world; call it with fetch or XMLHttpRequest."
	}
	if why == "" {
		return true
	}
	if s.spendUnbound(w, r) {
		writeShapeB(w, http.StatusForbidden, "The world "+strconv.Quote(clip(name, 80))+" does not exist and this request may not make it. "+why)
	}
	return false
}

// corsListed tells whether --cors-origins names origin itself (not only by *).
func (s *Server) corsListed(origin string) bool {
	origin = strings.TrimRight(origin, "/")
	for _, o := range s.cfg.CORSOrigins {
		if o != "*" && strings.EqualFold(strings.TrimRight(o, "/"), origin) && origin != "" {
			return true
		}
	}
	return false
}

// corsAllows tells whether the API answers origin (any, by default, D103).
func (s *Server) corsAllows(origin string) bool {
	allow, _ := s.steering.cors.allowOrigin(strings.TrimRight(origin, "/"), false)
	return allow != ""
}
