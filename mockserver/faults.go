package mockserver

import (
	"net/http"
	"sync"
)

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

// faultRules are the rules in the order they were added.
type faultRules struct {
	mu     sync.Mutex
	nextID int64
	rules  []faultRule
}

func (f *faultRules) add(r faultRule) faultRule {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.nextID++
	r.ID = f.nextID
	r.Remaining = r.Times
	f.rules = append(f.rules, r)
	return r
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
	if !decodeControl(w, r, &in, maxBody) {
		return
	}
	rule, fields := s.checkFault(in)
	if len(fields) > 0 {
		writeValidation(w, fields)
		return
	}
	writeJSON(w, http.StatusCreated, s.worldOf(r).faults.add(rule))
}
