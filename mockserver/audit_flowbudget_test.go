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
	f := flowWorlds{t, newMock(t, mockserver.Config{})}
	f.busy("first", 9)
	f.busy("second", 9)
	f.busy("third", 6)
	if doc := f.flow("third"); len(doc.Steps) != 7 || strings.Contains(doc.Note, "left out") {
		t.Errorf("the world in use recorded %d steps (want its login and 6 lists), note %q", len(doc.Steps), doc.Note)
	}
	if doc := f.flow("first"); len(doc.Steps) != 0 || !strings.Contains(doc.Note, "given up") {
		t.Errorf("the least recently used idle world's flow: %d steps, note %q; want its calls given up, saying so", len(doc.Steps), doc.Note)
	}
}

// flowWorlds drives named worlds of a mock for the flow-budget tests.
type flowWorlds struct {
	t *testing.T
	m *mock
}

// login logs the member in to world w and returns the token.
func (f flowWorlds) login(w string) string {
	creds := f.m.manifest.Users.Member
	a := f.m.ctl(http.MethodPost, "/__worlds/"+w+"/v1/authenticate", map[string]any{"email": creds.Email, "password": creds.Password}).wantStatus(f.t, http.StatusOK)
	return a.data()["token"].(string)
}

// busy grows world w and lists its cards lists times after a login: cards/list answers just
// under 1 MiB, kept whole by the flow, so 8 fill a world's 8 MiB.
func (f flowWorlds) busy(w string, lists int) {
	growWorld(f.t, f.m, w, 1400<<10)
	tok := f.login(w)
	for range lists {
		f.m.ctl(http.MethodPost, "/__worlds/"+w+"/services/operations/v1/operations/cards/list", "{}", "Authorization", "Bearer "+tok, "Content-Type", "application/json").wantStatus(f.t, http.StatusOK)
	}
}

// flow is world w's recorded flow.
func (f flowWorlds) flow(w string) flow.Document {
	var doc flow.Document
	if err := json.Unmarshal(f.m.ctl(http.MethodGet, "/__worlds/"+w+"/__mock/flow", nil).wantStatus(f.t, http.StatusOK).raw, &doc); err != nil {
		f.t.Fatal(err)
	}
	return doc
}
