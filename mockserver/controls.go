package mockserver

import (
	"bytes"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/internal/inflight"
	"github.com/opsapi/mocktoolkit/internal/jsonnum"
	"github.com/opsapi/mocktoolkit/internal/jsonwords"
	"github.com/opsapi/mocktoolkit/reference"
	"github.com/opsapi/mocktoolkit/spec"
)

// handleHealth answers the readiness probe.
func (s *Server) handleHealth(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// handleFixtures answers the fixture manifest of the request's world (D102).
func (s *Server) handleFixtures(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.worldOf(r).state().manifest)
}

// handleDashboardRedirect sends GET / and GET /__mock to the dashboard at /__mock/ (of the
// request's world), keeping the query (the dashboard takes ?token=).
func (s *Server) handleDashboardRedirect(w http.ResponseWriter, r *http.Request) {
	redirectToDashboard(w, r, s.worldOf(r).name)
}

// redirectToDashboard answers 301 to the dashboard of the world name.
func redirectToDashboard(w http.ResponseWriter, r *http.Request, name string) {
	target := dashboardOf(name)
	if r.URL.RawQuery != "" {
		target += "?" + r.URL.RawQuery
	}
	w.Header().Set("Location", target)
	writeJSON(w, http.StatusMovedPermanently, map[string]string{"location": target})
}

// handleFavicon answers browsers' favicon request with 204, so opening the dashboard leaves
// nothing in the journal.
func handleFavicon(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }

// AdminTokenHeader carries the admin token (Config.AdminToken) to the /__mock/ endpoints.
const AdminTokenHeader = "X-Mock-Admin-Token"

// admitted guards the /__mock/ endpoints with the admin token, when one is set: the token
// comes in X-Mock-Admin-Token, or for the dashboard page (GET or HEAD /__mock/) also as ?token=.
// Without it, 401 shape (b); the dashboard page answers its token prompt instead, which sends
// the token to the dashboard of world, the request's world.
func (s *Server) admitted(w http.ResponseWriter, r *http.Request, world string) bool {
	want := s.steering.admin
	if want == "" || !strings.HasPrefix(r.URL.Path, "/__mock/") {
		return true
	}
	page := r.URL.Path == dashboardPath && (r.Method == http.MethodGet || r.Method == http.MethodHead)
	if len(r.Header.Values(AdminTokenHeader)) > 1 { // which one was meant is a guess: none is taken
		writeShapeB(w, http.StatusUnauthorized, "The "+AdminTokenHeader+" header is given more than once; send it once.")
		return false
	}
	got := r.Header.Get(AdminTokenHeader)
	if got == "" && page {
		if given := r.URL.Query()["token"]; len(given) > 1 { // as for the header: none is taken
			writeShapeB(w, http.StatusUnauthorized, "The token parameter is given more than once; give it once.")
			return false
		}
		got = r.URL.Query().Get("token")
	}
	if subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1 {
		return true
	}
	if page { // HEAD answers as GET does, without the body
		s.writeTokenPrompt(w, world, got != "")
		return false
	}
	if got != "" {
		writeShapeB(w, http.StatusUnauthorized, "The "+AdminTokenHeader+" header does not hold this mock's admin token.")
		return false
	}
	writeShapeB(w, http.StatusUnauthorized, "This mock needs its admin token: send it in the "+AdminTokenHeader+" header.")
	return false
}

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
	if !decodeControlChecked(w, r, &in, maxBody, pastInt64(map[string]func(bool) string{"advance_seconds": advanceRangeMessage})) {
		return
	}
	fields := map[string][]string{}
	if in.Set == nil && in.Freeze == nil && in.AdvanceSeconds == nil {
		// A null counts as not sent: {"set": null} moves nothing, and says so.
		fields["advance_seconds"] = []string{"The body must give set (an RFC 3339 date-time), freeze (true or false) or advance_seconds (a whole number of seconds); it gives none of them (a null gives none)."}
	}
	var at time.Time
	if in.Set != nil {
		var err error
		if spec.ValidateDateTime(*in.Set) != nil { // offsets within ±23:59 (D148)
			fields["set"] = []string{"The set field must be an RFC 3339 date-time such as 2026-06-01T09:00:00Z, its offset within ±23:59."}
		} else if at, err = time.Parse(time.RFC3339, *in.Set); err != nil {
			fields["set"] = []string{"The set field must be an RFC 3339 date-time such as 2026-06-01T09:00:00Z."}
		} else if CheckClockStart(at) != nil {
			fields["set"] = []string{reference.MsgBetween("set", EarliestClock.Format(time.RFC3339), LatestClock.Format(time.RFC3339))}
		}
	}
	if in.AdvanceSeconds != nil {
		if n := *in.AdvanceSeconds; n < 0 || n > int64(maxAdvance/time.Second) {
			fields["advance_seconds"] = []string{advanceRangeMessage(n < 0)}
		}
	}
	var advance time.Duration
	if in.AdvanceSeconds != nil && fields["advance_seconds"] == nil {
		advance = time.Duration(*in.AdvanceSeconds) * time.Second
		// Checked before the world is made: from the instant set, or from the clock a world
		// not there yet would start on.
		from := at
		if in.Set == nil && pendingFor(r) {
			from = s.base.Now()
		}
		if (in.Set != nil || pendingFor(r)) && passesLatest(from, advance) {
			fields["advance_seconds"] = []string{advancePastMessage()}
		}
	}
	if len(fields) > 0 {
		writeValidation(w, fields)
		return
	}
	wl, ok := s.worldToChange(w, r)
	if !ok {
		return
	}
	var set *time.Time
	if in.Set != nil {
		set = &at
	}
	if wl.clock.Move(set, in.Freeze, advance) != nil {
		writeValidation(w, map[string][]string{"advance_seconds": {advancePastMessage()}})
		return
	}
	if in.Set != nil || (in.AdvanceSeconds != nil && *in.AdvanceSeconds > 0) {
		// The server's login throttle runs on real time (D144), so a clock moved to wait out a
		// throttle lifts the sender's, as a reset does.
		s.logins.clearClient(clientAddr(r))
		wl.flow.noteClockMove()
	}
	markBuild(w, wl.state())
	s.handleClock(w, r)
}

