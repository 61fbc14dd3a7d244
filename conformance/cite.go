package conformance

import "github.com/opsapi/mocktoolkit/conformance/rules"

// Cite renders rule id for a failure message (rules.Cite): every contract spec carries a
// `rule:<ID>` label for each rule it checks (package conformance/rules, shared with the
// validating proxy) and every failure message cites the rule, so a vendor needs no other
// document to read a verdict.
func Cite(id rules.ID) string { return rules.Cite(id) }
