package mockserver_test

import (
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// BenchmarkBusyWorld measures creating a world from the busy scenario (D101).
func BenchmarkBusyWorld(b *testing.B) {
	s, err := mockserver.New(mockserver.Config{Now: testNow, Scenario: "busy"})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := s.Default().Reset(0); err != nil {
			b.Fatal(err)
		}
	}
}
