package explore_test

import (
	"testing"

	"github.com/opsapi/mocktoolkit/conformance/explore"
)

// CONFORMANCE_EXPLORE_DIFF is 1 or 0 (true or false): any other value is refused, since a run
// believed differential ("yes", "true ") ran without the reference and said nothing.
func TestDiffVariableIsOneOrZero(t *testing.T) {
	t.Parallel() // each serves its own mock
	for v, want := range map[string]bool{"": false, "0": false, "false": false, "1": true, "true": true} {
		o, err := explore.OptionsFromEnv(func(k string) string { return map[string]string{explore.EnvDiff: v}[k] })
		if err != nil || o.Diff != want {
			t.Errorf("%s=%q: Diff %v, %v; want %v", explore.EnvDiff, v, o.Diff, err, want)
		}
	}
	for _, v := range []string{"yes", "maybe", "2", "true "} {
		if _, err := explore.OptionsFromEnv(func(k string) string { return map[string]string{explore.EnvDiff: v}[k] }); err == nil {
			t.Errorf("%s=%q accepted", explore.EnvDiff, v)
		}
	}
}
