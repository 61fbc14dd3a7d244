package conformance

import "net/http"

// Access is who may call an operation (interface §Endpoints: P, A, S).
type Access int

const (
	// Public operations need no bearer token (P).
	Public Access = iota
	// Bearer operations need a valid bearer token (A).
	Bearer
	// Superadmin operations need a bearer token of a superadmin (A, S).
	Superadmin
)

// Operation is one of the 24 operations of the interface.
type Operation struct {
	// N is the operation's number in interface §Endpoints.
	N int
	// ID is the operationId of the OpenAPI document, used in labels (op:<ID>).
	ID string
	// Path is the path relative to the base URL.
	Path string
	// Area is the area label (area:<Area>).
	Area string
	// Access is P, A or A+S.
	Access Access
	// Codes are the response codes the interface lists; nil when they are not shown (ops 1, 13,
	// 18, 19, 20, 21).
	Codes []int
}

// Listed reports whether the interface lists status code for op.
func (op Operation) Listed(code int) bool {
	for _, c := range op.Codes {
		if c == code {
			return true
		}
	}
	return false
}

// CodesShown reports whether the interface shows the response codes of op.
func (op Operation) CodesShown() bool { return op.Codes != nil }

// SuccessCode is the success status the interface states for op (201 for master card create,
// 200 elsewhere), or 0 when the interface does not show it.
func (op Operation) SuccessCode() int {
	switch {
	case op.Listed(http.StatusCreated):
		return http.StatusCreated
	case op.Listed(http.StatusOK):
		return http.StatusOK
	}
	return 0
}

// ReferenceSuccessCode is the success status of the reference implementation: the interface's
// where it is shown, else 200 (D1).
func (op Operation) ReferenceSuccessCode() int {
	if c := op.SuccessCode(); c != 0 {
		return c
	}
	return http.StatusOK
}

func codes(c ...int) []int { return c }

var (
	std    = codes(200, 400, 401, 403, 404, 422, 429, 500)
	noFind = codes(200, 400, 401, 403, 422, 429, 500)
	lists  = codes(200, 400, 401, 403, 429, 500)
)

// The operations, by their numbers in interface §Endpoints.
var (
	OpAuthenticate           = Operation{1, "authenticate", "/v1/authenticate", "account", Public, nil}
	OpCommentsList           = Operation{2, "commentsList", "/services/operations/v1/operations/comments/list", "operations", Bearer, noFind}
	OpMasterCardsCreate      = Operation{3, "masterCardsCreate", "/services/operations/v1/admin/master-cards/create", "admin", Superadmin, codes(201, 400, 401, 403, 404, 422, 429, 500)}
	OpMasterCardsUpdate      = Operation{4, "masterCardsUpdate", "/services/operations/v1/admin/master-cards/update", "admin", Superadmin, std}
	OpCardsUpdate            = Operation{5, "cardsUpdate", "/services/operations/v1/operations/cards/update", "operations", Bearer, std}
	OpBoardsUpdate           = Operation{6, "boardsUpdate", "/services/operations/v1/operations/boards/update", "operations", Bearer, std}
	OpMasterGroupsUpdate     = Operation{7, "masterGroupsUpdate", "/services/operations/v1/admin/master-groups/update", "admin", Superadmin, std}
	OpWidgetCardsList        = Operation{8, "widgetCardsList", "/services/operations/v1/operations/widget/cards/list", "operations", Bearer, noFind}
	OpTourCardsUpdate        = Operation{9, "tourCardsUpdate", "/services/operations/v1/operations/tour/cards/update", "operations", Bearer, std}
	OpMasterBoardsSync       = Operation{10, "masterBoardsSync", "/services/operations/v1/admin/master-boards/sync", "admin", Superadmin, std}
	OpGroupsDelete           = Operation{11, "groupsDelete", "/services/operations/v1/operations/groups/delete", "operations", Bearer, std}
	OpConversationsRestore   = Operation{12, "conversationsRestore", "/services/ai/v1/conversations/restore", "ai", Bearer, codes(200, 401, 403, 404, 422, 429)}
	OpMasterBoardsCreate     = Operation{13, "masterBoardsCreate", "/services/operations/v1/admin/master-boards/create", "admin", Superadmin, nil}
	OpBoardsList             = Operation{14, "boardsList", "/services/operations/v1/operations/boards/list", "operations", Bearer, lists}
	OpMasterBoardsList       = Operation{15, "masterBoardsList", "/services/operations/v1/admin/master-boards/list", "admin", Superadmin, lists}
	OpCardsList              = Operation{16, "cardsList", "/services/operations/v1/operations/cards/list", "operations", Bearer, lists}
	OpTagsList               = Operation{17, "tagsList", "/services/operations/v1/operations/tags/list", "operations", Bearer, lists}
	OpCardsCreate            = Operation{18, "cardsCreate", "/services/operations/v1/operations/cards/create", "operations", Bearer, nil}
	OpMasterGroupsCreate     = Operation{19, "masterGroupsCreate", "/services/operations/v1/admin/master-groups/create", "admin", Superadmin, nil}
	OpCommentsCreate         = Operation{20, "commentsCreate", "/services/operations/v1/operations/comments/create", "operations", Bearer, nil}
	OpTagsCreate             = Operation{21, "tagsCreate", "/services/operations/v1/operations/tags/create", "operations", Bearer, nil}
	OpDomainCartRemove       = Operation{22, "domainCartRemove", "/services/domains/v1/domain-cart/remove", "domains", Public, codes(200, 404, 409, 422, 429)}
	OpThumbnailsRegenerate   = Operation{23, "thumbnailsRegenerate", "/services/websites/v1/thumbnails/regenerate", "websites", Bearer, codes(200, 401, 403, 404, 422, 429)}
	OpThemeVersionsDeprecate = Operation{24, "themeVersionsDeprecate", "/services/websites/v1/themes/versions/deprecate", "websites", Bearer, std}
)

