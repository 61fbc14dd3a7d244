package reference_test

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/reference"
	"github.com/opsapi/mocktoolkit/spec"
)

// inputs are the request structs of the operations, by operationId.
var inputs = map[string]any{
	"authenticate": reference.AuthenticateInput{}, "commentsList": reference.ListCommentsInput{},
	"masterCardsCreate": reference.CreateMasterCardInput{}, "masterCardsUpdate": reference.UpdateMasterCardInput{},
	"cardsUpdate": reference.UpdateCardInput{}, "boardsUpdate": reference.UpdateBoardInput{},
	"masterGroupsUpdate": reference.UpdateMasterGroupInput{}, "widgetCardsList": reference.ListWidgetCardsInput{},
	"tourCardsUpdate": reference.UpdateTourCardInput{}, "masterBoardsSync": reference.SyncMasterBoardInput{},
	"groupsDelete": reference.DeleteGroupInput{}, "conversationsRestore": reference.RestoreConversationInput{},
	"masterBoardsCreate": reference.CreateMasterBoardInput{}, "boardsList": reference.ListBoardsInput{},
	"cardsCreate": reference.CreateCardInput{}, "masterGroupsCreate": reference.CreateMasterGroupInput{},
	"commentsCreate": reference.CreateCommentInput{}, "tagsCreate": reference.CreateTagInput{},
	"domainCartRemove": reference.RemoveCartItemInput{}, "thumbnailsRegenerate": reference.RegenerateThumbnailInput{},
	"themeVersionsDeprecate": reference.DeprecateThemeVersionInput{},
}

// The request structs decode exactly the fields the OpenAPI document declares: one JSON tag per
// property of the operation's request schema (the operations without fields have no struct).
func TestInputsAreTheDocumentsRequestFields(t *testing.T) {
	for _, op := range operations(t) {
		in, ok := inputs[op.ID]
		if !ok {
			if len(op.Fields) > 0 {
				t.Errorf("%s declares %v but has no input struct here", op.ID, op.Fields)
			}
			continue
		}
		var tags []string
		rt := reflect.TypeOf(in)
		for i := range rt.NumField() {
			name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
			tags = append(tags, name)
		}
		slices.Sort(tags)
		if !slices.Equal(tags, op.Fields) {
			t.Errorf("%s: %T decodes %v, the document declares %v", op.ID, in, tags, op.Fields)
		}
	}
}

// The limits and enumerations the domain checks whole records with (a loaded snapshot) are the
// ones the OpenAPI document validates requests with.
func TestLimitsAndEnumerationsAreTheDocuments(t *testing.T) {
	props := map[string]map[string]any{} // "op.field" -> maxLength / maximum / enum
	for _, op := range operations(t) {
		for name, ref := range op.Request.Properties {
			p := ref.Value
			m := map[string]any{}
			if p.MaxLength != nil {
				m["maxLength"] = int(*p.MaxLength)
			}
			if p.Max != nil {
				m["maximum"] = int(*p.Max)
			}
			var enum []string
			for _, e := range p.Enum {
				if s, ok := e.(string); ok {
					enum = append(enum, s)
				}
			}
			m["enum"] = enum
			props[op.ID+"."+name] = m
		}
	}
	for _, c := range []struct{ limit, field, kind string }{
		{"maxTitle", "cardsCreate.title", "maxLength"}, {"maxTitle", "tagsCreate.name", "maxLength"},
		{"maxTitle", "masterBoardsCreate.title", "maxLength"}, {"maxColor", "boardsUpdate.color", "maxLength"},
		{"maxColor", "tagsCreate.color", "maxLength"}, {"maxIcon", "boardsUpdate.icon", "maxLength"},
		{"maxIcon", "tagsCreate.icon", "maxLength"}, {"maxStatus", "cardsUpdate.status", "maxLength"},
		{"maxToolKey", "masterBoardsCreate.tool_key", "maxLength"}, {"maxWidgetTool", "widgetCardsList.tool_key", "maxLength"},
		{"maxMasterKey", "masterCardsCreate.unique_identifier", "maxLength"}, {"maxMasterKey", "masterCardsCreate.tour_key", "maxLength"},
		{"maxMasterKey", "masterCardsUpdate.evaluation_check", "maxLength"}, {"maxSession", "domainCartRemove.session_token", "maxLength"},
		{"maxPerPage", "commentsList.per_page", "maximum"},
	} {
		if got := props[c.field][c.kind]; got != reference.Limits[c.limit] {
			t.Errorf("%s is %d, the document's %s of %s is %v", c.limit, reference.Limits[c.limit], c.kind, c.field, got)
		}
	}
	for _, c := range []struct{ enum, field string }{
		{"priorities", "cardsCreate.priority"}, {"priorities", "masterCardsUpdate.priority"},
		{"masterCardStatuses", "masterCardsCreate.status"}, {"cardTypes", "masterCardsCreate.card_type"},
	} {
		if got, _ := props[c.field]["enum"].([]string); !slices.Equal(got, reference.Enums[c.enum]) {
			t.Errorf("%s is %v, the document's enumeration of %s is %v", c.enum, reference.Enums[c.enum], c.field, got)
		}
	}
}

func operations(t *testing.T) []spec.Operation {
	t.Helper()
	doc, err := spec.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return spec.Operations(doc)
}
