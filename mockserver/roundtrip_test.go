package mockserver_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
	"github.com/opsapi/mocktoolkit/spec"
)

// oddTexts are values a client may send in any text field: blank, white space of other
// scripts, invisible characters, a NUL, a byte-order mark.
var oddTexts = []string{"", " ", "\t", "\n", "\u3000", "\u00a0", "\u200b", "\u2028", "a\x00b", "\ufeff", "open"}

// Every value the mock accepts is one it can answer and save: after any write the API takes,
// whatever text it carried in any of its text fields, GET /__mock/state gives a snapshot that
// PUT /__mock/state loads back (D76). A blank card status was taken by cards/update and then
// made the world's snapshot, and the state file written at stop, impossible to load.
func TestAcceptedTextSavesAndLoadsBack(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	doc, err := spec.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ops := map[string]spec.Operation{}
	for _, op := range spec.Operations(doc) {
		ops[op.ID] = op
	}
	o := m.manifest.Operations
	bases := []struct {
		id, role string
		body     map[string]any
	}{
		{"cardsCreate", "member", map[string]any{"title": "x", "group_id": o.GroupID}},
		{"cardsUpdate", "member", map[string]any{"id": o.CardID}},
		{"boardsUpdate", "member", map[string]any{"id": o.BoardID}},
		{"tagsCreate", "member", map[string]any{"name": "x"}},
		{"commentsCreate", "member", map[string]any{"card_id": o.CardID, "comment": "x"}},
		{"masterCardsCreate", "superadmin", map[string]any{"group_id": o.MasterGroupID, "title": "x"}},
		{"masterCardsUpdate", "superadmin", map[string]any{"id": o.MasterCardID}},
		{"masterGroupsCreate", "superadmin", map[string]any{"board_id": o.MasterBoardID, "title": "x"}},
		{"masterGroupsUpdate", "superadmin", map[string]any{"id": o.MasterGroupID}},
		{"masterBoardsCreate", "superadmin", map[string]any{"title": "x", "tool_key": o.ToolKey}},
		{"tourCardsUpdate", "member", map[string]any{"id": o.MasterTourCardID, "status": "open"}},
	}
	// One world per odd text: every write carrying it in one text field (the updates change
	// distinct fields of the same records), then one snapshot that must load back.
	for _, v := range oddTexts {
		m.ctl(http.MethodPost, "/__mock/reset", map[string]any{}).wantStatus(t, http.StatusOK)
		tokens := map[string]string{"member": m.login(m.manifest.Users.Member), "superadmin": m.login(m.manifest.Users.Superadmin)}
		var taken []string
		for _, b := range bases {
			op, ok := ops[b.id]
			if !ok {
				t.Fatalf("no operation %s in the spec", b.id)
			}
			for _, field := range op.Fields {
				if s := op.Request.Properties[field]; s == nil || s.Value == nil || !s.Value.Type.Is("string") {
					continue
				}
				body := map[string]any{field: v}
				for k, x := range b.body {
					if k != field {
						body[k] = x
					}
				}
				if a := m.post(op.Path, tokens[b.role], body); a.status == http.StatusOK {
					taken = append(taken, b.id+" "+field)
				}
			}
		}
		snap := m.ctl(http.MethodGet, "/__mock/state", nil).wantStatus(t, http.StatusOK).body
		if back := m.ctl(http.MethodPut, "/__mock/state", snap); back.status != http.StatusOK {
			t.Errorf("the mock took %q in %v, and the world's snapshot does not load back: %d %s", v, taken, back.status, back.raw)
		}
	}
}
