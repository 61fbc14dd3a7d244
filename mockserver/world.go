package mockserver

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/reference"
)

// world is one isolated world (D100): its records, tokens, rate windows, fault
// rules, journal, random draws and clock. Nothing in one world is seen by another; the Server
// holds the default world and a bounded set of named ones (worlds.go).
type world struct {
	name    string
	created time.Time // wall-clock time the world was made, for GET /__mock/worlds
	clock   *Clock
	limiter *rateLimiter
	faults  *faultRules
	journal *journal
	flow    *flowLog  // calls since the last reset, for GET /__mock/flow (D170)
	flowDoc flowCache // its last document, shared by downloads of an unchanged flow
	rand    *draws

	cur atomic.Pointer[worldState] // swapped whole on reset and PUT /__mock/state, under gate
	// gate is held for reading while an operation acts on the store and for writing while cur
	// is swapped, so no write lands in a world a reset or a snapshot has just replaced (D62).
	gate     sync.RWMutex
	lastUsed atomic.Int64 // unix nanoseconds of the last request
	requests atomic.Int64 // requests served in this world
	inflight atomic.Int64 // requests being served: a busy world is never evicted (D141)
	// byPage is set on a world a page of another site made (one that may not evict): such
	// worlds are the first to go when room is needed (D213).
	byPage bool
	// remade says why a world of this name was dropped before this one was made (D206): kept
	// beside the state, so a reset does not lose it.
	remade string
}

// notes are what GET /__mock/worlds and the dashboard say of w: its state's notes, and why a
// world of its name was dropped before (never nil).
func (w *world) notes() []string {
	notes := append([]string{}, w.state().notes...)
	if w.remade != "" {
		notes = append(notes, w.remade)
	}
	return notes
}

// swap puts st in place of w's state once no operation is acting on the old one. A reset
// starts a new journal generation (epoch); a loaded snapshot keeps the journal's (D105).
func (w *world) swap(st *worldState, reset bool) {
	w.gate.Lock()
	defer w.gate.Unlock()
	st.build = builds.Add(1)
	if old := w.cur.Load(); old != nil {
		st.epoch = old.epoch
		if reset {
			st.epoch++
		}
	}
	w.cur.Store(st)
}

// release ends one request's use of w (Server.world counted it).
func (w *world) release() { w.inflight.Add(-1) }

// worldState is what a reset or a snapshot replaces: the store, the manifest that describes it
// and where it came from. A request binds one worldState and sees it from start to end.
type worldState struct {
	store    *reference.Store
	manifest fixtures.Manifest
	// built is the manifest of source as it was built, before any snapshot was checked against
	// it: what the next snapshot of the same source is checked against (D102), so a manifest
	// a snapshot blanked comes back with the records, and no world is built again to know it.
	built  fixtures.Manifest
	notes  []string // what the scenario changed, what the manifest no longer knows (D102)
	source Source
	// epoch counts the world's resets (swap): a call that acted on a state of an earlier epoch
	// is kept out of the journal and its counts, which the reset cleared (D62, D105).
	epoch uint64
	// build tells this state from every other of every world (prefer.WorldBuild, D123).
	build uint64
}

// builds numbers the states swapped in, across worlds: a world made again after it was dropped
// starts at a number of its own, not at its old one's.
var builds atomic.Uint64

// Source says what a world was built from: a seed and a scenario (D101), and whether a
// snapshot replaced it since (D102).
type Source struct {
	Seed     int64  `json:"seed"`
	Scenario string `json:"scenario"`
	Snapshot bool   `json:"snapshot,omitempty"`
}

// source fills in what src leaves to the configuration: the mock's seed, the default
// scenario, and the seed a scenario file names for itself, which wins (D145: the seed reported
// is the one the world was built from).
func (s *Server) source(src Source) Source {
	if src.Seed == 0 {
		src.Seed = s.cfg.Seed
	}
	if src.Scenario == "" {
		src.Scenario = fixtures.DefaultScenario
	}
	if f, ok := s.userScenarios()[src.Scenario]; ok {
		src.Seed = f.SeedFor(src.Seed)
	}
	return src
}

