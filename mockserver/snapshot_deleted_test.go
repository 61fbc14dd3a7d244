package mockserver_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// A snapshot's deleted records are gone for its manifest as for the API: after the manifest's
// group was deleted (its cards with it), a world loaded from the snapshot named that group and
// card in its manifest, and a conformance run against it met 404s. And a snapshot the API could
// not have made, a live card in a deleted group (listed, yet its group answers 404), is refused.
func TestSnapshotsDeletedRecordsLeaveTheManifest(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	group, card := m.manifest.Operations.GroupID, m.manifest.Operations.CardID
	tok := m.login(m.manifest.Users.Member)
	cardsGroup := group
	for _, c := range m.post("/services/operations/v1/operations/cards/list", tok, map[string]any{}).wantStatus(t, http.StatusOK).data()["cards"].([]any) {
		if c := c.(map[string]any); c["id"] == float64(card) {
			cardsGroup = int64(c["group_id"].(float64))
		}
	}
	for _, g := range []int64{group, cardsGroup} {
		m.post("/services/operations/v1/operations/groups/delete", tok, map[string]any{"id": g})
	}
	snap := m.ctl(http.MethodGet, "/__mock/state", nil).wantStatus(t, http.StatusOK).raw

	m.ctl(http.MethodPut, "/__worlds/b/__mock/state", string(snap)).wantStatus(t, http.StatusOK)
	var got fixtures.Manifest
	if err := json.Unmarshal(m.ctl(http.MethodGet, "/__worlds/b/__mock/fixtures", nil).wantStatus(t, http.StatusOK).raw, &got); err != nil {
		t.Fatal(err)
	}
	if got.Operations.GroupID == group || got.Operations.CardID == card {
		t.Errorf("the loaded world's manifest names group %d and card %d, deleted in the snapshot", got.Operations.GroupID, got.Operations.CardID)
	}
	if worlds := string(m.ctl(http.MethodGet, "/__mock/worlds", nil).raw); !strings.Contains(worlds, "deleted there") {
		t.Errorf("no note says the manifest's deleted records were left out: %s", worlds)
	}

	// The card brought back to life by hand, its group still deleted.
	var st map[string]any
	if err := json.Unmarshal(snap, &st); err != nil {
		t.Fatal(err)
	}
	revived := false
	for _, c := range st["cards"].([]any) {
		if c := c.(map[string]any); c["group_id"] == float64(group) && c["deleted_at"] != nil {
			c["deleted_at"], revived = nil, true
			break
		}
	}
	if !revived {
		t.Fatalf("the snapshot holds no deleted card of group %d", group)
	}
	edited, _ := json.Marshal(st)
	a := m.ctl(http.MethodPut, "/__worlds/c/__mock/state", string(edited))
	if a.status == http.StatusOK || !strings.Contains(string(a.raw), "its group") {
		t.Errorf("a live card in a deleted group: %d %s, want a refusal naming the card's group", a.status, truncate(string(a.raw)))
	}
}
