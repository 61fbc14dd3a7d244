package mockserver_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance/flow"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// Idle worlds do not keep the flows' budget from a world in use (D173): two worlds whose flows
// filled the 16 MiB across worlds are left, and a third world's calls are recorded in full;
// the least recently used idle world's flow gave its calls up and says so.
func TestIdleWorldsFlowsGiveWayToAWorldInUse(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	creds := m.manifest.Users.Member
	busy := func(w string, lists int) {
		growWorld(t, m, w, 1400<<10) // cards/list answers just under 1 MiB, kept whole by the flow: 8 fill a world's 8 MiB
		login := m.ctl(http.MethodPost, "/__worlds/"+w+"/v1/authenticate", map[string]any{"email": creds.Email, "password": creds.Password}).wantStatus(t, http.StatusOK)
		tok := login.data()["token"].(string)
		for range lists {
			m.ctl(http.MethodPost, "/__worlds/"+w+"/services/operations/v1/operations/cards/list", "{}", "Authorization", "Bearer "+tok, "Content-Type", "application/json").wantStatus(t, http.StatusOK)
		}
	}
	flowOf := func(w string) flow.Document {
		var doc flow.Document
		if err := json.Unmarshal(m.ctl(http.MethodGet, "/__worlds/"+w+"/__mock/flow", nil).wantStatus(t, http.StatusOK).raw, &doc); err != nil {
			t.Fatal(err)
		}
		return doc
	}
	busy("first", 9)
	busy("second", 9)
	busy("third", 6)
	if doc := flowOf("third"); len(doc.Steps) != 7 || strings.Contains(doc.Note, "left out") {
		t.Errorf("the world in use recorded %d steps (want its login and 6 lists), note %q", len(doc.Steps), doc.Note)
	}
	if doc := flowOf("first"); len(doc.Steps) != 0 || !strings.Contains(doc.Note, "given up") {
		t.Errorf("the least recently used idle world's flow: %d steps, note %q; want its calls given up, saying so", len(doc.Steps), doc.Note)
	}
}
