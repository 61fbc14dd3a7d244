package mockserver

import (
	"time"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/reference"
)

// World is a handle on one world of a Server (D100), for tests that steer the mock from Go:
// the same controls as the /__mock/ endpoints under /__worlds/<name>/.
type World struct {
	s *Server
	w *world
}

// World returns the world name, creating it from the configured seed and scenario on first
// use; "default" (or "") is the default world. It fails for a name that is not valid
// (CheckWorldName) or when named worlds are turned off (Config.MaxWorlds < 0).
func (s *Server) World(name string) (*World, error) {
	w, err := s.world(name)
	if err != nil {
		return nil, err
	}
	w.touch()
	return &World{s: s, w: w}, nil
}

// Name is the world's name.
func (h *World) Name() string { return h.w.name }

// Source says what the world was built from.
func (h *World) Source() Source { return h.w.state().source }

// Snapshot returns the whole state of the world, as GET /__mock/state answers it.
func (h *World) Snapshot() reference.State { return h.w.state().store.State() }

// LoadState replaces the world's records with st, as PUT /__mock/state does. A state that
// does not load leaves the world as it was.
func (h *World) LoadState(st reference.State) error { return h.s.loadState(h.w, st) }

// Reset puts back the world of seed (the configured seed when 0) in the configured scenario.
func (h *World) Reset(seed int64) error {
	return h.s.resetWorld(h.w, Source{Seed: seed, Scenario: h.s.cfg.Scenario})
}

// ResetTo puts back the world of src: a seed (0: the configured one) and a scenario ("": the
// configured one), as POST /__mock/reset {"seed", "scenario"} does.
func (h *World) ResetTo(src Source) error {
	if src.Scenario == "" {
		src.Scenario = h.s.cfg.Scenario
	}
	src.Snapshot = false
	return h.s.resetWorld(h.w, src)
}

// Manifest describes the world's records: logins and the ids of records to use (D102).
func (h *World) Manifest() fixtures.Manifest { return h.w.state().manifest }

// Now is the world's clock.
func (h *World) Now() time.Time { return h.w.clock.Now() }

// Advance moves the world's clock forward by d; it refuses to move past LatestClock (D63).
func (h *World) Advance(d time.Duration) error { return h.w.clock.Advance(d) }

// SetClock sets the world's clock to t (D104).
func (h *World) SetClock(t time.Time) error { return h.w.clock.Set(t) }

// Freeze stops the world's clock (true) or lets it run again from where it stands (false).
func (h *World) Freeze(frozen bool) { h.w.clock.Freeze(frozen) }