// handleClockRelease gives the request's world's clock back to the system time, running: the
// way back from a set, moved or frozen clock, which a reset keeps (D62, D104).
func (s *Server) handleClockRelease(w http.ResponseWriter, r *http.Request) {
	wl, ok := s.worldToChange(w, r)
	if !ok {
		return
	}
	wl.clock.Release()
	wl.flow.noteClockMove()
	markBuild(w, wl.state())
	s.handleClock(w, r)
}

// advancePastMessage words an advance that would carry the clock past LatestClock.
func advancePastMessage() string {
	return reference.MsgInvalid("advance_seconds") + " The clock would pass " + LatestClock.Format(time.RFC3339) + ", the latest instant the mock keeps."
}

// advanceRangeMessage words why advance_seconds is out of range: below 0, or past ten years.
func advanceRangeMessage(negative bool) string {
	if negative {
		return reference.MsgMin("advance_seconds", "0") + " To go back, send set."
	}
	return "The advance seconds field must not be greater than " + strconv.FormatInt(int64(maxAdvance/time.Second), 10) + " (ten years)."
}

// pastInt64 words a whole number past 64 bits (1e30, 1e400) in any of a control's fields by the
// field's own range (say, told whether it was negative), not by the bits of the Go field that
// reads it: a seed of 1e400 is told the seeds' range, as 9007199254740992 is.
func pastInt64(fields map[string]func(negative bool) string) func([]byte) map[string][]string {
	return func(body []byte) map[string][]string {
		var raw map[string]json.RawMessage
		if json.Unmarshal(body, &raw) != nil {
			return nil // the decoder words it
		}
		out := map[string][]string{}
		for name, say := range fields { // names as sent: a name in another case is unknown (D8)
			v := raw[name]
			if len(v) == 0 || !strings.ContainsRune("-0123456789", rune(v[0])) {
				continue
			}
			num := string(v)
			if !jsonnum.WholeNumber(num) {
				continue
			}
			if text, ok := jsonnum.IntegerText(num); ok {
				if _, err := strconv.ParseInt(text, 10, 64); err == nil {
					continue
				}
			}
			out[name] = []string{say(strings.HasPrefix(num, "-"))}
		}
		if len(out) == 0 {
			return nil
		}
		return out
	}
}

// seedRangeMessage words a seed past ±(2^53-1) (fixtures.CheckSeed).
var seedRangeMessage = strings.TrimSuffix(reference.MsgBetween("seed", strconv.FormatInt(-fixtures.MaxSeed, 10), strconv.FormatInt(fixtures.MaxSeed, 10)), ".") + ", the largest integers a JavaScript client reads exactly."

