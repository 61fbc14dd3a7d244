package mockserver

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/opsapi/mocktoolkit/internal/hostguard"
	"github.com/opsapi/mocktoolkit/internal/prefer"
	"github.com/opsapi/mocktoolkit/reference"
)

// steering holds what the configuration fixes for every world: latency, admin token, CORS
// origins and the hosts the controls answer (D103). What the controls change (fault rules, the
// journal, random draws) belongs to each world (world.go).
type steering struct {
	latency Latency
	admin   string
	cors    corsPolicy
	hosts   hostguard.Policy

	ctrlMethods map[string]string // by control path: its methods, comma separated
}

func newSteering(cfg Config) *steering {
	return &steering{
		latency: cfg.Latency,
		admin:   cfg.AdminToken,
		cors:    newCORSPolicy(cfg.CORSOrigins),
		hosts:   hostguard.New(cfg.AllowedHosts),
	}
}

// draws is the mock's seeded random source for latency ranges and fault probabilities, so a
// test that resets to a seed sees the same draws every run.
type draws struct {
	mu sync.Mutex
	r  *rand.Rand
}

func newDraws(seed int64) *draws {
	d := &draws{}
	d.reseed(seed)
	return d
}

func (d *draws) reseed(seed int64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.r = rand.New(rand.NewPCG(uint64(seed), 0x6d6f636b))
}

// float64 draws in [0, 1).
func (d *draws) float64() float64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.r.Float64()
}

// duration draws in [min, max].
func (d *draws) duration(min, max time.Duration) time.Duration {
	if max <= min {
		return min
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return min + time.Duration(d.r.Int64N(int64(max-min)+1))
}

// ErrStopping is the cause a server cancels its requests' context with when the mock stops with
// requests still held by a delay (--latency, a fault rule's latency): the rest of the delay is
// skipped and each is answered as if it had passed (D203).
var ErrStopping = errors.New("the mock is stopping")

// sleep waits d, or less if ctx ends first; it reports whether the whole delay passed.
func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// faultRule is a persistent fault of /__mock/faults: on calls to Operation, answer Status
// and/or add LatencyMS, for the next Times calls (Remaining counts down; the rule goes away at
// zero), with Probability per call, or on every call when neither is set.
type faultRule struct {
	ID          int64   `json:"id"`
	Operation   string  `json:"operation"`
	Status      int     `json:"status,omitempty"`
	LatencyMS   int64   `json:"latency_ms,omitempty"`
	Times       int     `json:"times,omitempty"`
	Remaining   int     `json:"remaining,omitempty"`
	Probability float64 `json:"probability,omitempty"`
}

// faultInput is the body of POST /__mock/faults.
type faultInput struct {
	Operation   string   `json:"operation"`
	Status      *int     `json:"status"`
	LatencyMS   *int64   `json:"latency_ms"`
	Times       *int     `json:"times"`
	Probability *float64 `json:"probability"`
}

// Bounds of a world's fault rules (D61): a looping test helper that adds a rule per test must
// not grow the mock without end, and times is a count a JavaScript client reads exactly.
const (
	maxFaultRules = 100
	maxFaultTimes = 1_000_000
)

// faultRules are the rules in the order they were added.
type faultRules struct {
	mu     sync.Mutex
	nextID int64
	rules  []faultRule
}

// add keeps r, unless the world already holds maxFaultRules.
func (f *faultRules) add(r faultRule) (faultRule, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.rules) >= maxFaultRules {
		return faultRule{}, false
	}
	f.nextID++
	r.ID = f.nextID
	r.Remaining = r.Times
	f.rules = append(f.rules, r)
	return r, true
}

func (f *faultRules) list() []faultRule {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]faultRule{}, f.rules...)
}

func (f *faultRules) clear() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.rules = nil
}

