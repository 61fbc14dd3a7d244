package mockserver_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// A reset that sends a seed for a scenario whose file names its own is refused (422 under seed),
// not answered 200 with the file's seed in place of the one sent; the file's own seed, or none,
// resets.
func TestResetRefusesASeedTheScenarioOverrides(t *testing.T) {
	f := scenarioOfSeed7(t)
	m := newMock(t, mockserver.Config{Scenarios: map[string]*fixtures.ScenarioFile{f.Name: f}})
	a := m.ctl(http.MethodPost, "/__worlds/x/__mock/reset", map[string]any{"scenario": "withseed", "seed": 9}).wantStatus(t, 422)
	a.wantFieldError(t, "seed")
	if !strings.Contains(string(a.raw), "7") {
		t.Errorf("the refusal does not name the scenario's own seed: %s", a.raw)
	}
	for _, body := range []map[string]any{{"scenario": "withseed", "seed": 7}, {"scenario": "withseed"}} {
		if got := m.ctl(http.MethodPost, "/__worlds/x/__mock/reset", body).wantStatus(t, 200).field("seed"); got != float64(7) {
			t.Errorf("reset %v: seed %v, want 7", body, got)
		}
	}
}

// World.ResetTo refuses it too, as the control does.
func TestResetToRefusesASeedTheScenarioOverrides(t *testing.T) {
	f := scenarioOfSeed7(t)
	s, err := mockserver.New(mockserver.Config{Scenarios: map[string]*fixtures.ScenarioFile{f.Name: f}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Default().ResetTo(mockserver.Source{Seed: 9, Scenario: "withseed"}); err == nil || !strings.Contains(err.Error(), "own seed, 7") {
		t.Errorf("ResetTo seed 9 of a scenario of seed 7: %v, want a refusal naming 7", err)
	}
	if err := s.Default().ResetTo(mockserver.Source{Scenario: "withseed"}); err != nil || s.Default().Source().Seed != 7 {
		t.Errorf("ResetTo the scenario: %v, seed %d; want seed 7", err, s.Default().Source().Seed)
	}
}

// scenarioOfSeed7 is a scenario file naming its own seed, 7.
func scenarioOfSeed7(t *testing.T) *fixtures.ScenarioFile {
	t.Helper()
	path := filepath.Join(t.TempDir(), "withseed.yaml")
	if err := os.WriteFile(path, []byte("name: withseed\nseed: 7\nbase: default\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := fixtures.LoadScenarioFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
