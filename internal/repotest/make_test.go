package repotest

import (
	"os/exec"
	"strings"
	"testing"
)

// runMake runs make with args in the repository's root.
func runMake(t *testing.T, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	cmd := exec.Command("make", append([]string{"--no-print-directory"}, args...)...)
	cmd.Dir = root(t)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// make help shows each variable a target names at its value, never as $(NAME).
func TestMakeHelpShowsValues(t *testing.T) {
	out := runMake(t, "help", "ADDR=127.0.0.1:5999")
	if strings.Contains(out, "$(") {
		t.Errorf("make help prints a variable's name:\n%s", out)
	}
	if !strings.Contains(out, "run the mock with its seeded fixtures on 127.0.0.1:5999") {
		t.Errorf("make help does not show ADDR's value:\n%s", out)
	}
}

// make conformance-image-run judges the contract profile, as every other path does, unless
// CONFORMANCE_PROFILE says otherwise.
func TestConformanceImageRunRunsTheContractProfile(t *testing.T) {
	for profile, want := range map[string]string{"": "CONFORMANCE_PROFILE='contract'", "readonly": "CONFORMANCE_PROFILE='readonly'"} {
		args := []string{"-n", "conformance-image-run"}
		if profile != "" {
			args = append(args, "CONFORMANCE_PROFILE="+profile)
		}
		if out := runMake(t, args...); !strings.Contains(out, want) {
			t.Errorf("make %v does not pass %s to the suite image:\n%s", args, want, out)
		}
	}
}
