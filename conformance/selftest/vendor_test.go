package selftest_test

import (
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/opsapi/mocktoolkit/conformance/report"
)

// TestReferenceProfileAgainstAnotherChoice runs what a vendor runs: the reference profile of the
// creates against a deployment that answers 201 where the reference answers 200 (a correct
// variant), with CONFORMANCE_REPORTS naming a folder that does not exist yet. The run exits 0
// (reference specs never judge conformance); stdout, the JUnit, JSON (the specs' states read
// from it) and HTML reports and the summary file all say the
// deployment differs from the reference's choice and state the choice in words; the folder is
// made.
func TestReferenceProfileAgainstAnotherChoice(t *testing.T) {
	t.Parallel() // the sweeps wait on answers and windows more than they compute: they overlap
	v := corrects[0]
	if !strings.HasPrefix(v.name, "answers 201 to the creates") {
		t.Fatalf("corrects[0] is %q, want the variant answering 201 to creates", v.name)
	}
	var changed atomic.Int64
	base := startMock(t, func(h httpHandler) httpHandler { return v.wrapCounting(h, &changed) })
	dir := filepath.Join(t.TempDir(), "build", "reports-ro")
	specs, ok, out := runSuiteEnv(t, base, []string{"CONFORMANCE_REPORTS=" + dir},
		"-ginkgo.label-filter=reference && (op:cardsCreate || op:tagsCreate)")
	if !ok {
		t.Fatalf("the reference profile exits non-zero against a deployment that only chose otherwise:\n%s", tail(out, 4000))
	}
	differs := 0
	for _, s := range specs {
		switch {
		case s.State.Is(types.SpecStateFailureStates):
			t.Errorf("reference spec %q failed: %s", s.Name, s.Failure)
		case s.State == types.SpecStateSkipped && strings.HasPrefix(s.Failure, report.DiffersPrefix):
			differs++
			if !strings.Contains(s.Failure, "the reference answers 200") {
				t.Errorf("spec %q differs without stating the choice in words: %s", s.Name, s.Failure)
			}
		}
	}
	if differs == 0 {
		t.Fatalf("no reference spec says the deployment differs from the reference's choice:\n%s", tail(out, 4000))
	}
	for _, want := range []string{"DIFFERS", "differ from the reference's choice", "the reference answers 200"} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q:\n%s", want, tail(out, 3000))
		}
	}
	if strings.Contains(out, "[FAILED]") || strings.Contains(out, "FAIL ") {
		t.Errorf("the output reports a failure:\n%s", tail(out, 3000))
	}
	for name, want := range map[string]string{report.JUnitName: "differs from the reference&#39;s choice",
		report.HTMLName: "Differs from the reference's choice", report.SummaryName: "DIFFERS"} {
		got, err := readFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("the report %s was not written to the folder CONFORMANCE_REPORTS names: %v", name, err)
			continue
		}
		if !strings.Contains(got, want) {
			t.Errorf("the report %s does not say %q", name, want)
		}
	}
}
