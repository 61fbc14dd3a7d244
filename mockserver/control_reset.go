package mockserver

import (
	"github.com/opsapi/mocktoolkit/reference"
	"net/http"
	"time"
)

// resetInput is the body of POST /__mock/reset.
type resetInput struct {
	Seed *int64 `json:"seed"`
}

// handleReset puts back the seeded world (Config.Seed, or the body's seed) and forgets rate
// windows, fault rules and the journal. Tokens issued in the old world vanish with it (D10).
func (s *Server) handleReset(w http.ResponseWriter, r *http.Request) {
	var in resetInput
	if !decodeControl(w, r, &in, maxBody) {
		return
	}
	seed := s.cfg.Seed
	if in.Seed != nil {
		if *in.Seed == 0 {
			writeValidation(w, map[string][]string{"seed": {reference.MsgNot("seed", "0")}})
			return
		}
		seed = *in.Seed
	}
	if err := s.Reset(seed); err != nil {
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

// clockNow is the mock's time as the controls show it: RFC 3339, UTC, whole seconds (D9).
func (s *Server) clockNow() string {
	return s.clock.Now().Truncate(time.Second).Format(time.RFC3339)
}