// resetInput is the body of POST /__mock/reset.
type resetInput struct {
	Seed     *int64  `json:"seed"`
	Scenario *string `json:"scenario"`
}

// handleReset puts back the request's world from the configured seed and scenario, or those of
// the body (D62, D101), and forgets its rate windows, fault rules and journal. Tokens issued in
// the old world vanish with it (D10).
func (s *Server) handleReset(w http.ResponseWriter, r *http.Request) {
	var in resetInput
	if !decodeControlChecked(w, r, &in, maxBody, pastInt64(map[string]func(bool) string{"seed": func(bool) string { return seedRangeMessage }})) {
		return
	}
	src := Source{Seed: s.cfg.Seed, Scenario: s.cfg.Scenario}
	if in.Seed != nil {
		if *in.Seed == 0 {
			writeValidation(w, map[string][]string{"seed": {reference.MsgNot("seed", "0")}})
			return
		}
		if fixtures.CheckSeed(*in.Seed) != nil {
			writeValidation(w, map[string][]string{"seed": {seedRangeMessage}})
			return
		}
		src.Seed = *in.Seed
	}
	if in.Scenario != nil {
		// An empty name is no name (a body built from an unset variable): it was taken for
		// the --scenario, and another world than asked for came back without a word.
		if *in.Scenario == "" || !s.knownScenario(*in.Scenario) {
			writeValidation(w, map[string][]string{"scenario": {s.unknownScenario()}})
			return
		}
		src.Scenario = *in.Scenario
	}
	if in.Seed != nil {
		if msg := s.seedOverridden(src.Scenario, *in.Seed); msg != "" {
			writeValidation(w, map[string][]string{"seed": {msg}})
			return
		}
	}
	wl, ok := s.worldToChange(w, r)
	if !ok {
		return
	}
	if err := s.resetWorld(wl, src); err != nil {
		s.unmake(r)
		s.writeResetError(w, wl, src, err)
		return
	}
	s.logins.clearClient(clientAddr(r))
	st := wl.state()
	markBuild(w, st)
	writeJSON(w, http.StatusOK, map[string]any{
		"world":    wl.name,
		"seed":     st.source.Seed,
		"scenario": st.source.Scenario,
		"now":      wl.clockNow(),
		"fixtures": st.manifest,
	})
}

// seedOverridden words why a reset to scenario may not name seed: the scenario's file names a
// seed of its own, which wins (D145), so the seed sent would be dropped; "" when it may.
func (s *Server) seedOverridden(scenario string, seed int64) string {
	if f, ok := s.userScenarios()[scenario]; ok && f.Seed != 0 && f.Seed != seed {
		return fmt.Sprintf("The scenario %q names its own seed, %d, which a reset does not change; leave seed out, or send %d.", clip(scenario, 80), f.Seed, f.Seed)
	}
	return ""
}

// writeResetError answers a reset that failed: 422 under scenario when the scenario does not
// load in this world (a field rule, a date past year 9999 at its clock: D145), else 500.
func (s *Server) writeResetError(w http.ResponseWriter, wl *world, src Source, err error) {
	s.logger.Error("reset", "world", wl.name, "seed", src.Seed, "scenario", src.Scenario, "err", err)
	var ue *reference.Error
	var se *fixtures.ScenarioError
	var nr *errNoRoom
	if errors.As(err, &nr) {
		writeShapeA(w, noRoomStatus, nr.msg+"; the world is unchanged.")
		return
	}
	if errors.As(err, &ue) || errors.As(err, &se) {
		writeValidation(w, map[string][]string{"scenario": {"The scenario does not load: " + err.Error() + "."}})
		return
	}
	writeShapeA(w, http.StatusInternalServerError, "The world could not be reset.")
}

// maxSnapshot is the largest snapshot PUT /__mock/state accepts (D65): far past the seeded
// world (under 1 MiB) and a long test session's, so what GET answered for a world grown through
// the API goes back; a larger one loads with --state-file, which has no bound, and
// --max-records keeps a world from growing that far.
const maxSnapshot = 256 << 20

// snapshotTooLarge words the refusal of a snapshot past maxSnapshot.
var snapshotTooLarge = "The request body must not be larger than " + byteSize(maxSnapshot) + " (--state-file loads a snapshot of any size); the world is unchanged."

// smallSnapshot is the size of snapshot body that loads without waiting for another's load:
// the seeded world's is under 1 MiB.
const smallSnapshot = 2 << 20

