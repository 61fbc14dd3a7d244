package explore

import (
	"net/http"

	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// The registry ids (package conformance/rules, rendered to conformance/rules.md) of the
// properties explore mode checks: the suite, the proxy and explore mode cite one set of rules.
const (
	RuleSpecAnswer      = "DOC-1"
	RuleStatusListed    = "STATUS-1"
	RuleHeaders         = "HDR-1"
	RuleRetryAfter      = "HDR-2"
	RuleInvalidField    = "ERR-1"
	RuleValidAccepted   = "ERR-7"
	RuleNotFound        = "ERR-4"
	RuleListCount       = "LIST-1"
	RuleCommentPages    = "PAGE-1"
	RuleCartTotals      = "CART-2"
	RuleCartGone        = "CART-1"
	RuleCartToken       = "CART-3"
	RuleCartLocked      = "CART-4"
	RuleSyncIdempotent  = "SYNC-1"
	RuleDeprecateOnly   = "TRANS-4"
	RuleDeprecatedStays = "TRANS-5"
	RuleThumbLimit      = "LIMIT-3"
	RuleStatusMoves     = "TRANS-1"
)

// shapeRule is the registry rule of the body shape status calls for: the success envelope,
// (a), (b) or (c).
func shapeRule(status int) string {
	switch {
	case status < 300:
		return "ENV-1"
	case status == http.StatusUnprocessableEntity:
		return "ENV-4"
	case status == http.StatusUnauthorized || status == http.StatusForbidden || status == http.StatusTooManyRequests:
		return "ENV-3"
	}
	return "ENV-2"
}

// Rules are the registry's rules explore mode checks.
var Rules = func() []rules.Rule {
	var out []rules.Rule
	for _, r := range rules.All {
		if r.CheckedBy(rules.Explore) {
			out = append(out, r)
		}
	}
	return out
}()

// Statement returns the registry's statement of the rule id ("" when there is none).
func Statement(id string) string {
	r, _ := rules.ByID(id)
	return r.Statement
}
