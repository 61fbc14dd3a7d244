package mockserver

import (
	"fmt"
	"slices"
	"time"

	"github.com/opsapi/mocktoolkit/fixtures"
)

// scenario builds the world of src at now: a user-authored scenario of Config.Scenarios, or one
// shipped in package fixtures (D101).
func (s *Server) scenario(src Source, now time.Time) (fixtures.World, error) {
	if f, ok := s.cfg.Scenarios[src.Scenario]; ok {
		return f.Build(src.Seed, now)
	}
	w, err := fixtures.BuildScenario(src.Scenario, src.Seed, now)
	if err != nil {
		return fixtures.World{}, fmt.Errorf("build scenario: %w", err)
	}
	return w, nil
}

// knownScenario tells whether name is a scenario the mock can build.
func (s *Server) knownScenario(name string) bool {
	return slices.Contains(s.scenarioNames(), name)
}

// scenarioNames are the shipped scenarios and the user-authored ones, sorted.
func (s *Server) scenarioNames() []string {
	names := slices.Clone(fixtures.Scenarios)
	for name := range s.cfg.Scenarios {
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}
