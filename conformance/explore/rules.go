package explore

import "github.com/opsapi/mocktoolkit/conformance/rules"

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
