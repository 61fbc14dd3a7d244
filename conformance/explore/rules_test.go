package explore

import (
	"testing"

	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// Every rule explore mode cites is in the registry and marked as checked by explore mode, so
// rules.md tells a reader what a failure's id means.
func TestExploreCitesRegistryRules(t *testing.T) {
	cited := []string{RuleSpecAnswer, RuleStatusListed, RuleHeaders, RuleRetryAfter, RuleInvalidField,
		RuleValidAccepted, RuleNotFound, RuleListCount, RuleCommentPages, RuleCartTotals, RuleCartGone,
		RuleCartToken, RuleCartLocked, RuleSyncIdempotent, RuleDeprecateOnly, RuleDeprecatedStays,
		RuleThumbLimit, RuleStatusMoves}
	for _, status := range []int{200, 201, 400, 401, 403, 404, 409, 422, 429, 500} {
		cited = append(cited, shapeRule(status))
	}
	for _, id := range cited {
		r, ok := rules.ByID(id)
		switch {
		case !ok:
			t.Errorf("explore cites %s, which the registry lacks", id)
		case !r.CheckedBy(rules.Explore):
			t.Errorf("explore cites %s, which the registry does not mark as checked by explore mode", id)
		case Statement(id) == "":
			t.Errorf("rule %s has no statement", id)
		}
	}
}