// Operations lists the 24 operations in interface order.
var Operations = []Operation{
	OpAuthenticate, OpCommentsList, OpMasterCardsCreate, OpMasterCardsUpdate, OpCardsUpdate,
	OpBoardsUpdate, OpMasterGroupsUpdate, OpWidgetCardsList, OpTourCardsUpdate, OpMasterBoardsSync,
	OpGroupsDelete, OpConversationsRestore, OpMasterBoardsCreate, OpBoardsList, OpMasterBoardsList,
	OpCardsList, OpTagsList, OpCardsCreate, OpMasterGroupsCreate, OpCommentsCreate, OpTagsCreate,
	OpDomainCartRemove, OpThumbnailsRegenerate, OpThemeVersionsDeprecate,
}

// Areas lists the area labels in the order the suite describes them.
var Areas = []string{"account", "operations", "admin", "ai", "domains", "websites"}

// changes names what each operation that changes the target does, by operation id; operations
// absent here only read (authenticate included: a successful login is a read, D110).
var changes = map[string]string{
	"masterCardsCreate": "creates", "masterBoardsCreate": "creates", "cardsCreate": "creates",
	"masterGroupsCreate": "creates", "commentsCreate": "creates", "tagsCreate": "creates",
	"masterCardsUpdate": "updates", "cardsUpdate": "updates", "boardsUpdate": "updates",
	"masterGroupsUpdate": "updates", "tourCardsUpdate": "updates",
	"groupsDelete":           "deletes",
	"domainCartRemove":       "cart removals",
	"thumbnailsRegenerate":   "regenerations",
	"themeVersionsDeprecate": "deprecations",
	"masterBoardsSync":       "syncs",
	"conversationsRestore":   "restores",
}

// Change says what op changes on the target ("creates", "updates", "deletes", "cart removals",
// "regenerations", "deprecations", "syncs", "restores"), or "" for an operation that only
// reads.
func (op Operation) Change() string { return changes[op.ID] }

// OperationByID returns the operation with operationId id.
func OperationByID(id string) (Operation, bool) {
	for _, op := range Operations {
		if op.ID == id {
			return op, true
		}
	}
	return Operation{}, false
}
