package mockserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
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
type errNoWorld struct{ msg string }

func (e *errNoWorld) Error() string { return e.msg }

// registry holds the default world and up to max named worlds, the least recently used going
// first when a new one needs room (D100).
type registry struct {
	mu    sync.Mutex
	max   int
	def   *world
	named map[string]*world
}

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

// world finds the world name, creating it from the configured seed and scenario on first use.
func (s *Server) world(name string) (*world, error) {
	if name == "" || name == DefaultWorld {
		return s.worlds.def, nil
	}
	if err := CheckWorldName(name); err != nil {
		return nil, &errNoWorld{fmt.Sprintf("The world name %q is not valid: %s.", clip(name, 80), err)}
	}
	r := s.worlds
	r.mu.Lock()
	defer r.mu.Unlock()
	if w, ok := r.named[name]; ok {
		return w, nil
	}
	if r.max < 0 {
		return nil, &errNoWorld{"This mock serves only its default world (it was started with --max-worlds 0)."}
	}
	w, err := s.newWorld(name, Source{Seed: s.cfg.Seed, Scenario: s.cfg.Scenario}, s.base.Now())
	if err != nil {
		s.logger.Error("create world", "world", name, "err", err)
		return nil, &errNoWorld{fmt.Sprintf("The world %q could not be created: %s.", name, err)}
	}
	for len(r.named) > 0 && len(r.named) >= r.max {
		r.evictOldest()
	}
	r.named[name] = w
	return w, nil
}

// evictOldest drops the least recently used named world.
func (r *registry) evictOldest() {
	var oldest *world
	for _, w := range r.named {
		if oldest == nil || w.lastUsed.Load() < oldest.lastUsed.Load() {
			oldest = w
		}
	}
	delete(r.named, oldest.name)
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
}

// splitWorld takes the /__worlds/<name> prefix off path: the name, the path the mock serves,
// and whether there was a prefix.
func splitWorld(path string) (name, rest string, ok bool) {
	tail, found := strings.CutPrefix(path, WorldPrefix)
	if !found {
		return "", path, false
	}
	name, rest, _ = strings.Cut(tail, "/")
	return name, "/" + rest, true
}

// bindWorld binds the request's world once, before anything else reads the path (D100): the
// /__worlds/<name> prefix is taken off the path, the X-Mock-World header read, and the world
// created on first use. A request whose world cannot be served is answered by dispatch.
func (s *Server) bindWorld(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, path, prefixed := splitWorld(r.URL.Path)
		header := r.Header.Get(WorldHeader)
		if !prefixed && header == "" { // the default world: worldOf falls back to it unbound
			def := s.worlds.def
			def.touch()
			def.requests.Add(1)
			next.ServeHTTP(w, r)
			return
		}
		b := bound{}
		if header != "" {
			if prefixed && header != name {
				b.err = &errNoWorld{fmt.Sprintf("The path names world %q and the %s header names %q: use one.", clip(name, 80), WorldHeader, clip(header, 80))}
			}
			if !prefixed {
				name = header
			}
		}
		if b.err == nil && (prefixed || name != "") && name != DefaultWorld {
			if err := CheckWorldName(name); err != nil {
				b.err = &errNoWorld{fmt.Sprintf("The world name %q is not valid: %s.", clip(name, 80), err)}
			}
		}
		if b.err == nil {
			b.w, b.err = s.world(name)
		}
		if b.w != nil {
			b.w.touch()
			b.w.requests.Add(1)
		}
		r2 := r.WithContext(context.WithValue(r.Context(), worldKey{}, b))
		if prefixed {
			u := *r.URL
			u.Path, u.RawPath = path, ""
			r2.URL = &u
		}
		next.ServeHTTP(w, r2)
	})
}

// worldOf is the world bound to r (the default world when none was bound, as in handlers
// called directly).
func (s *Server) worldOf(r *http.Request) *world {
	if b, ok := r.Context().Value(worldKey{}).(bound); ok && b.w != nil {
		return b.w
	}
	return s.worlds.def
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
	}
}

// handleWorlds lists every world the mock holds.
func (s *Server) handleWorlds(w http.ResponseWriter, _ *http.Request) {
	all := s.worlds.all()
	rows := make([]worldInfo, len(all))
	for i, wl := range all {
		rows[i] = wl.info()
	}
	writeJSON(w, http.StatusOK, map[string]any{"worlds": rows, "max_worlds": s.worlds.max})
}

// clip cuts s to n bytes for a message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// handleWorldDelete forgets the named world of ?name= (a test worker's teardown); its tokens
// and records go with it, and its next use builds it afresh. The default world cannot be
// deleted (reset it instead).
func (s *Server) handleWorldDelete(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Query().Get("name")
	switch {
	case name == "":
		writeValidation(w, map[string][]string{"name": {"The name field is required: give the world to delete as ?name=."}})
		return
	case name == DefaultWorld:
		writeShapeA(w, http.StatusBadRequest, "The default world cannot be deleted; POST /__mock/reset starts it over.")
		return
	}
	reg := s.worlds
	reg.mu.Lock()
	_, ok := reg.named[name]
	delete(reg.named, name)
	reg.mu.Unlock()
	if !ok {
		writeShapeA(w, http.StatusNotFound, "The mock holds no world named "+strconv.Quote(clip(name, 80))+"; GET /__mock/worlds lists them.")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"deleted": name})
}
