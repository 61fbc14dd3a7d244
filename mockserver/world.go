package mockserver

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/reference"
)

// world is one isolated world (D100): its records, tokens, rate windows, login throttle, fault
// rules, journal, random draws and clock. Nothing in one world is seen by another; the Server
// holds the default world and a bounded set of named ones (worlds.go).
type world struct {
	name    string
	created time.Time // wall-clock time the world was made, for GET /__mock/worlds
	clock   *Clock
	limiter *rateLimiter
	logins  *loginThrottle // failed logins per client address (D71, throttle.go)
	faults  *faultRules
	journal *journal
	rand    *draws

	cur      atomic.Pointer[worldState] // swapped whole on reset and PUT /__mock/state
	lastUsed atomic.Int64               // unix nanoseconds of the last request
	requests atomic.Int64               // requests served in this world
}

// worldState is what a reset or a snapshot replaces: the store, the manifest that describes it
// and where it came from. A request binds one worldState and sees it from start to end.
type worldState struct {
	store    *reference.Store
	manifest fixtures.Manifest
	notes    []string // what the scenario changed, what the manifest no longer knows (D102)
	source   Source
}

// Source says what a world was built from: a seed and a scenario (D101), and whether a
// snapshot replaced it since (D102).
type Source struct {
	Seed     int64  `json:"seed"`
	Scenario string `json:"scenario"`
	Snapshot bool   `json:"snapshot,omitempty"`
}

// newWorld builds the world name from src on a clock starting at start.
func (s *Server) newWorld(name string, src Source, start time.Time) (*world, error) {
	clock := NewClock(start)
	w := &world{
		name:    name,
		created: time.Now().UTC(),
		clock:   clock,
		limiter: newRateLimiter(s.cfg.RateLimit, clock.Now),
		logins:  newLoginThrottle(clock.Now),
		faults:  &faultRules{},
		journal: newJournal(s.cfg.JournalSize),
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
	if src.Seed == 0 {
		src.Seed = s.cfg.Seed
	}
	if src.Scenario == "" {
		src.Scenario = fixtures.DefaultScenario
	}
	built, err := s.scenario(src, w.clock.Now())
	if err != nil {
		return err
	}
	st, err := reference.New(built.State, s.storeOptions(w)...)
	if err != nil {
		return fmt.Errorf("load world %q (scenario %s, seed %d): %w", w.name, src.Scenario, src.Seed, err)
	}
	w.cur.Store(&worldState{store: st, manifest: built.Manifest, notes: built.Notes, source: src})
	return nil
}

// reset puts back the world of src and forgets rate windows, the login throttle, fault rules
// and the journal (D62); the clock is kept.
func (s *Server) resetWorld(w *world, src Source) error {
	if src.Seed == 0 {
		src.Seed = s.cfg.Seed
	}
	if err := s.rebuild(w, src); err != nil {
		return err
	}
	w.limiter.clear()
	w.logins.clear()
	w.faults.clear()
	w.journal.clear()
	w.rand.reseed(src.Seed)
	return nil
}

// loadState replaces w's records with a snapshot; the manifest is checked against it (D102).
func (s *Server) loadState(w *world, st reference.State) error {
	store, err := reference.New(st, s.storeOptions(w)...)
	if err != nil {
		return err
	}
	old := w.cur.Load()
	src := old.source
	src.Snapshot = true
	m, notes := deriveManifest(old.manifest, store.State())
	w.cur.Store(&worldState{store: store, manifest: m, notes: notes, source: src})
	return nil
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
