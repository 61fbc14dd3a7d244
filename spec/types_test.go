package spec_test

import (
	"maps"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/spec"
)

// The types the interface gives the fields of each success answer, in our own notation: a JSON
// type per dotted path, "array<T>" for an array of T, "empty array" for data that is always [],
// and "untyped" where the interface types a record only as "string or mixed" (the spec leaves
// those values open, D21). Nullability is ours to choose (D9) and is not compared.

// Records, as the interface's resource tables type them.
var (
	cardTypes = fields{
		"id": "integer", "project_id": "integer", "platform_id": "integer", "is_master": "boolean",
		"is_active": "boolean", "master_card_id": "integer", "unique_identifier": "string",
		"evaluation_check": "string", "tour_key": "string", "short_description": "string",
		"card_type": "string", "group_id": "integer", "title": "string", "description": "string",
		"status": "string", "owner_id": "integer", "tag_id": "integer", "due_date": "string",
		"snoozed_until": "string", "priority": "string", "sort_order": "integer", "position": "integer",
		"is_overdue": "boolean", "created_by": "integer", "created_at": "string", "updated_at": "string",
		"deleted_at": "string",
	}
	groupTypes = fields{
		"id": "integer", "project_id": "integer", "platform_id": "integer", "is_master": "boolean",
		"master_group_id": "integer", "board_id": "integer", "title": "string", "description": "string",
		"type": "string", "color": "string", "icon": "string", "position": "integer",
		"is_collapsed": "boolean", "is_active": "boolean", "created_by": "integer",
		"created_at": "string", "updated_at": "string", "deleted_at": "string",
	}
	commentTypes = fields{
		"id": "integer", "project_id": "integer", "card_id": "integer", "user_id": "integer",
		"comment": "string", "is_read": "boolean", "read_at": "string", "parent_comment_id": "integer",
		"created_at": "string", "updated_at": "string", "deleted_at": "string",
	}
	tagTypes = fields{
		"id": "integer", "project_id": "integer", "name": "string", "color": "string", "icon": "string",
		"position": "integer", "is_active": "boolean", "created_by": "integer", "created_at": "string",
		"updated_at": "string", "deleted_at": "string",
	}
	cartTypes = fields{
		"session_token": "string", "status": "string", "currency": "string", "total_price": "number",
		"item_count": "integer", "is_claimed": "boolean", "items": "array<object>",
	}
	loginTypes = fields{
		"needs_code__regeneration": "boolean", "warn_message": "string", "token": "string",
		"language": "string", "id": "integer", "name": "string", "email": "string",
	}
	paginationTypes = fields{"total": "integer", "per_page": "integer", "current_page": "integer", "total_pages": "integer"}
)

// fields maps a dotted path to its type.
type fields map[string]string

// answer builds the expected types of a success body: the envelope's error and message, an
// object data, and the given paths under it. Each argument is a path and either a type or a
// nested fields table, which is placed under the path as an object.
func answer(pairs ...any) fields {
	out := fields{"error": "boolean", "message": "string", "data": "object"}
	for i := 0; i < len(pairs); i += 2 {
		path := pairs[i].(string)
		switch v := pairs[i+1].(type) {
		case string:
			out[path] = v
		case fields:
			out[path] = "object"
			for k, t := range v {
				out[path+"."+k] = t
			}
		}
	}
	return out
}

// successTypes are the interface's types of every operation's success answer.
var successTypes = map[string]fields{
	"authenticate":           merge(answer("data", loginTypes), fields{"errors": "array<string>"}),
	"commentsList":           answer("data.comments", "array<object>", "data.pagination", paginationTypes),
	"masterCardsCreate":      answer("data.card", cardTypes, "data.projects_updated", "string"),
	"masterCardsUpdate":      answer("data.card", "untyped", "data.projects_updated", "integer"),
	"cardsUpdate":            answer("data.card", "untyped"),
	"boardsUpdate":           answer("data.board", "untyped"),
	"masterGroupsUpdate":     answer("data.group", "untyped"),
	"widgetCardsList":        answer("data.cards", "array<object>", "data.snoozed_count", "integer"),
	"tourCardsUpdate":        answer("data.card", "untyped"),
	"masterBoardsSync":       answer("data.synced_count", "integer", "data.boards_created", "integer", "data.skipped_no_access", "integer"),
	"groupsDelete":           merge(answer(), fields{"data": "empty array"}),
	"conversationsRestore":   merge(answer(), fields{"data": "empty array"}),
	"masterBoardsCreate":     answer("data.board", "untyped"),
	"boardsList":             answer("data.boards", "array<object>"),
	"masterBoardsList":       answer("data.boards", "array<string>"),
	"cardsList":              answer("data.cards", "array<object>"),
	"tagsList":               answer("data.tags", "array<object>"),
	"cardsCreate":            answer("data.card", cardTypes),
	"masterGroupsCreate":     answer("data.group", groupTypes),
	"commentsCreate":         answer("data.comment", commentTypes),
	"tagsCreate":             answer("data.tag", tagTypes),
	"domainCartRemove":       answer("data.cart", cartTypes),
	"thumbnailsRegenerate":   answer("data.preview_image", "string"),
	"themeVersionsDeprecate": answer("data.version_id", "string", "data.theme_status", "string"),
}

