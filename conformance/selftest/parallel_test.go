package selftest_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/types"
)

// parallelEnv runs the suite as four Ginkgo processes coordinated by the binary itself (D160).
var parallelEnv = []string{"CONFORMANCE_PARALLEL=4"}

// failedSpecs names the specs of a run that failed, sorted.
func failedSpecs(specs []specResult) []string {
	var failed []string
	for _, s := range specs {
		if s.State.Is(types.SpecStateFailureStates) {
			failed = append(failed, s.Name)
		}
	}
	slices.Sort(failed)
	return failed
}

// parallelRun runs the suite in four processes against base and holds the run to the one-process
// run's report: every spec of the golden list, once. Under the full loop it runs three times
// (repeated parallel runs against a correct mock never fail) and returns the last run.
func parallelRun(t *testing.T, base func() string, args ...string) ([]specResult, bool, string) {
	t.Helper()
	golden, err := os.ReadFile(filepath.Join("..", "testdata", "specs.golden"))
	if err != nil {
		t.Fatal(err)
	}
	runs := 1
	if full() {
		runs = 3
	}
	var (
		specs []specResult
		ok    bool
		out   string
	)
	for range runs {
		specs, ok, out = runSuiteEnv(t, base(), parallelEnv, args...)
		if all := strings.Count(string(golden), "\n"); len(specs) != all {
			t.Fatalf("the parallel run's report holds %d specs, the golden list %d", len(specs), all)
		}
		if !ok {
			break
		}
	}
	return specs, ok, out
}

// TestParallelRunKeepsVerdicts: a broken variant fails a parallel run by as many specs as
// selftest.golden records for the one-process run.
func TestParallelRunKeepsVerdicts(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole suite")
	}
	v := variants[0]
	specs, ok, out := runSuiteEnv(t, startMock(t, v.wrap), parallelEnv, "-ginkgo.label-filter="+brokenFilter(v))
	if ok {
		t.Fatalf("a parallel run passes a mock that %s:\n%s", v.name, tail(out, 3000))
	}
	verdicts, err := os.ReadFile(filepath.Join("..", "testdata", "selftest.golden"))
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("%s (breaks rule %s): caught by %d specs\n", v.name, v.rule, len(failedSpecs(specs)))
	if !strings.Contains(string(verdicts), want) {
		t.Errorf("against a mock that %s the parallel run fails %d specs, not what selftest.golden records for the one-process run:\n  %s",
			v.name, len(failedSpecs(specs)), strings.Join(failedSpecs(specs), "\n  "))
	}
}

// TestSuiteDoesNotImportTheMock: the package a vendor's suite binary is built from does not
// depend on the mock it judges (the in-process target is wired by a test file).
func TestSuiteDoesNotImportTheMock(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/opsapi/mocktoolkit/conformance").Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "github.com/opsapi/mocktoolkit/mockserver" || strings.HasPrefix(dep, "github.com/opsapi/mocktoolkit/mockserver/") {
			t.Errorf("package conformance depends on %s", dep)
		}
	}
}
