package report

import (
	"encoding/xml"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/onsi/ginkgo/v2/reporters"

	"github.com/opsapi/mocktoolkit/conformance"
)

var (
	opLabel   = regexp.MustCompile(`\bop:([A-Za-z]+)\b`)
	flowLabel = regexp.MustCompile(`\[` + conformance.LabelFlow + `[,\]]`)
)

// GroupJUnitByOperation rewrites the JUnit report at path so that each test case's classname is
// its operation id (from its op:<id> label) instead of the suite's name: CI tools then group the
// verdict per operation; a replayed flow's is "flow". Other test cases (suite setup) keep their
// classname. Specs the label filter left out are dropped: a flow replay's report held hundreds
// of skipped cases besides the flow's, which the summary never counts either.
func GroupJUnitByOperation(path string) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("group junit report: %w", err)
	}
	var suites reporters.JUnitTestSuites
	if err := xml.Unmarshal(raw, &suites); err != nil {
		return fmt.Errorf("group junit report %s: %w", path, err)
	}
	for i := range suites.TestSuites {
		suite := &suites.TestSuites[i]
		kept := suite.TestCases[:0]
		for _, c := range suite.TestCases {
			if filteredOut(c) {
				suite.Tests, suite.Skipped = suite.Tests-1, suite.Skipped-1
				suites.Tests, suites.Disabled = suites.Tests-1, suites.Disabled-1
				continue
			}
			if m := opLabel.FindStringSubmatch(c.Name); m != nil {
				c.Classname = m[1]
			} else if flowLabel.MatchString(c.Name) {
				c.Classname = conformance.LabelFlow // a replayed flow: one test case per flow
			}
			if c.Failure != nil {
				// The failure's type names the rules it cites as broken (a CI tool shows the
				// type beside the message): "failed" said nothing.
				if m := citedRule.FindAllStringSubmatch(c.Failure.Description+" "+c.Failure.Message, -1); len(m) > 0 {
					seen := map[string]bool{}
					var ids []string
					for _, x := range m {
						if !seen[x[1]] {
							seen[x[1]] = true
							ids = append(ids, x[1])
						}
					}
					c.Failure.Type = "rule " + strings.Join(ids, ", ")
				}
			}
			kept = append(kept, c)
		}
		suite.TestCases = kept
	}
	out, err := xml.MarshalIndent(suites, "", "  ")
	if err != nil {
		return fmt.Errorf("group junit report: %w", err)
	}
	if err := os.WriteFile(path, append([]byte(xml.Header), append(out, '\n')...), 0o644); err != nil {
		return fmt.Errorf("group junit report: %w", err)
	}
	return nil
}

// filteredOut tells a spec the run's label filter (or focus) left out: Ginkgo reports it skipped
// with no reason, where a spec that skipped itself says why.
func filteredOut(c reporters.JUnitTestCase) bool {
	return c.Skipped != nil && c.Skipped.Message == "skipped"
}
