package mockserver

import (
	"encoding/json"
	"sort"

	"github.com/opsapi/mocktoolkit/fixtures"
)

// dashboardOp is one operation of the dashboard's try-it list: its id, path, access and an
// example body to edit and send.
type dashboardOp struct {
	ID      string
	Path    string
	Access  string // public, bearer or superadmin
	Example string // pretty JSON
}

// dashboardOps lists the 24 operations by path with the spec's request example, its ids
// replaced by those of the world's manifest so that trying it reaches a real record.
func (s *Server) dashboardOps(m fixtures.Manifest) []dashboardOp {
	out := make([]dashboardOp, 0, len(s.ops))
	for _, rt := range s.ops {
		op := dashboardOp{ID: rt.id, Path: rt.path, Access: [...]string{"bearer", "public", "superadmin"}[rt.access]}
		body := map[string]any{}
		if ex := s.requestExample(rt.path); ex != nil {
			if b, err := json.Marshal(ex); err == nil {
				_ = json.Unmarshal(b, &body)
			}
		}
		fillFromManifest(rt.id, body, m)
		pretty, _ := json.MarshalIndent(body, "", "  ")
		op.Example = string(pretty)
		out = append(out, op)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// requestExample is the example of an operation's JSON request body in the spec, if any.
func (s *Server) requestExample(path string) any {
	item := s.doc.Paths.Value(path)
	if item == nil || item.Post == nil || item.Post.RequestBody == nil || item.Post.RequestBody.Value == nil {
		return nil
	}
	mt := item.Post.RequestBody.Value.Content.Get("application/json")
	switch {
	case mt == nil:
		return nil
	case mt.Example != nil:
		return mt.Example
	case mt.Schema != nil && mt.Schema.Value != nil:
		return mt.Schema.Value.Example
	}
	return nil
}

// fillFromManifest puts the manifest's ids and logins into an example body, field by field.
func fillFromManifest(opID string, body map[string]any, m fixtures.Manifest) {
	op := m.Operations
	set := func(field string, v any) {
		if _, ok := body[field]; ok {
			body[field] = v
		}
	}
	set("card_id", op.CardID)
	set("group_id", op.GroupID)
	set("tag_id", op.TagID)
	set("tool_key", op.ToolKey)
	switch opID {
	case "authenticate":
		set("email", m.Users.Member.Email)
		set("password", m.Users.Member.Password)
	case "cardsUpdate":
		set("id", op.CardID)
	case "boardsUpdate":
		set("id", op.BoardID)
	case "groupsDelete":
		set("id", op.GroupID)
	case "masterCardsUpdate":
		set("id", op.MasterCardID)
		set("group_id", op.MasterGroupID)
	case "masterCardsCreate":
		set("group_id", op.MasterGroupID)
	case "masterGroupsUpdate":
		set("id", op.MasterGroupID)
	case "tourCardsUpdate":
		set("id", op.MasterTourCardID)
	case "masterBoardsSync", "masterGroupsCreate":
		set("board_id", op.MasterBoardID)
	}
	if ids := m.AI.ArchivedConversationIDs; len(ids) > 0 {
		set("conversation_id", ids[0])
	}
	if ids := m.Websites.ApprovedVersionIDs; len(ids) > 0 {
		set("version_id", ids[0])
	}
	if carts := m.Domains.Carts; len(carts) > 0 && len(carts[0].ItemIDs) > 0 {
		set("session_token", carts[0].SessionToken)
		set("cart_item_id", carts[0].ItemIDs[0])
	}
	if _, ok := body["entity_id"]; ok {
		body["type"], body["entity_id"] = "page", m.Websites.PageID
	}
}
