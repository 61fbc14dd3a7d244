package mockserver

import (
	"net/http"
	"strconv"
	"time"

	"github.com/opsapi/mocktoolkit/reference"
)

// maxAdvance bounds one move of the clock (ten years), far from time.Duration's limit.
const maxAdvance = 10 * 365 * 24 * time.Hour

// clockInput is the body of POST /__mock/clock: one or more of set, freeze and
// advance_seconds, applied in that order (D104).
type clockInput struct {
	Set            *string `json:"set"`
	Freeze         *bool   `json:"freeze"`
	AdvanceSeconds *int64  `json:"advance_seconds"`
}

// handleClock answers the request's world's time and whether its clock is frozen.
func (s *Server) handleClock(w http.ResponseWriter, r *http.Request) {
	wl := s.worldOf(r)
	writeJSON(w, http.StatusOK, map[string]any{"now": wl.clockNow(), "frozen": wl.clock.Frozen(), "world": wl.name})
}

// handleClockSet sets, freezes or advances the request's world's clock (D63, D104): rate
// windows, the thumbnail window, snoozes and overdue cards follow, as they all read it (D39).
// Every field is checked before any is applied, so a 422 leaves the clock as it was.
func (s *Server) handleClockSet(w http.ResponseWriter, r *http.Request) {
	var in clockInput
	if !decodeControl(w, r, &in, maxBody) {
		return
	}
	fields := map[string][]string{}
	if in.Set == nil && in.Freeze == nil && in.AdvanceSeconds == nil {
		fields["advance_seconds"] = []string{reference.MsgRequired("advance_seconds") + " Send set (RFC 3339), freeze (true or false) or advance_seconds."}
	}
	var at time.Time
	if in.Set != nil {
		var err error
		if at, err = time.Parse(time.RFC3339, *in.Set); err != nil {
			fields["set"] = []string{"The set field must be an RFC 3339 date-time such as 2026-06-01T09:00:00Z."}
		} else if err := CheckClockStart(at); err != nil {
			fields["set"] = []string{"The set field must be " + err.Error() + "."}
		}
	}
	if in.AdvanceSeconds != nil {
		switch n := *in.AdvanceSeconds; {
		case n < 0:
			fields["advance_seconds"] = []string{reference.MsgMin("advance_seconds", "0") + " To go back, send set."}
		case n > int64(maxAdvance/time.Second):
			fields["advance_seconds"] = []string{reference.MsgMax("advance_seconds", strconv.FormatInt(int64(maxAdvance/time.Second), 10)) + " (ten years)"}
		}
	}
	if len(fields) > 0 {
		writeValidation(w, fields)
		return
	}
	wl := s.worldOf(r)
	if in.Set != nil {
		_ = wl.clock.Set(at) // checked above
	}
	if in.Freeze != nil {
		wl.clock.Freeze(*in.Freeze)
	}
	if in.AdvanceSeconds != nil {
		if err := wl.clock.Advance(time.Duration(*in.AdvanceSeconds) * time.Second); err != nil {
			writeValidation(w, map[string][]string{"advance_seconds": {reference.MsgInvalid("advance_seconds") + " " + err.Error() + "."}})
			return
		}
	}
	s.handleClock(w, r)
}
