package mockserver

import (
	"cmp"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
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
	// dropped remembers why a world of each name last went (dropped to make room, deleted), so
	// a read of it and the world made afresh under that name say so instead of silently losing
	// its records.
	dropped map[string]string
	logger  *slog.Logger
}

// maxDroppedNames bounds dropped.
const maxDroppedNames = 1024

// CheckWorldName reports why name cannot name a world, or nil: 1 to 64 letters, digits, '-'
// and '_', starting with a letter or digit, and not "default" in other letters.
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
	if name != DefaultWorld && strings.EqualFold(name, DefaultWorld) {
		// World names are read as written ("a" and "A" are two worlds); one that is the
		// default's in other letters would be a second world its sender took for the default.
		return fmt.Errorf("a world name differing from %q only in case is not one: the default world is %q, in small letters", DefaultWorld, DefaultWorld)
	}
	return nil
}

// badWorldName words why name names no world. A name written %-encoded in the path
// (/__worlds/%C3%A9t%C3%A9/) is quoted as its sender wrote it before encoding, and as sent.
func badWorldName(name string, err error) string {
	if plain, uerr := url.PathUnescape(name); uerr == nil && plain != name && utf8.ValidString(plain) {
		if CheckWorldName(plain) == nil {
			return fmt.Sprintf("The world name %q is sent with %%-escapes; a world name is read as sent, without unescaping: send %q.", clip(name, 80), clip(plain, 80))
		}
		return fmt.Sprintf("The world name %q (%q escaped) is not valid: %s.", clip(plain, 80), clip(name, 80), err)
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
	return s.makeWorld(name, create, evict, false)
}

// makeWorld is world; with lazyRoom, a new world's records are only checked to fit once idle
// worlds are dropped, and none is dropped for them: a control making its world (a reset, a
// snapshot: worldToChange) makes its own room for what it puts there, and is refused before it
// pushes out any world when that does not fit (D141, D206).
func (s *Server) makeWorld(name string, create, evict, lazyRoom bool) (*world, error) {
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
		room := s.roomFor
		if lazyRoom {
			room = s.roomIfDropped
		}
		if err = room(nil, w.state().store.Size(), 0, fmt.Sprintf("The world %q", clip(name, 80)), evict); err != nil {
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
		w.remade = why
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
			return &errNoWorld{status: http.StatusServiceUnavailable, msg: fmt.Sprintf("The mock already holds %s (--max-worlds %d), and a request from a page of another site does not push out a world to make %q: reset or delete a world, or call from the mock's own site.", r.held(), r.max, clip(name, 80))}
		}
		if !r.evictOldest(nil, fmt.Sprintf("more than --max-worlds %d named worlds", r.max)) {
			return &errNoWorld{status: http.StatusServiceUnavailable, msg: fmt.Sprintf("The mock already holds %s (--max-worlds %d), every one busy with a request, so the world %q cannot be made now: try again in a moment, or start the mock with a larger --max-worlds.", r.held(), r.max, clip(name, 80))}
		}
	}
	return nil
}

// held words the named worlds slot counts, those still being built included (they take their
// room from the start: a refusal naming only the built ones read as if there were room); r.mu is
// held.
func (r *registry) held() string {
	words := fmt.Sprintf("%d named worlds", len(r.named))
	if len(r.named) == 1 {
		words = "1 named world"
	}
	if n := len(r.building); n > 0 {
		words += fmt.Sprintf(" and is building %d more", n)
	}
	return words
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
	r.remember(oldest.name, fmt.Sprintf("a world of this name was dropped at %s to make room (%s), its records with it; this one was made afresh", at, why))
	return true
}

// remember keeps why the world of name went (dropped to make room, deleted), for the answer to
// a read of it and the notes of a world made afresh under its name; r.mu is held.
func (r *registry) remember(name, why string) {
	if len(r.dropped) >= maxDroppedNames {
		clear(r.dropped)
	}
	r.dropped[name] = why
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
