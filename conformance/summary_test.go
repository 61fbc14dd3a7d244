package conformance_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance"
)

func TestVerdictIsNeverPassWithSkippedSpecs(t *testing.T) {
	for _, c := range []struct {
		t    conformance.Tally
		want string
	}{
		{conformance.Tally{Passed: 3}, "PASS"},
		{conformance.Tally{Passed: 3, Skipped: 1}, "PARTIAL"},
		{conformance.Tally{Skipped: 2}, "PARTIAL"},
		{conformance.Tally{Passed: 3, Failed: 1, Skipped: 1}, "FAIL"},
	} {
		if got := conformance.Verdict(c.t); got != c.want {
			t.Errorf("Verdict(%+v) = %s, want %s", c.t, got, c.want)
		}
	}
}

func TestOperationInRun(t *testing.T) {
	op := conformance.OpDomainCartRemove
	for filter, want := range map[string]bool{
		"":                                 true,
		"contract":                         true,
		"contract && area:websites":        false,
		"contract && !op:domainCartRemove": false,
		"op:domainCartRemove":              true,
		"aspect:conflict":                  true,
		"rule:CART-2":                      true,
	} {
		if got := conformance.OperationInRun(filter, op); got != want {
			t.Errorf("OperationInRun(%q, %s) = %v, want %v", filter, op.ID, got, want)
		}
	}
}

func TestGroupJUnitByOperation(t *testing.T) {
	path := filepath.Join(t.TempDir(), "junit.xml")
	in := `<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="2"><testsuite name="Conformance" tests="2">
<testcase name="[It] Domain registration area domainCartRemove removes an item [contract, op:domainCartRemove, area:domains]" classname="Conformance" status="passed" time="0.1"></testcase>
<testcase name="[SynchronizedBeforeSuite]" classname="Conformance" status="passed" time="0"></testcase>
</testsuite></testsuites>`
	if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := conformance.GroupJUnitByOperation(path); err != nil {
		t.Fatal(err)
	}
	out, _ := os.ReadFile(path)
	if !strings.Contains(string(out), `classname="domainCartRemove"`) || !strings.Contains(string(out), `classname="Conformance"`) {
		t.Errorf("classnames not grouped by operation:\n%s", out)
	}
}
