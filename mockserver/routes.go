package mockserver

import (
	"fmt"
	"net/http"
	"slices"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/opsapi/mocktoolkit/internal/prefer"
	"github.com/opsapi/mocktoolkit/reference"
	"github.com/opsapi/mocktoolkit/spec"
)

// access is who may call an operation (the interface's P, A and S marks), read from the spec
// (spec.Access).
type access = spec.Access

const (
	accessBearer     = spec.Bearer
	accessPublic     = spec.Public
	accessSuperadmin = spec.Superadmin
)

// route is an operation row joined with what the spec says of the operation, ready to serve.
type route struct {
	operation
	path       string
	access     access
	lists      map[int]bool     // the statuses the spec lists for the operation
	codes      []int            // the same, ascending, without 413 (D41): what Prefer and fault rules may force
	firstField string           // the field a forced 422 names: the first required, else the first property
	schema     *openapi3.Schema // the JSON request body schema, validated by kin-openapi
	handler    http.Handler
}

// buildRoutes joins the rows of operations() with the spec's operations, by operationId, and
// fails when either side has one the other lacks.
func buildRoutes(doc *openapi3.T, rows []operation) (map[string]*route, error) {
	byID := make(map[string]operation, len(rows))
	for _, op := range rows {
		byID[op.id] = op
	}
	routes := make(map[string]*route, len(rows))
	for _, so := range spec.Operations(doc) {
		op, ok := byID[so.ID]
		if !ok {
			return nil, fmt.Errorf("operation %s (%s) of the spec has no row in routes.go", so.ID, so.Path)
		}
		delete(byID, so.ID)
		rt := &route{operation: op, path: so.Path, schema: so.Request, access: so.Access, lists: map[int]bool{}}
		for _, n := range so.Statuses {
			rt.lists[n] = true
			if prefer.Forceable(so.Statuses, n) {
				rt.codes = append(rt.codes, n)
			}
		}
		rt.firstField = firstField(so.Request)
		routes[so.Path] = rt
	}
	for id := range byID {
		return nil, fmt.Errorf("row %s of routes.go is not an operation of the spec", id)
	}
	return routes, nil
}

func firstField(s *openapi3.Schema) string {
	if len(s.Required) > 0 {
		return s.Required[0]
	}
	names := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		names = append(names, k)
	}
	slices.Sort(names)
	if len(names) > 0 {
		return names[0]
	}
	return "body"
}

// routeByID finds the route of an operationId (fault rules and the dashboard name operations
// by id).
func (s *Server) routeByID(id string) (*route, bool) {
	for _, rt := range s.ops {
		if rt.id == id {
			return rt, true
		}
	}
	return nil, false
}

// operationIDs are the operationIds of every route, sorted.
func (s *Server) operationIDs() []string {
	ids := make([]string, 0, len(s.ops))
	for _, rt := range s.ops {
		ids = append(ids, rt.id)
	}
	slices.Sort(ids)
	return ids
}

// operation is one row of the API table: what the mock does for one operation of the spec.
// Everything else about the operation — its path, who may call it, the statuses it lists, its
// request schema — is read from the spec (buildRoutes below), never copied here.
type operation struct {
	id    string // the spec's operationId
	serve serveFunc
	// grows says what an operation adds to the world's records: records it makes or enlarges,
	// refused once the worlds' records are at --max-state-mb, or a login's token, let through a
	// little past it so that users are not locked out of a full mock (D206).
	grows growth
	// whole marks an operation that answers a whole list (no pagination): in a large world its
	// answer is built in memory at several times the records' size, so such answers are made
	// one at a time (D206).
	whole bool
	// refusals are the operation's own answers of a status where they differ from what the
	// status answers elsewhere: a forced answer of that status (Prefer, fault rule) is this
	// one, so a client built against it meets the real one (D60).
	refusals map[int]func() (answer, error)
}

// growth is what an operation adds to a world's records (operation.grows).
type growth int

const (
	nothing growth = iota // reads, deletes, status changes
	aToken                // a login: one token
	records               // records made or enlarged
	copies                // records made or enlarged and copied into every project (push, sync)
)