// fire finds the first rule of opID that fires on this call: a counted rule spends one of its
// calls, a probable one draws. It returns that rule as it was before the call.
func (f *faultRules) fire(opID string, d *draws) (faultRule, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, r := range f.rules {
		if r.Operation != opID {
			continue
		}
		if r.Probability > 0 && d.float64() >= r.Probability {
			continue
		}
		if r.Times > 0 {
			f.rules[i].Remaining--
			if f.rules[i].Remaining == 0 {
				f.rules = append(f.rules[:i:i], f.rules[i+1:]...)
			}
		}
		return r, true
	}
	return faultRule{}, false
}

// handleFaultsList answers the fault rules of the request's world.
func (s *Server) handleFaultsList(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"faults": s.worldOf(r).faults.list()})
}

// handleFaultsClear removes every fault rule.
func (s *Server) handleFaultsClear(w http.ResponseWriter, r *http.Request) {
	s.worldOf(r).faults.clear()
	writeJSON(w, http.StatusOK, map[string]any{"faults": []faultRule{}})
}

// handleFaultsAdd adds a fault rule: 201 with the rule, 422 naming each wrong field.
func (s *Server) handleFaultsAdd(w http.ResponseWriter, r *http.Request) {
	var in faultInput
	if !decodeControlChecked(w, r, &in, maxBody, pastInt64(map[string]func(bool) string{
		"status":     func(bool) string { return reference.MsgBetween("status", "400", "599") },
		"latency_ms": func(bool) string { return latencyRangeMessage },
		"times":      func(bool) string { return timesRangeMessage },
	})) {
		return
	}
	rule, fields := s.checkFault(in)
	if len(fields) > 0 {
		writeValidation(w, fields)
		return
	}
	wl, ok := s.worldToChange(w, r)
	if !ok {
		return
	}
	added, ok := wl.faults.add(rule)
	if !ok {
		writeShapeA(w, http.StatusConflict, fmt.Sprintf("The world holds %d fault rules, the most it keeps; DELETE /__mock/faults clears them. Nothing was added.", maxFaultRules))
		return
	}
	writeJSON(w, http.StatusCreated, added)
}

// The ranges of a fault rule's latency_ms and times, worded once for values in and past 64 bits.
var (
	latencyRangeMessage = reference.MsgBetween("latency_ms", "0", strconv.FormatInt(MaxLatency.Milliseconds(), 10))
	timesRangeMessage   = reference.MsgBetween("times", "1", strconv.Itoa(maxFaultTimes))
)

// checkFault turns the body of POST /__mock/faults into a rule, or words what is wrong with
// each field (D5's style).
func (s *Server) checkFault(in faultInput) (faultRule, map[string][]string) {
	fields := map[string][]string{}
	bad := func(field, msg string) { fields[field] = append(fields[field], msg) }
	rule := faultRule{Operation: in.Operation}
	rt, known := s.routeByID(in.Operation)
	var codes []int // the error statuses the operation lists: what a fault may answer
	if known {
		for _, c := range rt.codes {
			if c >= 400 {
				codes = append(codes, c)
			}
		}
	}
	switch {
	case in.Operation == "":
		bad("operation", reference.MsgRequired("operation")+" Give an operation id such as cardsCreate.")
	case !known:
		bad("operation", reference.MsgOneOf("operation", s.operationIDs()))
	}
	if in.Status == nil && in.LatencyMS == nil {
		bad("status", reference.MsgRequiredWithout("status", "latency_ms"))
	}
	if in.Status != nil {
		rule.Status = *in.Status
		if rule.Status < 400 || rule.Status > 599 {
			bad("status", reference.MsgBetween("status", "400", "599"))
		} else if known && !contains(codes, rule.Status) {
			bad("status", reference.MsgOneOf("status", codeStrings(codes)))
		}
	}
	if in.LatencyMS != nil {
		rule.LatencyMS = *in.LatencyMS
		switch {
		case rule.LatencyMS < 0 || rule.LatencyMS > MaxLatency.Milliseconds():
			bad("latency_ms", latencyRangeMessage)
		case rule.LatencyMS == 0 && in.Status == nil:
			// A rule that neither answers a status nor delays would only shadow the rules
			// after it (the first matching rule fires).
			bad("latency_ms", "The latency_ms must be at least 1 when no status is given: a rule of neither a status nor a delay changes nothing, and would keep the rules added after it from firing.")
		}
	}
	if in.Times != nil && in.Probability != nil {
		bad("times", reference.MsgProhibits("times", "probability"))
	}
	if in.Times != nil {
		rule.Times = *in.Times
		if rule.Times < 1 || rule.Times > maxFaultTimes {
			bad("times", timesRangeMessage)
		}
	}
	if in.Probability != nil {
		rule.Probability = *in.Probability
		switch {
		case !(rule.Probability > 0):
			bad("probability", reference.MsgGreaterThan("probability", "0"))
		case rule.Probability > 1:
			bad("probability", reference.MsgMax("probability", "1"))
		}
	}
	return rule, fields
}

