package spec_test

import (
	"context"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/opsapi/mocktoolkit/spec"
)

// Interface, Endpoints: the request fields of each operation; "*" marks a required field,
// "?" a nullable one.
func TestRequestFieldsAreTheInterfaces(t *testing.T) {
	want := map[string]string{
		"authenticate":           "code? email* is_recovery? password* token?",
		"commentsList":           "card_id* page? per_page?",
		"masterCardsCreate":      "card_type? description? evaluation_check? group_id* is_active? priority? push_to_projects? short_description? status? title* tour_key? unique_identifier?",
		"masterCardsUpdate":      "card_type? description? evaluation_check? group_id? id* is_active? priority? short_description? status? sync_to_projects? title? tour_key? unique_identifier?",
		"cardsUpdate":            "description? due_date? group_id? id* owner_id? priority? snoozed_until? status? tag_id? title?",
		"boardsUpdate":           "color? description? icon? id* position? title?",
		"masterGroupsUpdate":     "description? id* title?",
		"widgetCardsList":        "include_snoozed? tool_key*",
		"tourCardsUpdate":        "id* status*",
		"masterBoardsSync":       "board_id*",
		"groupsDelete":           "id*",
		"conversationsRestore":   "conversation_id*",
		"masterBoardsCreate":     "color? description? icon? title* tool_key*",
		"boardsList":             "tool_key?",
		"masterBoardsList":       "",
		"cardsList":              "",
		"tagsList":               "",
		"cardsCreate":            "description? due_date? group_id? owner_id? priority? status? tag_id? title*",
		"masterGroupsCreate":     "board_id* description? title*",
		"commentsCreate":         "card_id* comment* parent_comment_id?",
		"tagsCreate":             "color? icon? name* position?",
		"domainCartRemove":       "cart_item_id* session_token*",
		"thumbnailsRegenerate":   "entity_id* type*",
		"themeVersionsDeprecate": "version_id*",
	}
	doc := load(t)
	for _, op := range spec.Operations(doc) {
		body := doc.Paths.Value(op.Path).Post.RequestBody.Value
		wantRequired := op.ID != "boardsList" && op.ID != "masterBoardsList" && op.ID != "cardsList" && op.ID != "tagsList"
		if body.Required != wantRequired {
			t.Errorf("%s: request body required %v, want %v", op.ID, body.Required, wantRequired)
		}
		schema := body.Content.Get("application/json").Schema.Value
		if schema.AdditionalProperties.Has != nil && !*schema.AdditionalProperties.Has {
			t.Errorf("%s: forbids unknown fields; D7 ignores them", op.ID)
		}
		if got := describeFields(schema); got != want[op.ID] {
			t.Errorf("%s: fields\n got %s\nwant %s", op.ID, got, want[op.ID])
		}
	}
}

// Interface, Resources and their fields: every field of the record tables, all required.
func TestRecordFieldsAreTheInterfaces(t *testing.T) {
	want := map[string]string{
		"Card":                   "card_type created_at created_by deleted_at description due_date evaluation_check group_id id is_active is_master is_overdue master_card_id owner_id platform_id position priority project_id short_description snoozed_until sort_order status tag_id title tour_key unique_identifier updated_at",
		"Group":                  "board_id color created_at created_by deleted_at description icon id is_active is_collapsed is_master master_group_id platform_id position project_id title type updated_at",
		"Comment":                "card_id comment created_at deleted_at id is_read parent_comment_id project_id read_at updated_at user_id",
		"Tag":                    "color created_at created_by deleted_at icon id is_active name position project_id updated_at",
		"Cart":                   "currency is_claimed item_count items session_token status total_price",
		"LoginResult":            "email id language name needs_code__regeneration token warn_message",
		"Pagination":             "current_page per_page total total_pages",
		"Thumbnail":              "preview_image",
		"ThemeVersionDeprecated": "theme_status version_id",
	}
	schemas := load(t).Components.Schemas
	for name, fields := range want {
		s := schemas[name].Value
		var props []string
		for p := range s.Properties {
			props = append(props, p)
		}
		sort.Strings(props)
		required := append([]string(nil), s.Required...)
		sort.Strings(required)
		if got := strings.Join(props, " "); got != fields {
			t.Errorf("%s: properties\n got %s\nwant %s", name, got, fields)
		}
		if got := strings.Join(required, " "); got != fields {
			t.Errorf("%s: required\n got %s\nwant %s", name, got, fields)
		}
	}
}

// House style: every schema and every inline property says what it is.
func TestEverySchemaAndFieldIsDescribed(t *testing.T) {
	for name, ref := range load(t).Components.Schemas {
		checkDescribed(t, name, ref)
	}
}

func checkDescribed(t *testing.T, where string, ref *openapi3.SchemaRef) {
	t.Helper()
	if ref == nil || ref.Ref != "" {
		return // described where it is defined
	}
	s := ref.Value
	if s.Description == "" {
		t.Errorf("%s has no description", where)
	}
	for name, p := range s.Properties {
		checkDescribed(t, where+"."+name, p)
	}
	checkDescribed(t, where+"[]", s.Items)
	if s.AdditionalProperties.Schema != nil {
		checkDescribed(t, where+"{}", s.AdditionalProperties.Schema)
	}
}

func TestLoadIsSafeForConcurrentUse(t *testing.T) {
	var wg sync.WaitGroup
	docs := make([]*openapi3.T, 8)
	for i := range docs {
		wg.Go(func() {
			doc, err := spec.Load(context.Background())
			if err != nil {
				t.Error(err)
			}
			docs[i] = doc
		})
	}
	wg.Wait()
	for _, d := range docs[1:] {
		if d != docs[0] {
			t.Fatal("concurrent Loads returned different documents")
		}
	}
}

func describeFields(s *openapi3.Schema) string {
	required := map[string]bool{}
	for _, r := range s.Required {
		required[r] = true
	}
	var out []string
	for name, p := range s.Properties {
		mark := ""
		if required[name] {
			mark += "*"
		}
		if p.Value.Nullable {
			mark += "?"
		}
		out = append(out, name+mark)
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// Package doc: spec imports no other package of this module but the number reader.
func TestImportsNoOtherPackageOfTheModule(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if path := strings.Trim(imp.Path.Value, `"`); strings.HasPrefix(path, "github.com/opsapi/mocktoolkit") && path != "github.com/opsapi/mocktoolkit/internal/jsonnum" {
				t.Errorf("%s imports %s", name, path)
			}
		}
	}
}