// DecodeState reads a state file (StateFile): a snapshot as GET /__mock/state writes it, and
// the clock a state file may keep. JSON with no unknown fields, whose text is valid UTF-8 (D74:
// the bytes are checked as written, since decoding would turn bad text into U+FFFD).
// reference.New then checks the rules of every record (D76).
func DecodeState(b []byte) (StateFile, error) {
	if bad := snapshotTimeProblems(b); len(bad) > 0 {
		return StateFile{}, errors.New(strings.Join(bad, "; "))
	}
	var st StateFile
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&st); err != nil {
		return StateFile{}, errors.New(snapshotProblem(b, err, dec.InputOffset()))
	}
	if bad := inexactStateName(b); bad != "" {
		return StateFile{}, errors.New(bad)
	}
	if bad := nullRecord(b); bad != "" {
		return StateFile{}, errors.New(bad)
	}
	if bad := spec.InvalidText(b); len(bad) > 0 {
		return StateFile{}, fmt.Errorf("decode snapshot: %s must be valid UTF-8 text", strings.Join(bad, ", "))
	}
	if err := st.Clock.check(); err != nil {
		return StateFile{}, err
	}
	return st, nil
}

// snapshotProblem words a decoding error of a snapshot as the mock's controls word one, with
// the line it is on (D187): "line 3: The colour field is not known." at is where the decoder
// stopped, for errors that do not carry their offset.
func snapshotProblem(b []byte, err error, at int64) string {
	var syntax *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF):
		return "the file is empty; a state file is one JSON object as GET /__mock/state answers"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the file ends before its JSON does"
	case errors.As(err, &syntax):
		return fmt.Sprintf("line %d: not valid JSON (%s)", lineAt(b, syntax.Offset), jsonwords.Syntax(err))
	case errors.As(err, &te):
		at = te.Offset
	}
	bare, _ := controlFieldError(err)
	if i := bytes.LastIndex(b[:min(max(at, 0), int64(len(b)))], []byte(strconv.Quote(bare))); te == nil && i >= 0 {
		at = int64(i) // an unknown field: the decoder stopped after its value
	}
	_, msg := placedFieldError(b, err, at+int64(len(strconv.Quote(bare))))
	return fmt.Sprintf("line %d: %s", lineAt(b, at), msg)
}

// lineAt is the line of b that byte offset falls on, from 1.
func lineAt(b []byte, offset int64) int {
	return bytes.Count(b[:min(max(offset, 0), int64(len(b)))], []byte("\n")) + 1
}

// snapshotBuilding, when set, is called as each snapshot is built (a test counts them).
var snapshotBuilding func()

// handleStateGet answers the whole state of the request's world as JSON (reference.State).
func (s *Server) handleStateGet(w http.ResponseWriter, r *http.Request) {
	// One snapshot is built at a time, across all worlds and of any size (D65): only worlds past
	// largeRead took turns, each build held a copy of the records and an encoding that doubled
	// (writeSnapshot), and six GETs of a 60 MB world added 250 MB. The turn passes on once the
	// answer is built (answerbound.Turn), so a client that does not read holds its bytes (counted
	// by boundAnswers), not the others' turn; one that gives up waiting leaves the line.
	w, done, ok := s.snapshotTurn.Take(r.Context(), w)
	if !ok {
		return
	}
	defer done()
	w, release, ok := s.readWhole(w, r, s.worldOf(r))
	if !ok {
		return
	}
	defer release()
	if snapshotBuilding != nil {
		snapshotBuilding()
	}
	state := s.worldOf(r).state()
	if err := writeSnapshot(w, state.store.State(), SavedSource{Seed: state.source.Seed, Scenario: state.source.Scenario}); err != nil {
		s.logger.Error("encode state", "err", err)
	}
}

// handleStatePut replaces the world with the snapshot in the body. A snapshot that is not
// JSON answers 400 and one that does not load (unknown fields, text that is not UTF-8, broken
// field rules or references: D65, D74, D76) 422; the old world stays in both cases. The
// fixture manifest is checked against the new records (D102).
// writeSnapshotError answers a snapshot that does not load: 413 when it does not fit, else
// 422 naming each problem under state; the world is unchanged either way.
func writeSnapshotError(w http.ResponseWriter, err error) {
	var nr *errNoRoom
	if errors.As(err, &nr) {
		writeShapeA(w, http.StatusRequestEntityTooLarge, nr.msg+"; the world is unchanged.")
		return
	}
	writeValidation(w, map[string][]string{"state": snapshotProblems(err)})
}