// newWorld builds the world name from src on a clock starting at start.
func (s *Server) newWorld(name string, src Source, start time.Time) (*world, error) {
	src = s.source(src)
	clock := NewClock(start)
	w := &world{
		name:    name,
		created: time.Now().UTC(),
		clock:   clock,
		limiter: newRateLimiter(s.cfg.RateLimit, clock.WindowNow),
		faults:  &faultRules{},
		journal: newJournal(s.cfg.JournalSize, s.journals),
		flow:    &flowLog{budget: s.flows},
		rand:    newDraws(src.Seed),
	}
	if err := s.rebuild(w, src); err != nil {
		return nil, err
	}
	w.touch()
	return w, nil
}

// rebuild replaces w's records with the world of src, built at w's clock.
func (s *Server) rebuild(w *world, src Source) error {
	src = s.source(src)
	built, err := s.scenario(src, w.clock.Now())
	if err != nil {
		return err
	}
	st, err := reference.New(built.State, s.storeOptions(w)...)
	if err != nil {
		return fmt.Errorf("load world %q (scenario %s, seed %d): %w", w.name, src.Scenario, src.Seed, err)
	}
	if old := w.state(); old != nil { // a reset: a new world makes its room when it is registered
		s.admitting.Lock() // held to the swap below: the room and the records in one step
		defer s.admitting.Unlock()
		if err := s.roomFor(w, st.Size(), old.store.Measure(), "The scenario "+strconv.Quote(src.Scenario), true); err != nil {
			return err
		}
	}
	s.noteCredentials(w, built.State)
	w.swap(&worldState{store: st, manifest: built.Manifest, built: built.Manifest, notes: built.Notes, source: src}, true)
	return nil
}

// reset puts back the world of src and forgets rate windows, fault rules and the journal
// (D62); the clock is kept. The login throttle is the server's (D144): handleReset clears the
// resetting client's.
func (s *Server) resetWorld(w *world, src Source) error {
	src = s.source(src)
	if err := s.rebuild(w, src); err != nil {
		return err
	}
	w.limiter.clear()
	w.faults.clear()
	// Cleared after the swap: a call that acted on the old records and records only now is
	// kept out by its state's epoch (journal.addRan, flowLog.add), and one recorded before
	// goes with the rest, so the journal, its counts and the flow hold only calls on the
	// new records (D62, D105, D173).
	w.journal.clear()
	w.flow.clear()
	w.rand.reseed(src.Seed)
	return nil
}

// errNoUsers refuses a snapshot without users (D198): nobody could log in to such a world.
var errNoUsers = errors.New("it holds no users, so nobody could log in; start from a snapshot GET /__mock/state answers, or reset the world")

// checkSnapshot tells why st would not load into any world, without making one: no users, or
// records that break the API's rules (D65, D76, D198).
func checkSnapshot(st reference.State) error {
	if len(st.Users) == 0 {
		return errNoUsers
	}
	_, err := reference.New(st)
	return err
}

// loadState replaces w's records with a snapshot; the manifest is checked against it (D102):
// the manifest of from, the seed and scenario the records were built from, when the snapshot
// names them (a state file does), else the world's own.
func (s *Server) loadState(w *world, st reference.State, from *SavedSource) error {
	if len(st.Users) == 0 {
		return errNoUsers
	}
	src, built, err := s.sourceManifest(w, from)
	if err != nil {
		return err
	}
	store, err := reference.New(st, s.storeOptions(w)...)
	if err != nil {
		return err
	}
	s.admitting.Lock()
	defer s.admitting.Unlock()
	if err := s.roomFor(w, store.Size(), w.state().store.Measure(), "The snapshot", true); err != nil { // what it gives back, measured: an estimate may fall short of a store built anew
		return err
	}
	s.noteCredentials(w, st)
	src.Snapshot = true
	m, notes := deriveManifest(built, store.State())
	w.swap(&worldState{store: store, manifest: m, built: built, notes: notes, source: src}, false)
	// The calls before it acted on records that are gone: a new recording starts (D173). A call
	// still under way on the old records is kept out of it (flowLog.add); the clear comes after
	// the swap, so one recorded before it goes with the rest.
	w.flow.clear()
	return nil
}

