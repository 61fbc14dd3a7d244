package conformance

import "github.com/opsapi/mocktoolkit/conformance/rules"

// Rule is one rule of the registry (package conformance/rules, shared with the validating
// proxy). Every contract spec carries a `rule:<ID>` label for each rule it checks, and every
// failure message cites the rule (Cite), so a vendor needs no other document to read a verdict.
type Rule = rules.Rule

// Rules is the registry (rules.All), rendered to conformance/rules.md.
var Rules = rules.All

// RuleByID returns the rule with id.
func RuleByID(id string) (Rule, bool) { return rules.ByID(id) }

// Cite renders rule id for a failure message (rules.Cite).
func Cite(id string) string { return rules.Cite(id) }

// RulesMarkdown renders the registry as the Markdown of conformance/rules.md.
func RulesMarkdown() string { return rules.Markdown() }

// RuleIDs lists the ids of the registry, sorted.
func RuleIDs() []string { return rules.IDs() }

// The citations the specs pass as Gomega's optional description.
var (
	RuleConventions3 = Cite("ENV-1")
	RuleShapeA       = Cite("ENV-2")
	RuleShapeB       = Cite("ENV-3")
	RuleSpecDocument = Cite("DOC-1")
	RuleListedCodes  = Cite("STATUS-2")
	RuleSuccess      = Cite("DATA-1")
	RuleHeaders      = Cite("HDR-1")
	RuleRemaining    = Cite("LIMIT-1")
	RuleLimit429     = Cite("LIMIT-2")
	RuleRetryAfter   = Cite("LIMIT-2")
	RuleThumbLimit   = Cite("LIMIT-3")
	RuleAuth1        = Cite("AUTH-1")
	RuleAuth2        = Cite("AUTH-2")
	RuleAuth3        = Cite("AUTH-3")
	RuleAuth5        = Cite("AUTH-4")
	RuleLogin        = Cite("AUTH-5")
	RuleErrors1      = Cite("ERR-1")
	RuleErrors1Body  = Cite("ERR-1")
	RuleLimits       = Cite("ERR-2")
	RuleBoundOK      = Cite("ERR-3")
	RuleErrors2      = Cite("ERR-4")
	RuleCart22       = Cite("CART-1")
	RuleCartCounts   = Cite("CART-2")
	RuleCartToken    = Cite("CART-3")
	RuleErrors3      = Cite("CART-4")
	RuleStatusMove   = Cite("TRANS-1")
	RuleRestore      = Cite("TRANS-2")
	RuleDeprecate    = Cite("TRANS-3")
	RuleNotApproved  = Cite("TRANS-4")
	RulePush         = Cite("PUSH-1")
	RuleSync         = Cite("SYNC-1")
	RuleSnooze       = Cite("SNOOZE-1")
	RuleGroupsDelete = Cite("GROUP-1")
	RuleComments     = Cite("COMMENT-1")
	RulePagination   = Cite("PAGE-1")
	RuleIsolation    = Cite("ISO-1")
	RuleStatus       = Cite("STATUS-1")
)