// operations lists the whole API surface of the interface: its 24 operations, by operationId.
func (s *Server) operations() []operation {
	type S = reference.Store
	return []operation{
		{
			id:    "authenticate",
			serve: s.authenticate, // throttled per client address here, per e-mail in the store (D71)
			grows: aToken,
			refusals: map[int]func() (answer, error){
				http.StatusUnauthorized: func() (answer, error) { return loginRefused(reference.CredentialsMessage), nil },
			},
		},
		{
			id:    "commentsList",
			serve: call(ok("Comments retrieved successfully."), (*S).ListComments, commentsData),
		},
		{
			id:    "masterCardsCreate",
			serve: call(created("Master card created successfully."), (*S).CreateMasterCard, masterCardCreated),
			grows: copies,
		},
		{
			id:    "masterCardsUpdate",
			serve: call(ok("Master card updated successfully."), (*S).UpdateMasterCard, masterCardUpdated),
			grows: copies,
		},
		{
			id:    "cardsUpdate",
			serve: call(ok("Card updated successfully."), (*S).UpdateCard, under[reference.Card]("card")),
			grows: records,
		},
		{
			id:    "boardsUpdate",
			serve: call(ok("Board updated successfully."), (*S).UpdateBoard, under[reference.Board]("board")),
			grows: records,
		},
		{
			id:    "masterGroupsUpdate",
			serve: call(ok("Master group updated successfully."), (*S).UpdateMasterGroup, under[reference.Group]("group")),
			grows: records,
		},
		{
			id:    "widgetCardsList",
			serve: call(ok("Widget cards retrieved successfully."), (*S).ListWidgetCards, widgetCards),
			whole: true,
		},
		{
			id:    "tourCardsUpdate",
			serve: call(ok("Tour card updated successfully."), (*S).UpdateTourCard, under[reference.Card]("card")),
			grows: records,
		},
		{
			id:    "masterBoardsSync",
			serve: call(ok("Master board synced successfully."), (*S).SyncMasterBoard, asIs[reference.SyncResult]),
			grows: copies,
		},
		{
			id:    "groupsDelete",
			serve: call(ok("Group deleted successfully."), noResult((*S).DeleteGroup), empty),
		},
		{
			id:    "conversationsRestore",
			serve: call(ok("Conversation restored successfully."), noResult((*S).RestoreConversation), empty),
		},
		{
			id:    "masterBoardsCreate",
			serve: call(ok("Master board created successfully."), (*S).CreateMasterBoard, under[reference.Board]("board")),
			grows: records,
		},
		{
			id:    "boardsList",
			serve: call(ok("Boards retrieved successfully."), (*S).ListBoards, list[reference.Board]("boards")),
			whole: true,
		},
		{
			id:    "masterBoardsList",
			serve: call(ok("Master boards retrieved successfully."), noInput((*S).ListMasterBoards), masterBoardTitles),
			whole: true,
		},
		{
			id:    "cardsList",
			serve: call(ok("Cards retrieved successfully."), noInput((*S).ListCards), cardsData),
			whole: true,
		},
		{
			id:    "tagsList",
			serve: call(ok("Tags retrieved successfully."), noInput((*S).ListTags), list[reference.Tag]("tags")),
			whole: true,
		},
		{
			id:    "cardsCreate",
			serve: call(ok("Card created successfully."), (*S).CreateCard, under[reference.Card]("card")),
			grows: records,
		},
		{
			id:    "masterGroupsCreate",
			serve: call(ok("Master group created successfully."), (*S).CreateMasterGroup, under[reference.Group]("group")),
			grows: records,
		},
		{
			id:    "commentsCreate",
			serve: call(ok("Comment created successfully."), (*S).CreateComment, under[reference.Comment]("comment")),
			grows: records,
		},
		{
			id:    "tagsCreate",
			serve: call(ok("Tag created successfully."), (*S).CreateTag, under[reference.Tag]("tag")),
			grows: records,
		},
		{
			id:    "domainCartRemove",
			serve: call(ok("Item removed from cart."), public((*S).RemoveCartItem), under[reference.Cart]("cart")),
		},
		{
			id:    "thumbnailsRegenerate",
			serve: call(ok("Thumbnail regeneration started."), (*S).RegenerateThumbnail, asIs[reference.Thumbnail]),
			refusals: map[int]func() (answer, error){ // the project's limit, its window whole (LIMIT-3)
				http.StatusTooManyRequests: func() (answer, error) { return answer{}, reference.ThumbnailLimitError(reference.ThumbnailWindow) },
			},
		},
		{
			id:    "themeVersionsDeprecate",
			serve: call(ok("Theme version deprecated successfully."), (*S).DeprecateThemeVersion, versionDeprecated),
		},
	}
}

// controls lists the mock's own endpoints, outside the interface, by "METHOD path" (README,
// "Steering the mock").
func (s *Server) controls() map[string]http.HandlerFunc {
	return map[string]http.HandlerFunc{
		"GET /":                      s.handleDashboardRedirect,
		"GET /healthz":               s.handleHealth,
		"GET /favicon.ico":           handleFavicon,
		"GET /__mock/worlds":         s.handleWorlds,
		"DELETE /__mock/worlds":      s.handleWorldDelete,
		"GET /__mock/requests/count": s.handleRequestsCount,
		"GET /__mock/fixtures":       s.handleFixtures,
		"GET /__mock/flow":           s.handleFlow,
		"GET /__mock":                s.handleDashboardRedirect,
		"GET /__mock/":               s.handleDashboard,
		"POST /__mock/reset":         s.handleReset,
		"GET /__mock/clock":          s.handleClock,
		"POST /__mock/clock":         s.handleClockSet,
		"DELETE /__mock/clock":       s.handleClockRelease,
		"GET /__mock/faults":         s.handleFaultsList,
		"POST /__mock/faults":        s.handleFaultsAdd,
		"DELETE /__mock/faults":      s.handleFaultsClear,
		"GET /__mock/requests":       s.handleRequests,
		"DELETE /__mock/requests":    s.handleRequestsClear,
		"GET /__mock/state":          s.handleStateGet,
		"PUT /__mock/state":          s.handleStatePut,
		"GET /openapi.json":          s.handleOpenAPIJSON,
		"GET /openapi.yaml":          s.handleOpenAPIYAML,
	}
}