// sourceManifest is the source a snapshot's records came from and its manifest as built: from,
// the seed and scenario the snapshot names (a state file's, GET /__mock/state's), else w's own.
// A seed out of range or a scenario the mock has not loaded is refused.
func (s *Server) sourceManifest(w *world, from *SavedSource) (Source, fixtures.Manifest, error) {
	cur := w.state()
	if from == nil {
		return cur.source, cur.built, nil
	}
	if from.Seed != 0 { // 0 or null stands for the mock's --seed (D65)
		if err := fixtures.CheckSeed(from.Seed); err != nil {
			return Source{}, fixtures.Manifest{}, fmt.Errorf("source.seed %d: %w", from.Seed, err)
		}
	}
	if !s.knownScenario(from.Scenario) {
		return Source{}, fixtures.Manifest{}, fmt.Errorf("source.scenario %q is not a scenario this mock has (%s); the records were built from it, so their fixture manifest cannot be: load that scenario, or leave out the source member", clip(from.Scenario, 80), strings.Join(s.scenarioNames(), ", "))
	}
	// The seed as recorded: the records were built from it, even if the scenario's file names
	// another seed of its own by now.
	src := Source{Seed: from.Seed, Scenario: from.Scenario}
	if src.Seed == 0 {
		src = s.source(src)
	}
	if src.Seed == cur.source.Seed && src.Scenario == cur.source.Scenario {
		return cur.source, cur.built, nil // the world's own: known without building it again
	}
	built, err := s.scenario(src, w.clock.Now())
	if err != nil {
		return Source{}, fixtures.Manifest{}, err
	}
	return src, built.Manifest, nil
}

// noteCredentials tells w's journal the credentials it may find quoted in a text before any
// request carried them (D200): the admin token and every user's password of st.
func (s *Server) noteCredentials(w *world, st reference.State) {
	w.journal.known.Note(s.cfg.AdminToken)
	for _, u := range st.Users {
		w.journal.known.Note(u.Password)
	}
}

// storeOptions are the options of every store of w: its clock and the record cap.
func (s *Server) storeOptions(w *world) []reference.Option {
	return []reference.Option{reference.WithClock(w.clock), reference.WithMaxRecordsPerProject(s.cfg.MaxRecords)}
}

func (w *world) touch() { w.lastUsed.Store(time.Now().UnixNano()) }

func (w *world) state() *worldState { return w.cur.Load() }

// clockNow is the world's time as the controls show it: RFC 3339, UTC, whole seconds (D9).
func (w *world) clockNow() string {
	return w.clock.Now().Truncate(time.Second).Format(time.RFC3339)
}

// World is a handle on one world of a Server (D100), for tests that steer the mock from Go:
// the same controls as the /__mock/ endpoints under /__worlds/<name>/. It follows the world's
// name, as those endpoints do: a world dropped to make room or deleted (DELETE /__mock/worlds)
// is made again, from the configured seed and scenario, by the handle's next call.
type World struct {
	s    *Server
	name string
	last atomic.Pointer[world] // the world the last call found: what a call reads when none can be made
}

// cur is the world that has the handle's name now, made again when it was dropped.
func (h *World) cur() (*world, error) {
	w, err := h.s.world(h.name, true, true)
	if err != nil {
		return h.last.Load(), err
	}
	w.release() // a handle is not a request in flight: the world may be evicted (D141)
	w.touch()
	h.last.Store(w)
	return w, nil
}

// now is cur for the calls that return no error: the world last found when none can be made
// (every world busy).
func (h *World) now() *world {
	w, _ := h.cur()
	return w
}

