package mockserver_test

import (
	"net/http"
	"testing"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// Paths of the interface's operations (interface §Endpoints).
const (
	pAuthenticate = "/v1/authenticate"
	pCommentsList = "/services/operations/v1/operations/comments/list"
	pMCardsCreate = "/services/operations/v1/admin/master-cards/create"
	pMCardsUpdate = "/services/operations/v1/admin/master-cards/update"
	pCardsUpdate  = "/services/operations/v1/operations/cards/update"
	pBoardsUpdate = "/services/operations/v1/operations/boards/update"
	pMGroupsUpd   = "/services/operations/v1/admin/master-groups/update"
	pWidgetList   = "/services/operations/v1/operations/widget/cards/list"
	pTourUpdate   = "/services/operations/v1/operations/tour/cards/update"
	pMBoardsSync  = "/services/operations/v1/admin/master-boards/sync"
	pGroupsDelete = "/services/operations/v1/operations/groups/delete"
	pConvRestore  = "/services/ai/v1/conversations/restore"
	pMBoardsNew   = "/services/operations/v1/admin/master-boards/create"
	pBoardsList   = "/services/operations/v1/operations/boards/list"
	pMBoardsList  = "/services/operations/v1/admin/master-boards/list"
	pCardsList    = "/services/operations/v1/operations/cards/list"
	pTagsList     = "/services/operations/v1/operations/tags/list"
	pCardsCreate  = "/services/operations/v1/operations/cards/create"
	pMGroupsNew   = "/services/operations/v1/admin/master-groups/create"
	pCommentsNew  = "/services/operations/v1/operations/comments/create"
	pTagsCreate   = "/services/operations/v1/operations/tags/create"
	pCartRemove   = "/services/domains/v1/domain-cart/remove"
	pThumbnails   = "/services/websites/v1/thumbnails/regenerate"
	pDeprecate    = "/services/websites/v1/themes/versions/deprecate"
)

// call is one valid request of an operation, built from the manifest.
type call struct {
	name       string
	path       string
	superadmin bool
	public     bool
	body       map[string]any
	status     int
	dataKeys   []string
}

func validCalls(m fixtures.Manifest) []call {
	o, w := m.Operations, m.Websites
	return []call{
		{name: "authenticate", path: pAuthenticate, public: true, body: map[string]any{"email": m.Users.Member.Email, "password": m.Users.Member.Password}, status: 200, dataKeys: []string{"token", "id", "name", "email", "language", "needs_code__regeneration", "warn_message"}},
		{name: "comments list", path: pCommentsList, body: map[string]any{"card_id": o.CardID, "per_page": 5}, status: 200, dataKeys: []string{"comments", "pagination"}},
		{name: "master cards create", path: pMCardsCreate, superadmin: true, body: map[string]any{"group_id": o.MasterGroupID, "title": "Check meta descriptions", "card_type": "widget", "push_to_projects": true}, status: 201, dataKeys: []string{"card", "projects_updated"}},
		{name: "master cards update", path: pMCardsUpdate, superadmin: true, body: map[string]any{"id": o.MasterCardID, "status": "in_progress", "sync_to_projects": true}, status: 200, dataKeys: []string{"card", "projects_updated"}},
		{name: "cards update", path: pCardsUpdate, body: map[string]any{"id": o.CardID, "title": "Renamed", "priority": "high"}, status: 200, dataKeys: []string{"card"}},
		{name: "boards update", path: pBoardsUpdate, body: map[string]any{"id": o.BoardID, "color": "#336699"}, status: 200, dataKeys: []string{"board"}},
		{name: "master groups update", path: pMGroupsUpd, superadmin: true, body: map[string]any{"id": o.MasterGroupID, "title": "Quick wins"}, status: 200, dataKeys: []string{"group"}},
		{name: "widget cards list", path: pWidgetList, body: map[string]any{"tool_key": o.ToolKey}, status: 200, dataKeys: []string{"cards", "snoozed_count"}},
		{name: "tour cards update", path: pTourUpdate, body: map[string]any{"id": o.MasterTourCardID, "status": "closed"}, status: 200, dataKeys: []string{"card"}},
		{name: "master boards sync", path: pMBoardsSync, superadmin: true, body: map[string]any{"board_id": o.MasterBoardID}, status: 200, dataKeys: []string{"synced_count", "boards_created", "skipped_no_access"}},
		{name: "conversations restore", path: pConvRestore, body: map[string]any{"conversation_id": m.AI.ArchivedConversationIDs[0]}, status: 200},
		{name: "master boards create", path: pMBoardsNew, superadmin: true, body: map[string]any{"title": "Accessibility", "tool_key": "a11y"}, status: 200, dataKeys: []string{"board"}},
		{name: "boards list", path: pBoardsList, body: map[string]any{}, status: 200, dataKeys: []string{"boards"}},
		{name: "master boards list", path: pMBoardsList, superadmin: true, body: map[string]any{}, status: 200, dataKeys: []string{"boards"}},
		{name: "cards list", path: pCardsList, body: map[string]any{}, status: 200, dataKeys: []string{"cards"}},
		{name: "tags list", path: pTagsList, body: map[string]any{}, status: 200, dataKeys: []string{"tags"}},
		{name: "cards create", path: pCardsCreate, body: map[string]any{"title": "Fix broken links", "group_id": o.GroupID, "due_date": "2026-07-01T12:00:00Z"}, status: 200, dataKeys: []string{"card"}},
		{name: "master groups create", path: pMGroupsNew, superadmin: true, body: map[string]any{"board_id": o.MasterBoardID, "title": "Later"}, status: 200, dataKeys: []string{"group"}},
		{name: "comments create", path: pCommentsNew, body: map[string]any{"card_id": o.CardID, "comment": "Looks good"}, status: 200, dataKeys: []string{"comment"}},
		{name: "tags create", path: pTagsCreate, body: map[string]any{"name": "backend", "color": "red"}, status: 200, dataKeys: []string{"tag"}},
		{name: "domain cart remove", path: pCartRemove, public: true, body: map[string]any{"session_token": m.Domains.Carts[0].SessionToken, "cart_item_id": m.Domains.Carts[0].ItemIDs[0]}, status: 200, dataKeys: []string{"cart"}},
		{name: "thumbnails regenerate", path: pThumbnails, body: map[string]any{"type": "page", "entity_id": w.PageID}, status: 200, dataKeys: []string{"preview_image"}},
		{name: "theme versions deprecate", path: pDeprecate, body: map[string]any{"version_id": w.ApprovedVersionIDs[0]}, status: 200, dataKeys: []string{"version_id", "theme_status"}},
		{name: "groups delete", path: pGroupsDelete, body: map[string]any{"id": o.GroupID}, status: 200},
	}
}

// Every operation answers its success envelope to a valid request (interface §Conventions 3).
func TestEveryOperationSucceeds(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	member, admin := m.login(m.manifest.Users.Member), m.login(m.manifest.Users.Superadmin)
	calls := validCalls(m.manifest)
	if len(calls) != 24 {
		t.Fatalf("%d operations in the table, want 24", len(calls))
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			token := member
			if c.superadmin {
				token = admin
			} else if c.public {
				token = ""
			}
			a := m.post(c.path, token, c.body).wantStatus(t, c.status)
			if a.body["error"] != false {
				t.Errorf("%s: error is not false: %s", a.req, a.raw)
			}
			for _, k := range c.dataKeys {
				if _, ok := a.data()[k]; !ok {
					t.Errorf("%s: data has no %q: %s", a.req, k, a.raw)
				}
			}
		})
	}
}

// Every operation except authenticate and domain-cart/remove requires a bearer token; missing
// or invalid yields 401 (interface §Authentication 1, 2), body shape (b).
func TestAuthenticatedOperationsRejectMissingAndInvalidTokens(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	for _, c := range validCalls(m.manifest) {
		if c.public {
			continue
		}
		for _, token := range []string{"", "not-a-token"} {
			t.Run(c.name+" token="+token, func(t *testing.T) {
				a := m.post(c.path, token, c.body).wantStatus(t, http.StatusUnauthorized)
				a.wantShape(t, "b")
			})
		}
	}
}

// S operations require superadmin access: 403 for a member (interface §Authentication 3, 4).
func TestSuperadminOperationsForbidMembers(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	member := m.login(m.manifest.Users.Member)
	for _, c := range validCalls(m.manifest) {
		if !c.superadmin {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			m.post(c.path, member, c.body).wantStatus(t, http.StatusForbidden)
		})
	}
}

// Public operations need no token (interface §Authentication 1).
func TestPublicOperationsNeedNoToken(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	for _, c := range validCalls(m.manifest) {
		if c.public {
			m.post(c.path, "", c.body).wantStatus(t, c.status)
		}
	}
}
