package mockserver_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// A call the mock refused for a bound of its own (--max-records here; --max-state-mb and the id
// ceiling alike) is left out of the flow with a note, and the answer is marked as the mock's
// refusal: kept, it made a replay against a deployment without that bound fail ("answered 200
// where the recording answered 400").
func TestFlowLeavesOutTheMocksCapacityRefusals(t *testing.T) {
	m := newMock(t, mockserver.Config{MaxRecords: 1})
	p := "/__worlds/cap"
	m.ctl(http.MethodPost, p+"/__mock/reset", nil).wantStatus(t, 200)
	tok := m.post(p+"/v1/authenticate", "", map[string]any{"email": m.manifest.Users.Member.Email, "password": m.manifest.Users.Member.Password}).wantStatus(t, 200).data()["token"].(string)
	a := m.post(p+"/services/operations/v1/operations/cards/create", tok, map[string]any{"title": "one more", "group_id": m.manifest.Operations.GroupID}).wantStatus(t, 400)
	if a.header.Get("X-Mock-Refused") != "capacity" {
		t.Errorf("the refusal for --max-records is not marked as the mock's own: %q", a.header.Get("X-Mock-Refused"))
	}
	doc, raw := getFlow(t, m, "cap")
	if len(doc.Steps) != 1 || !strings.Contains(doc.Note, "--max-records") {
		t.Errorf("%d steps, note %q; want the login alone and a note naming the mock's bounds:\n%s", len(doc.Steps), doc.Note, raw)
	}
}
