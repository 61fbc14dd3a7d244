package conformance

import "github.com/onsi/gomega/format"

// Gomega prints a string it compares as it is (Equal, ContainSubstring): a deployment's text
// in such a failure would reach the terminal, junit.xml and conformance.json raw, able to clear
// or recolour the log or reorder how it reads. A string with such characters is written with
// them escaped, as the suite's own matchers write an exchange.
func init() {
	format.RegisterCustomFormatter(func(v any) (string, bool) {
		s, ok := v.(string)
		if !ok {
			return "", false
		}
		if p := printable(s); p != s {
			return p, true
		}
		return "", false
	})
}
