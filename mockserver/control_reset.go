package mockserver

import (
	"net/http"
	"time"
)

// resetInput is the body of POST /__mock/reset.
type resetInput struct {
	Seed *int64 `json:"seed"`
}

// handleReset puts back the seeded world (Config.Seed, or the body's seed) and forgets rate
// windows, fault rules and the journal. Tokens issued in the old world vanish with it (D10).
func (s *server) handleReset(w http.ResponseWriter, r *http.Request) {
	var in resetInput
	if !decodeControl(w, r, &in) {
		return
	}
	seed := s.cfg.Seed
	if in.Seed != nil {
		if *in.Seed == 0 {
			writeValidation(w, map[string][]string{"seed": {"The seed must not be 0."}})
			return
		}
		seed = *in.Seed
	}
	if err := s.resetAll(seed); err != nil {
		s.logger.Error("reset", "seed", seed, "err", err)
		writeShapeA(w, http.StatusInternalServerError, "The world could not be reset.")
		return
	}
	wl := s.world.Load()
	writeJSON(w, http.StatusOK, map[string]any{
		"seed":     seed,
		"now":      s.clockNow(),
		"fixtures": wl.manifest,
	})
}

// resetAll swaps in the world of seed and clears everything steered in the old one; the
// clock is kept (the new world is built at the clock's now).
func (s *server) resetAll(seed int64) error {
	if err := s.reset(seed); err != nil {
		return err
	}
	s.limiter.clear()
	s.logins.clear()
	s.steering.faults.clear()
	s.steering.journal.clear()
	s.steering.rand.reseed(seed)
	return nil
}

// clear forgets every rate-limit window.
func (l *rateLimiter) clear() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.windows = map[string]window{}
}

// clockNow is the mock's time as the controls show it: RFC 3339, UTC, whole seconds (D9).
func (s *server) clockNow() string {
	return s.clock.Now().Truncate(time.Second).Format(time.RFC3339)
}
