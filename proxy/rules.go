package proxy

import "github.com/opsapi/mocktoolkit/conformance/rules"

// Party says whose fault a violation is.
type Party string

const (
	// Deployment violations are the upstream's: its answer breaks the contract.
	Deployment Party = "deployment"
	// Client violations are the caller's: its request breaks the contract.
	Client Party = "client"
)

// Rule is one contract rule a single exchange can show broken: a rule of the registry
// (package conformance/rules, rendered to conformance/rules.md) that the proxy checks.
type Rule struct {
	// ID is the registry's id, as it appears in X-Contract-Violations and the reports.
	ID rules.ID `json:"id"`
	// Statement is the registry's statement of the rule.
	Statement string `json:"statement"`
	// Party is who breaks the rule when it is broken.
	Party Party `json:"party"`
}

// Rules is the table of every rule the proxy checks, in the registry's order: the registry's
// rules marked as checked by the proxy (docs/decisions.md, D90–D98).
var Rules = func() []Rule {
	var out []Rule
	for _, r := range rules.All {
		if !r.CheckedBy(rules.Proxy) {
			continue
		}
		party := Deployment
		if r.Client {
			party = Client
		}
		out = append(out, Rule{ID: r.ID, Statement: r.Statement, Party: party})
	}
	return out
}()

// rulesByID indexes Rules.
var rulesByID = func() map[rules.ID]Rule {
	m := make(map[rules.ID]Rule, len(Rules))
	for _, r := range Rules {
		m[r.ID] = r
	}
	return m
}()

// Violation is one rule broken by one exchange.
type Violation struct {
	Rule   rules.ID `json:"rule"`
	Party  Party    `json:"party"`
	Detail string   `json:"detail"`
	// Operation is the operation that broke the rule when it is not this exchange's: a list
	// shows LIST-1, which the creates before it broke. The reports count it there.
	Operation string `json:"operation,omitempty"`
}

// violation builds a Violation of rule id with a detail.
func violation(id rules.ID, detail string) Violation {
	return Violation{Rule: id, Party: rulesByID[id].Party, Detail: detail}
}