// MaxLatency is the longest delay --latency (Config.Latency) may add to an answer, and the
// longest latency_ms of a fault rule (D61).
const MaxLatency = 30 * time.Second

// MaxDelay is the longest the mock holds an answer on purpose: --latency and a fault rule's
// latency_ms add up, each at most MaxLatency. A server running the mock must let a request
// live at least this long beyond its own read and write time (D78); cmd/mockserver derives
// its timeouts from it.
const MaxDelay = 2 * MaxLatency

// Latency is a delay added to every operation: Min when Max is not larger, otherwise a draw
// in [Min, Max] from the mock's seeded random source.
type Latency struct {
	Min, Max time.Duration
}

// ParseLatency reads a --latency value: a duration ("250ms", "1s"), a number of milliseconds
// ("250"), or a range of either ("100ms-400ms", "100-400"). The empty string is no latency.
func ParseLatency(s string) (Latency, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Latency{}, nil
	}
	if strings.HasPrefix(s, "-") {
		return Latency{}, fmt.Errorf("parse latency %q: a delay is not negative", s)
	}
	lo, hi, ranged := strings.Cut(s, "-")
	min, err := parseDelay(lo)
	if err != nil {
		return Latency{}, fmt.Errorf("parse latency %q: %w", s, err)
	}
	max := min
	if ranged {
		if max, err = parseDelay(hi); err != nil {
			return Latency{}, fmt.Errorf("parse latency %q: %w", s, err)
		}
	}
	if max < min {
		return Latency{}, fmt.Errorf("parse latency %q: the range ends before it starts", s)
	}
	if max > MaxLatency {
		return Latency{}, fmt.Errorf("parse latency %q: at most %s", s, MaxLatency)
	}
	return Latency{Min: min, Max: max}, nil
}

func parseDelay(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if ms, err := strconv.ParseInt(s, 10, 64); err == nil {
		if ms < 0 || ms > MaxLatency.Milliseconds() {
			return 0, fmt.Errorf("want 0 to %d milliseconds, got %s", MaxLatency.Milliseconds(), s)
		}
		return time.Duration(ms) * time.Millisecond, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("want a duration such as 250ms or a number of milliseconds, got %q", s)
	}
	return d, nil
}

// String writes the latency as ParseLatency reads it.
func (l Latency) String() string {
	if l.Max <= l.Min {
		return l.Min.String()
	}
	return l.Min.String() + "-" + l.Max.String()
}

// draw picks this answer's delay.
func (l Latency) draw(d *draws) time.Duration {
	if l.Max <= l.Min {
		return l.Min
	}
	return d.duration(l.Min, l.Max)
}

// forcedRetryAfter is the Retry-After of a forced 429.
const forcedRetryAfter = 60 * time.Second

