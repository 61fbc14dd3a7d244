package proxy

import (
	"sort"
	"sync"
	"time"

	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// stats counts every exchange for the reports, beyond what the bounded journal keeps.
type stats struct {
	mu         sync.Mutex
	exchanges  int
	checked    int
	deployment int
	client     int
	unjudged   int                 // checked exchanges whose request or answer body was not judged
	ops        map[string]*opStats // by operation id
}

type opStats struct {
	exchanges int
	unjudged  int // exchanges whose request or answer body was not judged
	rules     map[rules.ID]*RuleCount
}

// RuleCount is how many exchanges broke one rule, with the first that did.
type RuleCount struct {
	Rule      rules.ID `json:"rule"`
	Party     Party    `json:"party"`
	Statement string   `json:"statement"`
	Count     int      `json:"count"`
	First     Example  `json:"first"`
}

// Example points at one exchange that broke a rule.
type Example struct {
	ExchangeID int64  `json:"exchange_id"`
	Method     string `json:"method"`
	Path       string `json:"path"`
	Status     int    `json:"status"`
	Detail     string `json:"detail"`
}

func newStats() *stats { return &stats{ops: map[string]*opStats{}} }

// add counts one journaled exchange (id is its journal id); bodyJudged is false when its
// request or answer body was not judged (too large, or in an encoding the proxy does not read).
func (s *stats) add(e Exchange, id int64, checked, bodyJudged bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.exchanges++
	if !checked {
		return
	}
	s.checked++
	op := s.ops[e.Operation]
	if op == nil {
		op = &opStats{rules: map[rules.ID]*RuleCount{}}
		s.ops[e.Operation] = op
	}
	op.exchanges++
	if !bodyJudged {
		op.unjudged++
		s.unjudged++
	}
	seen := map[rules.ID]bool{} // a rule counts once an exchange, as the verdict header lists it
	for _, v := range e.Violations {
		if seen[v.Rule] {
			continue
		}
		seen[v.Rule] = true
		if v.Party == Client {
			s.client++
		} else {
			s.deployment++
		}
		s.chargedOf(op, v).count(e, id, v)
	}
}

// chargedOf is the operation v is counted under: the one that broke it (a create a list does not
// show, v.Operation), else the exchange's own, op.
func (s *stats) chargedOf(op *opStats, v Violation) *opStats {
	if v.Operation == "" {
		return op
	}
	charged := s.ops[v.Operation]
	if charged == nil {
		charged = &opStats{rules: map[rules.ID]*RuleCount{}}
		s.ops[v.Operation] = charged
	}
	return charged
}

// count adds one exchange breaking v's rule; the first is kept as the example.
func (op *opStats) count(e Exchange, id int64, v Violation) {
	rc := op.rules[v.Rule]
	if rc == nil {
		rule := rulesByID[v.Rule]
		rc = &RuleCount{Rule: v.Rule, Party: rule.Party, Statement: rule.Statement,
			First: Example{ExchangeID: id, Method: e.Method, Path: e.Path, Status: e.Status, Detail: v.Detail}}
		op.rules[v.Rule] = rc
	}
	rc.Count++
}

// late counts v, found after exchange id was counted (an answer that broke off while it
// streamed); wasUnjudged says add counted it in bodies_unjudged, which an answer no client can
// read whole is not.
func (s *stats) late(e Exchange, id int64, v Violation, wasUnjudged bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	op := s.ops[e.Operation]
	if op == nil {
		return // not checked: not counted
	}
	if wasUnjudged {
		op.unjudged--
		s.unjudged--
	}
	s.deployment++
	s.chargedOf(op, v).count(e, id, v)
}

// Report is the summary of a run, as --report-json writes it.
type Report struct {
	Upstream  string    `json:"upstream"`
	Started   time.Time `json:"started"`
	Finished  time.Time `json:"finished"`
	Exchanges int       `json:"exchanges"`
	Checked   int       `json:"checked"`
	// BodiesUnjudged counts the checked exchanges whose request or answer body was not judged (over the
	// read-ahead bound, or in an encoding the proxy does not read): only status and headers were.
	BodiesUnjudged       int               `json:"bodies_unjudged"`
	DeploymentViolations int               `json:"deployment_violations"`
	ClientViolations     int               `json:"client_violations"`
	Operations           []OperationReport `json:"operations"`
	Rules                []Rule            `json:"rules"`
}

// OperationReport is one operation's part of a Report; operations no exchange reached are
// listed with zero exchanges.
type OperationReport struct {
	Operation string `json:"operation"`
	Path      string `json:"path"`
	Exchanges int    `json:"exchanges"`
	// BodiesUnjudged is as the Report's, for this operation.
	BodiesUnjudged int         `json:"bodies_unjudged"`
	Violations     []RuleCount `json:"violations"`
}

// Report summarises every exchange so far.
func (p *Proxy) Report() Report {
	s := p.stats
	s.mu.Lock()
	defer s.mu.Unlock()
	r := Report{
		Upstream: p.upstream.Redacted(), Started: p.started.UTC(), Finished: time.Now().UTC(),
		Exchanges: s.exchanges, Checked: s.checked, BodiesUnjudged: s.unjudged,
		DeploymentViolations: s.deployment, ClientViolations: s.client, Rules: Rules,
	}
	for path, op := range p.ops {
		or := OperationReport{Operation: op.ID, Path: path, Violations: []RuleCount{}}
		if st := s.ops[op.ID]; st != nil {
			or.Exchanges, or.BodiesUnjudged = st.exchanges, st.unjudged
			for _, rule := range Rules {
				if rc := st.rules[rule.ID]; rc != nil {
					or.Violations = append(or.Violations, *rc)
				}
			}
		}
		r.Operations = append(r.Operations, or)
	}
	sort.Slice(r.Operations, func(i, j int) bool { return r.Operations[i].Operation < r.Operations[j].Operation })
	return r
}

// DeploymentViolations counts the violations of the deployment's rules seen so far (what
// --fail-on-violation looks at).
func (p *Proxy) DeploymentViolations() int {
	p.stats.mu.Lock()
	defer p.stats.mu.Unlock()
	return p.stats.deployment
}