func (s *Server) handleStatePut(w http.ResponseWriter, r *http.Request) {
	// One large snapshot loads at a time, server-wide (D65): a load of one holds several times
	// its size for seconds, and several at once would add up. A small one is read whole first
	// and loads without waiting; a large one is read whole too, its bytes counted against the
	// uploads' budget as they arrive, before it waits for its turn, so a client trickling a
	// body in holds nobody's turn, only what it has sent.
	if r.ContentLength > maxSnapshot { // refused unread: a client waiting on "100 Continue" sends nothing
		w.Header().Set("Connection", "close") // the body is still on the connection
		writeShapeA(w, http.StatusRequestEntityTooLarge, snapshotTooLarge)
		return
	}
	if small, _ := readBodyAhead(r, smallSnapshot); !small {
		held := s.uploads.HoldArriving(r, maxSnapshot+1)
		defer held.Release()
		switch all, err := readBodyAhead(r, maxSnapshot); {
		case errors.Is(err, inflight.ErrFull):
			w.Header().Set("Retry-After", "1")
			w.Header().Set("Connection", "close") // the rest of the body is still on the connection
			writeShapeA(w, http.StatusServiceUnavailable, fmt.Sprintf("The mock is receiving more snapshot bytes at once than it holds (%d MiB in all); try again in a moment. The world is unchanged.", maxSnapshot>>20))
			return
		case !all && err == nil: // past the bound: refused now, not read again to be measured
			w.Header().Set("Connection", "close")
			writeShapeA(w, http.StatusRequestEntityTooLarge, snapshotTooLarge)
			return
		}
		select {
		case s.loading <- struct{}{}:
			defer func() { <-s.loading }()
		case <-r.Context().Done():
			return
		}
	}
	var sent *StateFile
	if !decodeControlChecked(w, r, &sent, maxSnapshot, stateTimeFields) {
		return
	}
	if sent == nil { // an empty body or null: never read as "no records", which would wipe the world
		writeShapeA(w, http.StatusBadRequest, "The body is empty: a snapshot is one JSON object, as GET /__mock/state answers; the world is unchanged.")
		return
	}
	if err := sent.Clock.check(); err != nil {
		writeValidation(w, map[string][]string{"state": {"The snapshot does not load: " + err.Error() + "."}})
		return
	}
	st := sent.State
	if pendingFor(r) {
		// A world not there yet is made only for a snapshot that loads (D141): checked first.
		if err := checkSnapshot(st); err != nil {
			writeSnapshotError(w, err)
			return
		}
	}
	wl, ok := s.worldToChange(w, r)
	if !ok {
		return
	}
	if err := s.loadState(wl, st, sent.Source); err != nil {
		s.unmake(r)
		writeSnapshotError(w, err)
		return
	}
	sent.Clock.restore(wl.clock)
	markBuild(w, wl.state())
	writeJSON(w, http.StatusOK, map[string]any{"loaded": true, "users": len(st.Users), "cards": len(st.Cards)})
}

// stateTimeFields are a snapshot's date-times the API would refuse, under state, worded as the
// other rules of its records (snapshotProblems).
// Then a member named in another case than its field's (inexactStateName), or a record that
// is null (nullRecord), once the body is JSON (the decoder words other problems).
func stateTimeFields(body []byte) map[string][]string {
	bad := snapshotTimeProblems(body)
	if len(bad) == 0 && json.Valid(body) {
		if name := inexactStateName(body); name != "" {
			bad = []string{name}
		} else if null := nullRecord(body); null != "" {
			bad = []string{null}
		}
	}
	if len(bad) == 0 {
		return nil
	}
	out := make([]string, len(bad))
	for i, p := range bad {
		out[i] = "The snapshot does not load: " + p + "."
	}
	return map[string][]string{"state": out}
}

// snapshotProblems words why a snapshot does not load: each broken rule of its records on its
// own line (D76), else the one reason.
func snapshotProblems(err error) []string {
	var pl reference.ProblemList
	if !errors.As(err, &pl) {
		return []string{"The snapshot does not load: " + strings.TrimPrefix(err.Error(), "load state: ") + "."}
	}
	listed, more := pl.Listed()
	out := make([]string, 0, len(listed)+1)
	for _, p := range listed {
		out = append(out, "The snapshot does not load: "+p+".")
	}
	if more > 0 {
		out = append(out, fmt.Sprintf("The snapshot does not load: and %d more problems of the same kind.", more))
	}
	return out
}
