package mockserver

import (
	"fmt"
	"net/http"
)

// checkFault turns the body of POST /__mock/faults into a rule, or words what is wrong with
// each field (D5's style).
func (s *server) checkFault(in faultInput) (faultRule, map[string][]string) {
	fields := map[string][]string{}
	bad := func(field, msg string) { fields[field] = append(fields[field], msg) }
	rule := faultRule{Operation: in.Operation}
	codes, known := s.steering.codes[in.Operation]
	switch {
	case in.Operation == "":
		bad("operation", "The operation field is required: an operation id such as cardsCreate.")
	case !known:
		bad("operation", fmt.Sprintf("The operation %q is not an operation id of the interface.", in.Operation))
	}
	if in.Status == nil && in.LatencyMS == nil {
		bad("status", "Give a status, a latency_ms, or both.")
	}
	if in.Status != nil {
		rule.Status = *in.Status
		if rule.Status < 400 || rule.Status > 599 {
			bad("status", "The status must be an HTTP error status (400 to 599).")
		} else if known && !contains(codes, rule.Status) {
			bad("status", fmt.Sprintf("%s does not answer %d; it answers %s.", in.Operation, rule.Status, joinInts(codes)))
		}
	}
	if in.LatencyMS != nil {
		rule.LatencyMS = *in.LatencyMS
		if rule.LatencyMS < 0 || rule.LatencyMS > MaxLatency.Milliseconds() {
			bad("latency_ms", fmt.Sprintf("The latency_ms must be between 0 and %d.", MaxLatency.Milliseconds()))
		}
	}
	if in.Times != nil && in.Probability != nil {
		bad("times", "Give times or probability, not both.")
	}
	if in.Times != nil {
		rule.Times = *in.Times
		if rule.Times < 1 {
			bad("times", "The times must be at least 1.")
		}
	}
	if in.Probability != nil {
		rule.Probability = *in.Probability
		if !(rule.Probability > 0 && rule.Probability <= 1) {
			bad("probability", "The probability must be greater than 0 and at most 1.")
		}
	}
	return rule, fields
}

// decodeControl reads the JSON body of a control into v: empty counts as {}; malformed JSON
// answers 400 shape (a); an unknown field or a value of the wrong type answers 422 shape (c).
func decodeControl(w http.ResponseWriter, r *http.Request, v any) bool {
	return decodeControlMax(w, r, v, maxBody)
}
