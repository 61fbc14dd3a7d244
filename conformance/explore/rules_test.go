package explore

import (
	"testing"

	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// Every rule explore mode reports — the contract checker's (package conformance/check) and its
// own properties' — is marked as checked by explore mode, so rules.md tells a reader what a
// failure's id means. (A rule the registry lacks does not compile: ids are constants.)
func TestExploreCitesRegistryRules(t *testing.T) {
	t.Parallel() // each serves its own mock
	cited := []rules.ID{
		// The checker's, through the client's Exchange.Violations.
		rules.DOC1, rules.STATUS1, rules.ENV1, rules.ENV2, rules.ENV3, rules.ENV4, rules.HDR1, rules.HDR2,
		rules.ERR5, rules.ERR6,
		// Explore's own properties.
		rules.ERR1, rules.ERR7, rules.ERR4, rules.LIST1, rules.PAGE1, rules.CART1, rules.CART2, rules.CART3,
		rules.CART4, rules.SYNC1, rules.TRANS1, rules.TRANS4, rules.TRANS5, rules.LIMIT3, rules.SCOPE1, rules.LIMIT4, rules.AUTH7,
	}
	for _, id := range cited {
		r, _ := rules.ByID(id)
		switch {
		case !r.CheckedBy(rules.Explore):
			t.Errorf("explore cites %s, which the registry does not mark as checked by explore mode", id)
		case Statement(id) == "":
			t.Errorf("rule %s has no statement", id)
		}
	}
}