func merge(a, b fields) fields {
	out := maps.Clone(a)
	maps.Copy(out, b)
	return out
}

// declaredTypes flattens a schema into the notation above.
func declaredTypes(ref *openapi3.SchemaRef) fields {
	out := fields{}
	var walk func(path string, s *openapi3.Schema)
	walk = func(path string, s *openapi3.Schema) {
		put := func(t string) {
			if path != "" {
				out[path] = t
			}
		}
		switch {
		case s.Type == nil || len(s.Type.Slice()) == 0:
			put("untyped")
		case s.Type.Is("array"):
			if s.MaxItems != nil && *s.MaxItems == 0 {
				put("empty array")
				return
			}
			item := "untyped"
			if s.Items != nil && s.Items.Value.Type != nil && len(s.Items.Value.Type.Slice()) == 1 {
				item = s.Items.Value.Type.Slice()[0]
			}
			put("array<" + item + ">")
		case s.Type.Is("object"):
			put("object")
			for name, p := range s.Properties {
				child := name
				if path != "" {
					child = path + "." + name
				}
				walk(child, p.Value)
			}
		default:
			put(strings.Join(s.Type.Slice(), "|"))
		}
	}
	walk("", ref.Value)
	return out
}

// Interface, Resources and Endpoints: every success answer declares exactly the fields the
// interface names, with the interface's types.
func TestSuccessAnswersDeclareTheInterfacesTypes(t *testing.T) {
	doc := load(t)
	ops := spec.Operations(doc)
	if len(ops) != len(successTypes) {
		t.Errorf("%d operations in the document, %d in the table", len(ops), len(successTypes))
	}
	for _, op := range ops {
		t.Run(op.ID, func(t *testing.T) {
			want, ok := successTypes[op.ID]
			if !ok {
				t.Fatalf("no types for %s in the table", op.ID)
			}
			responses := doc.Paths.Value(op.Path).Post.Responses
			status := "200"
			if op.ID == "masterCardsCreate" {
				status = "201" // the only operation whose success is 201
			}
			resp := responses.Value(status)
			if resp == nil {
				t.Fatalf("no %s answer", status)
			}
			got := declaredTypes(resp.Value.Content.Get("application/json").Schema)
			for _, path := range slices.Sorted(maps.Keys(merge(want, got))) {
				if got[path] != want[path] {
					t.Errorf("%s: declared %q, the interface types %q", path, orNone(got[path]), orNone(want[path]))
				}
			}
		})
	}
}

func orNone(s string) string {
	if s == "" {
		return "(absent)"
	}
	return s
}

// The rules most easily got wrong, stated on their own.
func TestTypesTheInterfaceSinglesOut(t *testing.T) {
	doc := load(t)
	typeAt := func(id, path string) string {
		for _, op := range spec.Operations(doc) {
			if op.ID != id {
				continue
			}
			for _, code := range []string{"200", "201"} {
				if r := doc.Paths.Value(op.Path).Post.Responses.Value(code); r != nil {
					return declaredTypes(r.Value.Content.Get("application/json").Schema)[path]
				}
			}
		}
		return ""
	}
	cases := []struct{ rule, op, path, want string }{
		{"master-boards/list answers its boards as strings", "masterBoardsList", "data.boards", "array<string>"},
		{"master card create counts the projects as a string", "masterCardsCreate", "data.projects_updated", "string"},
		{"master card update counts the projects as an integer", "masterCardsUpdate", "data.projects_updated", "integer"},
		{"deprecate answers version_id as a string", "themeVersionsDeprecate", "data.version_id", "string"},
		{"a cart's total price is a number, not an integer", "domainCartRemove", "data.cart.total_price", "number"},
	}
	for _, c := range cases {
		if got := typeAt(c.op, c.path); got != c.want {
			t.Errorf("%s: %s %s declared %q, want %q", c.rule, c.op, c.path, got, c.want)
		}
	}
}

// D21: the mock's master-boards/list answers the title of every master board of the seeded
// world, in id order.
func TestMasterBoardsListAnswersTheTitles(t *testing.T) {
	base, m := startMock(t)
	admin := loginAs(t, base, m.Users.Superadmin)
	status, v := postJSON(t, base+"/services/operations/v1/admin/master-boards/list", admin, `{}`)
	if status != http.StatusOK {
		t.Fatalf("status %d: %v", status, v)
	}
	data, _ := v["data"].(map[string]any)
	got, _ := data["boards"].([]any)

	world := fixtures.Build(fixtures.DefaultSeed, mockNow)
	boards := slices.Clone(world.State.Boards)
	sort.Slice(boards, func(i, j int) bool { return boards[i].ID < boards[j].ID })
	var want []any
	for _, b := range boards {
		if b.IsMaster && b.DeletedAt == nil {
			want = append(want, b.Title)
		}
	}
	if len(want) == 0 {
		t.Fatal("the seeded world has no master board")
	}
	if !slices.Equal(got, want) {
		t.Errorf("data.boards = %v, want the master boards' titles %v", got, want)
	}
}
