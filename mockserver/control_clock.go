package mockserver

import (
	"net/http"
	"strconv"
	"time"

	"github.com/opsapi/mocktoolkit/reference"
)

// maxAdvance bounds one move of the clock (ten years), far from time.Duration's limit.
const maxAdvance = 10 * 365 * 24 * time.Hour

// clockInput is the body of POST /__mock/clock.
type clockInput struct {
	AdvanceSeconds *int64 `json:"advance_seconds"`
}

// handleClock answers the mock's time.
func (s *Server) handleClock(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"now": s.clockNow()})
}

// handleClockAdvance moves the clock forward by advance_seconds (0 to ten years, and never past
// LatestClock, D63): rate windows, the thumbnail window, snoozes and overdue cards follow, as
// they all read it (D39).
func (s *Server) handleClockAdvance(w http.ResponseWriter, r *http.Request) {
	var in clockInput
	if !decodeControl(w, r, &in, maxBody) {
		return
	}
	switch {
	case in.AdvanceSeconds == nil:
		writeValidation(w, map[string][]string{"advance_seconds": {reference.MsgRequired("advance_seconds")}})
		return
	case *in.AdvanceSeconds < 0:
		writeValidation(w, map[string][]string{"advance_seconds": {reference.MsgMin("advance_seconds", "0") + " The clock only moves forward."}})
		return
	case *in.AdvanceSeconds > int64(maxAdvance/time.Second):
		writeValidation(w, map[string][]string{"advance_seconds": {reference.MsgMax("advance_seconds", strconv.FormatInt(int64(maxAdvance/time.Second), 10)) + " (ten years)"}})
		return
	}
	if err := s.Advance(time.Duration(*in.AdvanceSeconds) * time.Second); err != nil {
		writeValidation(w, map[string][]string{"advance_seconds": {reference.MsgInvalid("advance_seconds") + " " + err.Error() + "."}})
		return
	}
	s.handleClock(w, r)
}
