package mockserver_test

import (
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// A world whose flow was given up for a world in use (D173) records nothing until its next
// reset; its note counts the calls left out after the ones given up, as well as those: it
// said only that the recorded calls were given up, and the later ones went uncounted.
func TestGivenUpFlowCountsTheCallsAfter(t *testing.T) {
	f := flowWorlds{t, newMock(t, mockserver.Config{})}
	f.busy("first", 9) // its login and 8 lists recorded, the 9th list left out
	f.busy("second", 9)
	f.busy("third", 6) // gives the first world's flow up
	if n := f.flow("first").Note; !strings.Contains(n, "the 9 calls recorded since the last reset were given up") || !strings.Contains(n, "and 1 later calls were not recorded") {
		t.Fatalf("note of the given up flow: %q; want its 9 calls given up and the 1 list after", n)
	}
	f.login("first")
	f.login("first")
	if n := f.flow("first").Note; !strings.Contains(n, "given up") || !strings.Contains(n, "and 3 later calls were not recorded") {
		t.Errorf("note of the given up flow after 2 more calls: %q; want them counted as not recorded", n)
	}
}
