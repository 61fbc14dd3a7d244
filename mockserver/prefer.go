package mockserver

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/opsapi/mocktoolkit/reference"
)

// forcedRetryAfter is the Retry-After of a forced 429.
const forcedRetryAfter = 60 * time.Second

// steer applies the steering of an operation after its rate limit and before its auth:
// the delay of --latency and of a matching fault rule, then a status forced by the Prefer
// header or by the rule. It reports whether the operation should go on.
func (s *Server) steer(w http.ResponseWriter, r *http.Request, wl *world, rt *route) bool {
	st := s.steering
	code, msg := preferred(r.Header, rt)
	if msg != "" {
		writeShapeA(w, http.StatusBadRequest, msg)
		return false
	}
	rule, fired := wl.faults.fire(rt.id, wl.rand)
	delay := st.latency.draw(wl.rand)
	if fired {
		delay += time.Duration(rule.LatencyMS) * time.Millisecond
	}
	if !sleep(r.Context(), delay) {
		return false
	}
	switch {
	case code != 0:
		w.Header().Set("X-Mock-Forced", "prefer")
		force(w, rt, code)
		return false
	case fired && rule.Status != 0:
		w.Header().Set("X-Mock-Forced", "fault "+strconv.FormatInt(rule.ID, 10))
		force(w, rt, rule.Status)
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
	raw, ok := preferCode(h)
	if !ok {
		return 0, ""
	}
	code, err := strconv.Atoi(raw)
	if err != nil || !contains(rt.codes, code) {
		return 0, "Prefer: code=" + raw + " is not an answer of " + rt.id + "; it answers " + joinInts(rt.codes) + "."
	}
	if code < 300 {
		return 0, ""
	}
	return code, ""
}

// preferCode finds the code preference among every Prefer header, split on commas and
// semicolons.
func preferCode(h http.Header) (string, bool) {
	for _, v := range h.Values("Prefer") {
		for _, part := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ';' }) {
			k, val, ok := strings.Cut(strings.TrimSpace(part), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "code") {
				return strings.Trim(strings.TrimSpace(val), `"`), true
			}
		}
	}
	return "", false
}

// force answers status in the interface's body shape for it: (a) for 400, 404, 409 and 500;
// (b) for 401, 403 and 429 (with Retry-After); (c) for 422, naming the operation's first field.
func force(w http.ResponseWriter, rt *route, status int) {
	switch status {
	case http.StatusUnauthorized:
		writeShapeB(w, status, "Unauthenticated.")
	case http.StatusForbidden:
		writeShapeB(w, status, "This action is unauthorized.")
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
