package mockserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// --max-records bounds what a snapshot loads as well as what creates add (D70): a snapshot
// with a project past the cap is refused with 422 naming the project and the flag, and the
// world is unchanged; one within it loads.
func TestSnapshotPastMaxRecordsIsRefused(t *testing.T) {
	m := newMock(t, mockserver.Config{MaxRecords: 1000})
	var st map[string]any
	if err := json.Unmarshal(m.ctl(http.MethodGet, "/__mock/state", nil).wantStatus(t, http.StatusOK).raw, &st); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(st)
	m.ctl(http.MethodPut, "/__mock/state", string(b)).wantStatus(t, http.StatusOK)

	tags, _ := st["tags"].([]any)
	project := tags[0].(map[string]any)["project_id"]
	for i := range 1001 {
		tags = append(tags, map[string]any{"id": 900000 + i, "project_id": project, "name": fmt.Sprintf("extra %d", i), "position": i, "is_active": true})
	}
	st["tags"] = tags
	b, _ = json.Marshal(st)
	a := m.ctl(http.MethodPut, "/__mock/state", string(b)).wantStatus(t, http.StatusUnprocessableEntity)
	if msg := string(a.raw); !strings.Contains(msg, "--max-records") || !strings.Contains(msg, fmt.Sprintf("project %v", project)) {
		t.Errorf("the refusal does not name the project and --max-records: %s", msg)
	}
	var after map[string]any
	_ = json.Unmarshal(m.ctl(http.MethodGet, "/__mock/state", nil).wantStatus(t, http.StatusOK).raw, &after)
	if n := len(after["tags"].([]any)); n >= 1001 {
		t.Errorf("the refused snapshot was loaded: %d tags", n)
	}
}
