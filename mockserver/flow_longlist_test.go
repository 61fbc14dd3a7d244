package mockserver_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// An id a frontend took from a list answer over the 1 MiB the flow keeps whole is still a
// reference to its place in the list: the busy scenario's card list is 1.3 MB, and the flow
// wrote the id as a literal, which names another card, or none, on another deployment.
func TestFlowRefersToIDsOfLongLists(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	m.ctl(http.MethodPost, "/__worlds/bz/__mock/reset", map[string]any{"scenario": "busy"}).wantStatus(t, http.StatusOK)
	creds := m.manifest.Users.Member
	tok := m.ctl(http.MethodPost, "/__worlds/bz/v1/authenticate", map[string]any{"email": creds.Email, "password": creds.Password}).
		wantStatus(t, http.StatusOK).data()["token"].(string)
	list := m.ctl(http.MethodPost, "/__worlds/bz/services/operations/v1/operations/cards/list", map[string]any{}, "Authorization", "Bearer "+tok).wantStatus(t, http.StatusOK)
	if len(list.raw) <= 1<<20 {
		t.Fatalf("the busy card list is %d bytes, not past the 1 MiB the flow keeps whole", len(list.raw))
	}
	id := list.data()["cards"].([]any)[1500].(map[string]any)["id"]
	m.ctl(http.MethodPost, "/__worlds/bz/services/operations/v1/operations/cards/update", map[string]any{"id": id, "priority": "low"}, "Authorization", "Bearer "+tok).
		wantStatus(t, http.StatusOK)
	var flow struct {
		Steps []struct {
			Body map[string]any `json:"body"`
		} `json:"steps"`
	}
	if err := json.Unmarshal(m.ctl(http.MethodGet, "/__worlds/bz/__mock/flow", nil).wantStatus(t, http.StatusOK).raw, &flow); err != nil {
		t.Fatal(err)
	}
	last := flow.Steps[len(flow.Steps)-1].Body["id"]
	ref, _ := last.(map[string]any)
	if ref["path"] != "data.cards[1500].id" || ref["step"] != float64(len(flow.Steps)-1) {
		t.Errorf("the update's id is recorded as %v, want a reference to data.cards[1500].id of the list's step", last)
	}
}
