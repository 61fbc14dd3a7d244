package mockserver_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance/flow"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// A world whose flow was given up for a world in use (D173) records nothing until its next
// reset; its note counts the calls left out after the ones given up, as well as those: it
// said only that the recorded calls were given up, and the later ones went uncounted.
func TestGivenUpFlowCountsTheCallsAfter(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	creds := m.manifest.Users.Member
	login := func(w string) string {
		a := m.ctl(http.MethodPost, "/__worlds/"+w+"/v1/authenticate", map[string]any{"email": creds.Email, "password": creds.Password}).wantStatus(t, http.StatusOK)
		return a.data()["token"].(string)
	}
	busy := func(w string, lists int) {
		growWorld(t, m, w, 1400<<10) // cards/list answers just under 1 MiB, kept whole by the flow: 8 fill a world's 8 MiB
		tok := login(w)
		for range lists {
			m.ctl(http.MethodPost, "/__worlds/"+w+"/services/operations/v1/operations/cards/list", "{}", "Authorization", "Bearer "+tok, "Content-Type", "application/json").wantStatus(t, http.StatusOK)
		}
	}
	note := func(w string) string {
		var doc flow.Document
		if err := json.Unmarshal(m.ctl(http.MethodGet, "/__worlds/"+w+"/__mock/flow", nil).wantStatus(t, http.StatusOK).raw, &doc); err != nil {
			t.Fatal(err)
		}
		return doc.Note
	}
	busy("first", 9) // its login and 8 lists recorded, the 9th list left out
	busy("second", 9)
	busy("third", 6) // gives the first world's flow up
	if n := note("first"); !strings.Contains(n, "the 9 calls recorded since the last reset were given up") || !strings.Contains(n, "and 1 later calls were not recorded") {
		t.Fatalf("note of the given up flow: %q; want its 9 calls given up and the 1 list after", n)
	}
	login("first")
	login("first")
	if n := note("first"); !strings.Contains(n, "given up") || !strings.Contains(n, "and 3 later calls were not recorded") {
		t.Errorf("note of the given up flow after 2 more calls: %q; want them counted as not recorded", n)
	}
}
