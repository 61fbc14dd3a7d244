package explore

import (
	"strings"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/rules"
)

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
func Statement(id rules.ID) string {
	r, _ := rules.ByID(id)
	return r.Statement
}

// aspectOf is the suite's aspect of a regression spec of rule id, for its labels and the
// summary: by the rule's family.
func aspectOf(id rules.ID) string {
	family, _, _ := strings.Cut(string(id), "-")
	switch {
	case id == rules.ERR4, id == rules.ERR8:
		return conformance.AspectNotFound
	case family == "AUTH":
		return conformance.AspectAuth
	case family == "ERR":
		return conformance.AspectValidation
	case family == "LIMIT", family == "HDR":
		return conformance.AspectRateLimit
	case family == "ISO", family == "SCOPE":
		return conformance.AspectIsolation
	case family == "ENV", family == "DOC", family == "STATUS", family == "ID":
		return conformance.AspectEnvelope
	}
	return conformance.AspectTransition // lists, pages, carts, syncs, pushes, statuses
}
