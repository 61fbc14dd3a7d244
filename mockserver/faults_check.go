package mockserver

import (
	"strconv"

	"github.com/opsapi/mocktoolkit/reference"
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
		if rule.LatencyMS < 0 || rule.LatencyMS > MaxLatency.Milliseconds() {
			bad("latency_ms", reference.MsgBetween("latency_ms", "0", strconv.FormatInt(MaxLatency.Milliseconds(), 10)))
		}
	}
	if in.Times != nil && in.Probability != nil {
		bad("times", reference.MsgProhibits("times", "probability"))
	}
	if in.Times != nil {
		rule.Times = *in.Times
		if rule.Times < 1 {
			bad("times", reference.MsgMin("times", "1"))
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
