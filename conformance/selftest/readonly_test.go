package selftest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/report"
)

// mockState reads the reference mock's world (GET /__mock/state) without the bearer tokens it
// issued: a login is a read (D110).
func mockState(t *testing.T, base string) []byte {
	t.Helper()
	resp, err := http.Get(base + "/__mock/state")
	if err != nil {
		t.Fatalf("read the mock's state: %v", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read the mock's state: %v", err)
	}
	var state map[string]json.RawMessage
	if err := json.Unmarshal(raw, &state); err != nil {
		t.Fatalf("decode the mock's state: %v", err)
	}
	delete(state, "tokens")
	out, _ := json.Marshal(state)
	return out
}

// TestReadOnlyProfileChangesNothing runs the suite with CONFORMANCE_PROFILE=readonly against the
// reference mock: it must pass, leave the mock's world exactly as it was, run only effect:read
// specs that spend no rate window, send nothing that may change the target, and say in its
// summary and HTML report what it left out and why (D110).
func TestReadOnlyProfileChangesNothing(t *testing.T) {
	t.Parallel() // the sweeps wait on answers and windows more than they compute: they overlap
	base := startMock(t, nil)
	before := mockState(t, base)
	dir := filepath.Join(t.TempDir(), "build", "reports-ro") // a folder the run must make
	specs, ok, out := runSuiteEnv(t, base, []string{"CONFORMANCE_PROFILE=readonly", "CONFORMANCE_REPORTS=" + dir})
	if !ok {
		t.Fatalf("the readonly profile fails against the reference mock:\n%s", tail(out, 4000))
	}
	if after := mockState(t, base); !bytes.Equal(before, after) {
		t.Errorf("the readonly profile changed the mock's world")
	}
	ran := 0
	for _, s := range specs {
		if s.LeftOut {
			continue
		}
		ran++
		if !slices.Contains(s.Labels, conformance.LabelEffectRead) || slices.Contains(s.Labels, conformance.LabelSpendsRateLimit) || !slices.Contains(s.Labels, conformance.LabelContract) {
			t.Errorf("the readonly profile ran %q, labelled %v", s.Name, s.Labels)
		}
		for _, r := range s.Records {
			if r.Changes() {
				t.Errorf("the readonly profile's spec %q sent a request that may change the target: %+v", s.Name, r)
			}
		}
	}
	if ran < 50 {
		t.Errorf("the readonly profile ran %d specs; it should run every contract spec that only reads", ran)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "tagsCreate ") && !strings.Contains(line, "PARTIAL") {
			t.Errorf("a create the readonly profile mostly left out is not PARTIAL: %s", line)
		}
	}
	for _, want := range []string{"Left out by the readonly profile", "changes the target: creates", "changes the target: cart removals", "spends a rate window (CONFORMANCE_ALLOW_RATELIMIT=1 runs it)"} {
		if !strings.Contains(out, want) {
			t.Errorf("the summary does not say %q:\n%s", want, tail(out, 3000))
		}
	}
	html, err := readFile(filepath.Join(dir, report.HTMLName))
	if err != nil {
		t.Fatalf("the HTML report: %v", err)
	}
	for _, want := range []string{"Left out by the readonly profile", "changes the target: deletes", "profile readonly"} {
		if !strings.Contains(html, want) {
			t.Errorf("the HTML report does not say %q", want)
		}
	}
}

func readFile(path string) (string, error) {
	b, err := os.ReadFile(path)
	return string(b), err
}
