package report

import (
	"encoding/xml"
	"fmt"
	"os"
	"regexp"

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
// classname.
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
		cases := suites.TestSuites[i].TestCases
		for j := range cases {
			if m := opLabel.FindStringSubmatch(cases[j].Name); m != nil {
				cases[j].Classname = m[1]
			} else if flowLabel.MatchString(cases[j].Name) {
				cases[j].Classname = conformance.LabelFlow // a replayed flow: one test case per flow
			}
		}
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