// steer applies the steering of an operation after its rate limit and before its auth:
// the delay of --latency and of a matching fault rule, then a status forced by the Prefer
// header or by the rule. It reports whether the operation should go on.
func (s *Server) steer(w http.ResponseWriter, r *http.Request, wl *world, rt *route) bool {
	st := s.steering
	code, msg := preferred(r.Header, rt)
	if msg != "" {
		w.Header().Set(prefer.Refused, prefer.RefusedCode)
		writeShapeA(w, http.StatusBadRequest, msg)
		return false
	}
	rule, fired := wl.faults.fire(rt.id, wl.rand)
	delay := st.latency.draw(wl.rand)
	if fired {
		delay += time.Duration(rule.LatencyMS) * time.Millisecond
	}
	if !sleep(r.Context(), delay) && !errors.Is(context.Cause(r.Context()), ErrStopping) {
		return false // the client went away
	}
	switch {
	case code != 0:
		w.Header().Set("X-Mock-Forced", "prefer")
		s.force(w, rt, code)
		return false
	case fired && rule.Status != 0:
		w.Header().Set("X-Mock-Forced", "fault "+strconv.FormatInt(rule.ID, 10))
		s.force(w, rt, rule.Status)
		return false
	}
	return true
}

// preferred reads `Prefer: code=NNN` (Prism's form; other preferences such as example=... are
// ignored). It returns the error status to force, 0 to run the operation (no code, or a success
// code the operation lists), or a message when the code is not one the operation lists.
func preferred(h http.Header, rt *route) (int, string) {
	if len(h["Prefer"]) == 0 {
		return 0, ""
	}
	raw, ok := prefer.Code(h)
	if !ok {
		return 0, ""
	}
	if strings.Contains(raw, " and ") {
		return 0, "Prefer asks for more than one code (" + raw + "): ask for one; " + rt.id + " answers " + joinInts(rt.codes) + "."
	}
	code, ok := prefer.Status(raw)
	if !ok || !contains(rt.codes, code) {
		return 0, "Prefer asks for the status " + raw + ", which is not an answer of " + rt.id + "; it answers " + joinInts(rt.codes) + "."
	}
	if code < 300 {
		return 0, ""
	}
	return code, ""
}

// force answers status as the operation itself answers it: its own refusal of that status
// where it has one (authenticate's 401, the thumbnails' limit), else in the body shape the
// status takes: (a) for 400, 404, 409 and 500; (b) for 401 and 429 (with Retry-After); (c)
// for 422, naming the operation's first field; a 403 as the operation refuses (D4): (b) as the
// superadmin check of an S operation, (a) as a domain refusal elsewhere.
func (s *Server) force(w http.ResponseWriter, rt *route, status int) {
	if own, ok := rt.refusals[status]; ok {
		if a, err := own(); err != nil {
			s.writeError(w, rt, err)
		} else {
			s.writeAnswer(w, rt, a)
		}
		return
	}
	switch status {
	case http.StatusUnauthorized:
		writeShapeB(w, status, rt.refusal(status))
	case http.StatusForbidden:
		if rt.access == accessSuperadmin {
			writeShapeB(w, status, rt.refusal(status))
			break
		}
		writeShapeA(w, status, "This action is unauthorized.")
	case http.StatusTooManyRequests:
		writeRateLimited(w, "Too many requests.", forcedRetryAfter)
	case http.StatusUnprocessableEntity:
		writeValidation(w, map[string][]string{rt.firstField: {reference.MsgInvalid(rt.firstField)}})
	case http.StatusNotFound:
		writeShapeA(w, status, "The requested record could not be found.")
	case http.StatusConflict:
		writeShapeA(w, status, "The cart is locked for checkout.")
	case http.StatusInternalServerError:
		writeShapeA(w, status, "Internal server error.")
	case http.StatusBadRequest:
		writeShapeA(w, status, "Bad request.")
	default:
		writeShapeA(w, status, http.StatusText(status))
	}
}

func contains(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func codeStrings(list []int) []string {
	s := make([]string, len(list))
	for i, v := range list {
		s[i] = strconv.Itoa(v)
	}
	return s
}

func joinInts(list []int) string { return strings.Join(codeStrings(list), ", ") }
