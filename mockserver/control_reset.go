package mockserver

import (
	"errors"
	"net/http"

	"github.com/opsapi/mocktoolkit/reference"
)

// resetInput is the body of POST /__mock/reset.
type resetInput struct {
	Seed     *int64 `json:"seed"`
	Scenario string `json:"scenario"`
}

// handleReset puts back the request's world from the configured seed and scenario, or those of
// the body (D62, D101), and forgets its rate windows, fault rules and journal. Tokens issued in
// the old world vanish with it (D10).
func (s *Server) handleReset(w http.ResponseWriter, r *http.Request) {
	var in resetInput
	if !decodeControl(w, r, &in, maxBody) {
		return
	}
	src := Source{Seed: s.cfg.Seed, Scenario: s.cfg.Scenario}
	if in.Seed != nil {
		if *in.Seed == 0 {
			writeValidation(w, map[string][]string{"seed": {reference.MsgNot("seed", "0")}})
			return
		}
		src.Seed = *in.Seed
	}
	if in.Scenario != "" {
		if !s.knownScenario(in.Scenario) {
			writeValidation(w, map[string][]string{"scenario": {reference.MsgOneOf("scenario", s.scenarioNames())}})
			return
		}
		src.Scenario = in.Scenario
	}
	wl := s.worldOf(r)
	if err := s.resetWorld(wl, src); err != nil {
		s.logger.Error("reset", "world", wl.name, "seed", src.Seed, "scenario", src.Scenario, "err", err)
		var ue *reference.Error
		if errors.As(err, &ue) {
			writeValidation(w, map[string][]string{"scenario": {"The scenario does not load: " + err.Error() + "."}})
			return
		}
		writeShapeA(w, http.StatusInternalServerError, "The world could not be reset.")
		return
	}
	st := wl.state()
	writeJSON(w, http.StatusOK, map[string]any{
		"world":    wl.name,
		"seed":     st.source.Seed,
		"scenario": st.source.Scenario,
		"now":      wl.clockNow(),
		"fixtures": st.manifest,
	})
}
