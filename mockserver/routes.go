package mockserver

import (
	"net/http"

	"github.com/opsapi/mocktoolkit/reference"
)

// operation is one row of the API table: an interface operation at its path.
type operation struct {
	id         string // the spec's operationId
	path       string // relative to the base URL
	public     bool   // P in the interface: no bearer token needed
	superadmin bool   // S in the interface: superadmin access needed
	serve      serveFunc
}

// Paths of the interface's areas (interface §Conventions 2).
const (
	opsV1   = "/services/operations/v1/operations/"
	adminV1 = "/services/operations/v1/admin/"
)

// operations lists the whole API surface of the interface: 24 operations, all POST.
func operations() []operation {
	type S = reference.Store
	return []operation{
		{id: "authenticate", path: "/v1/authenticate", public: true, serve: serveAuthenticate},
		{id: "commentsList", path: opsV1 + "comments/list", serve: call(ok("Comments retrieved successfully."), (*S).ListComments, func(v reference.CommentPage) any { return commentPage(v) })},
		{id: "masterCardsCreate", path: adminV1 + "master-cards/create", superadmin: true, serve: call(created("Master card created successfully."), (*S).CreateMasterCard, masterCardCreated)},
		{id: "masterCardsUpdate", path: adminV1 + "master-cards/update", superadmin: true, serve: call(ok("Master card updated successfully."), (*S).UpdateMasterCard, masterCardUpdated)},
		{id: "cardsUpdate", path: opsV1 + "cards/update", serve: call(ok("Card updated successfully."), (*S).UpdateCard, under[reference.Card]("card"))},
		{id: "boardsUpdate", path: opsV1 + "boards/update", serve: call(ok("Board updated successfully."), (*S).UpdateBoard, under[reference.Board]("board"))},
		{id: "masterGroupsUpdate", path: adminV1 + "master-groups/update", superadmin: true, serve: call(ok("Master group updated successfully."), (*S).UpdateMasterGroup, under[reference.Group]("group"))},
		{id: "widgetCardsList", path: opsV1 + "widget/cards/list", serve: call(ok("Widget cards retrieved successfully."), (*S).ListWidgetCards, widgetCards)},
		{id: "tourCardsUpdate", path: opsV1 + "tour/cards/update", serve: call(ok("Tour card updated successfully."), (*S).UpdateTourCard, under[reference.Card]("card"))},
		{id: "masterBoardsSync", path: adminV1 + "master-boards/sync", superadmin: true, serve: call(ok("Master board synced successfully."), (*S).SyncMasterBoard, asIs[reference.SyncResult])},
		{id: "groupsDelete", path: opsV1 + "groups/delete", serve: call(ok("Group deleted successfully."), noResult((*S).DeleteGroup), empty)},
		{id: "conversationsRestore", path: "/services/ai/v1/conversations/restore", serve: call(ok("Conversation restored successfully."), noResult((*S).RestoreConversation), empty)},
		{id: "masterBoardsCreate", path: adminV1 + "master-boards/create", superadmin: true, serve: call(ok("Master board created successfully."), (*S).CreateMasterBoard, under[reference.Board]("board"))},
		{id: "boardsList", path: opsV1 + "boards/list", serve: call(ok("Boards retrieved successfully."), (*S).ListBoards, list[reference.Board]("boards"))},
		{id: "masterBoardsList", path: adminV1 + "master-boards/list", superadmin: true, serve: call(ok("Master boards retrieved successfully."), noInput((*S).ListMasterBoards), masterBoardTitles)},
		{id: "cardsList", path: opsV1 + "cards/list", serve: call(ok("Cards retrieved successfully."), noInput((*S).ListCards), func(v []reference.Card) any { return cardList(v) })},
		{id: "tagsList", path: opsV1 + "tags/list", serve: call(ok("Tags retrieved successfully."), noInput((*S).ListTags), list[reference.Tag]("tags"))},
		{id: "cardsCreate", path: opsV1 + "cards/create", serve: call(ok("Card created successfully."), (*S).CreateCard, under[reference.Card]("card"))},
		{id: "masterGroupsCreate", path: adminV1 + "master-groups/create", superadmin: true, serve: call(ok("Master group created successfully."), (*S).CreateMasterGroup, under[reference.Group]("group"))},
		{id: "commentsCreate", path: opsV1 + "comments/create", serve: call(ok("Comment created successfully."), (*S).CreateComment, under[reference.Comment]("comment"))},
		{id: "tagsCreate", path: opsV1 + "tags/create", serve: call(ok("Tag created successfully."), (*S).CreateTag, under[reference.Tag]("tag"))},
		{id: "domainCartRemove", path: "/services/domains/v1/domain-cart/remove", public: true, serve: call(ok("Item removed from cart."), public((*S).RemoveCartItem), under[reference.Cart]("cart"))},
		{id: "thumbnailsRegenerate", path: "/services/websites/v1/thumbnails/regenerate", serve: call(ok("Thumbnail regeneration started."), (*S).RegenerateThumbnail, asIs[reference.Thumbnail])},
		{id: "themeVersionsDeprecate", path: "/services/websites/v1/themes/versions/deprecate", serve: call(ok("Theme version deprecated successfully."), (*S).DeprecateThemeVersion, versionDeprecated)},
	}
}

// controls lists the mock's own endpoints, outside the interface, by "METHOD path".
func (s *server) controls() map[string]http.HandlerFunc {
	return map[string]http.HandlerFunc{
		"GET /healthz":         s.handleHealth,
		"GET /__mock/fixtures": s.handleFixtures,

		// Steering the mock (issue 5; README "Steering the mock").
		"GET /__mock":             s.handleDashboardRedirect,
		"GET /__mock/":            s.handleDashboard,
		"POST /__mock/reset":      s.handleReset,
		"GET /__mock/clock":       s.handleClock,
		"POST /__mock/clock":      s.handleClockAdvance,
		"GET /__mock/faults":      s.handleFaultsList,
		"POST /__mock/faults":     s.handleFaultsAdd,
		"DELETE /__mock/faults":   s.handleFaultsClear,
		"GET /__mock/requests":    s.handleRequests,
		"DELETE /__mock/requests": s.handleRequestsClear,
		"GET /__mock/state":       s.handleStateGet,
		"PUT /__mock/state":       s.handleStatePut,
		"GET /openapi.json":       s.handleOpenAPIJSON,
		"GET /openapi.yaml":       s.handleOpenAPIYAML,
	}
}
