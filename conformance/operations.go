package conformance

import (
	"context"
	"fmt"

	"github.com/opsapi/mocktoolkit/spec"
)

// Access is who may call an operation (interface §Endpoints: P, A, S), as the OpenAPI document
// says it (spec.Access).
type Access = spec.Access

const (
	// Public operations need no bearer token (P).
	Public = spec.Public
	// Bearer operations need a valid bearer token (A).
	Bearer = spec.Bearer
	// Superadmin operations need a bearer token of a superadmin (A, S).
	Superadmin = spec.Superadmin
)

// Operation is one of the 24 operations of the interface: the OpenAPI document's operation
// model (spec.Operation: number, path, area, access, listed codes, request and answer schemas),
// with what the suite adds (Change).
type Operation struct {
	spec.Operation
}

// operations is the document's operation model, by operationId; the document is embedded, so
// failing to load it is a bug of the build, found by every test.
var operations = func() map[string]Operation {
	doc, err := spec.Load(context.Background())
	if err != nil {
		panic(fmt.Sprintf("conformance: %v", err))
	}
	m := map[string]Operation{}
	for _, op := range spec.Operations(doc) {
		m[op.ID] = Operation{op}
	}
	return m
}()

// op returns the operation whose operationId is id.
func op(id string) Operation {
	o, ok := operations[id]
	if !ok {
		panic(fmt.Sprintf("conformance: the OpenAPI document has no operation %s", id))
	}
	return o
}

// The operations, by their numbers in interface §Endpoints.
var (
	OpAuthenticate           = op("authenticate")
	OpCommentsList           = op("commentsList")
	OpMasterCardsCreate      = op("masterCardsCreate")
	OpMasterCardsUpdate      = op("masterCardsUpdate")
	OpCardsUpdate            = op("cardsUpdate")
	OpBoardsUpdate           = op("boardsUpdate")
	OpMasterGroupsUpdate     = op("masterGroupsUpdate")
	OpWidgetCardsList        = op("widgetCardsList")
	OpTourCardsUpdate        = op("tourCardsUpdate")
	OpMasterBoardsSync       = op("masterBoardsSync")
	OpGroupsDelete           = op("groupsDelete")
	OpConversationsRestore   = op("conversationsRestore")
	OpMasterBoardsCreate     = op("masterBoardsCreate")
	OpBoardsList             = op("boardsList")
	OpMasterBoardsList       = op("masterBoardsList")
	OpCardsList              = op("cardsList")
	OpTagsList               = op("tagsList")
	OpCardsCreate            = op("cardsCreate")
	OpMasterGroupsCreate     = op("masterGroupsCreate")
	OpCommentsCreate         = op("commentsCreate")
	OpTagsCreate             = op("tagsCreate")
	OpDomainCartRemove       = op("domainCartRemove")
	OpThumbnailsRegenerate   = op("thumbnailsRegenerate")
	OpThemeVersionsDeprecate = op("themeVersionsDeprecate")
)

// Operations lists the 24 operations in interface order (the document's x-endpoint numbers).
var Operations = func() []Operation {
	doc, _ := spec.Load(context.Background())
	var out []Operation
	for _, o := range spec.Operations(doc) {
		out = append(out, operations[o.ID])
	}
	return out
}()

// Areas lists the area labels in the order the suite describes them: the document's tags.
var Areas = func() []string {
	doc, _ := spec.Load(context.Background())
	var out []string
	for _, tag := range doc.Tags {
		out = append(out, tag.Name)
	}
	return out
}()

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