// World returns the world name, creating it from the configured seed and scenario on first
// use; "default" (or "") is the default world. It fails for a name that is not valid
// (CheckWorldName) or when named worlds are turned off (Config.MaxWorlds < 0).
func (s *Server) World(name string) (*World, error) {
	w, err := s.world(name, true, true)
	if err != nil {
		return nil, err
	}
	w.release() // a handle is not a request in flight: the world may be evicted (D141)
	w.touch()
	return s.handle(w), nil
}

// NamedWorlds is how many named worlds the mock holds now (the default world aside).
func (s *Server) NamedWorlds() int {
	s.worlds.mu.Lock()
	defer s.worlds.mu.Unlock()
	return len(s.worlds.named)
}

// handle is the handle on w.
func (s *Server) handle(w *world) *World {
	h := &World{s: s, name: w.name}
	h.last.Store(w)
	return h
}

// Name is the world's name.
func (h *World) Name() string { return h.name }

// Source says what the world was built from.
func (h *World) Source() Source { return h.now().state().source }

// Snapshot returns the whole state of the world, as GET /__mock/state answers it.
func (h *World) Snapshot() reference.State { return h.now().state().store.State() }

// LoadState replaces the world's records with st, as PUT /__mock/state does. A state that
// does not load leaves the world as it was.
func (h *World) LoadState(st reference.State) error {
	w, err := h.cur()
	if err != nil {
		return err
	}
	return h.s.loadState(w, st, nil)
}

// Reset puts back the world of seed (the configured seed when 0) in the configured scenario.
// The login throttle of every client is cleared (D144): a Go test has no client address.
func (h *World) Reset(seed int64) error {
	return h.ResetTo(Source{Seed: seed})
}

// ResetTo puts back the world of src: a seed (0: the configured one) and a scenario ("": the
// configured one), as POST /__mock/reset {"seed", "scenario"} does.
func (h *World) ResetTo(src Source) error {
	if src.Seed != 0 {
		if err := fixtures.CheckSeed(src.Seed); err != nil {
			return fmt.Errorf("mockserver: seed %d: %w", src.Seed, err)
		}
	}
	if src.Scenario == "" {
		src.Scenario = h.s.cfg.Scenario
	}
	if src.Seed != 0 {
		if msg := h.s.seedOverridden(src.Scenario, src.Seed); msg != "" {
			return errors.New("mockserver: " + msg)
		}
	}
	src.Snapshot = false
	w, err := h.cur()
	if err != nil {
		return err
	}
	if err := h.s.resetWorld(w, src); err != nil {
		return err
	}
	h.s.logins.clearClient("")
	return nil
}

// Manifest describes the world's records: logins and the ids of records to use (D102).
func (h *World) Manifest() fixtures.Manifest { return h.now().state().manifest.Clone() }

// Now is the world's clock as the API reads it: whole seconds (D104).
func (h *World) Now() time.Time { return h.now().clock.Now().Truncate(time.Second) }

// Advance moves the world's clock forward by d, a whole number of seconds of at most ten years,
// as advance_seconds does; it refuses to move past LatestClock (D63).
func (h *World) Advance(d time.Duration) error {
	switch {
	case d%time.Second != 0:
		return fmt.Errorf("mockserver: Advance(%s): the clock moves in whole seconds, as advance_seconds does", d)
	case d > maxAdvance:
		return fmt.Errorf("mockserver: Advance(%s): at most %d seconds (ten years) at once, as advance_seconds", d, int64(maxAdvance/time.Second))
	}
	w, err := h.cur()
	if err != nil {
		return err
	}
	return w.clock.Advance(d)
}

// SetClock sets the world's clock to t (D104).
func (h *World) SetClock(t time.Time) error {
	w, err := h.cur()
	if err != nil {
		return err
	}
	return w.clock.Set(t)
}

// Freeze stops the world's clock (true) or lets it run again from where it stands (false).
func (h *World) Freeze(frozen bool) { h.now().clock.Freeze(frozen) }
