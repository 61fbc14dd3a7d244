package spec_test

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/opsapi/mocktoolkit/spec"
)

// The house rules of openapi.yaml, held in CI: what a linter such as vacuum's recommended
// ruleset asks of a document (descriptions, tags, examples, no unused components, contact and
// license), plus what our generators and our mock need (names that do not collide with the
// types oapi-codegen generates, null listed in nullable enumerations, snake_case properties,
// relative servers). lint returns one line per broken rule; the document must have none.

// areas are the tags an operation may carry: one per area of the service.
var areas = []string{"account", "operations", "admin", "ai", "domains", "websites"}

// generatedSuffixes are the names oapi-codegen (and other generators, such as
// openapi-generator's request types) derive from an operationId: a component schema named
// <OperationId><suffix> would collide with them.
var generatedSuffixes = []string{"Response", "Request", "JSONBody", "JSONRequestBody", "Params", "RequestObject", "ResponseObject"}

// snakeCase is a property name of lower-case words joined by underscores. The interface's
// needs_code__regeneration has a double underscore, which the rule allows.
var snakeCase = regexp.MustCompile(`^[a-z][a-z0-9]*(__?[a-z0-9]+)*$`)

func lint(doc *openapi3.T, raw []byte) []string {
	var problems []string
	report := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	lintInfo(doc, report)
	declared := lintTags(doc, report)
	used := map[string]bool{}
	for _, path := range doc.Paths.InMatchingOrder() {
		for method, op := range doc.Paths.Value(path).Operations() {
			where := method + " " + path
			lintOperation(where, op, declared, used, report)
			if op.RequestBody != nil {
				lintContent(where+" request body", op.RequestBody.Value.Content, openapi3.VisitAsRequest(), report)
			}
			for code, resp := range op.Responses.Map() {
				where := where + " " + code
				if resp.Value.Description == nil || strings.TrimSpace(*resp.Value.Description) == "" {
					report("%s: the answer has no description", where)
				}
				lintContent(where, resp.Value.Content, openapi3.VisitAsResponse(), report)
			}
		}
	}
	for _, tag := range declared {
		if !used[tag] {
			report("tag %s is declared but no operation carries it", tag)
		}
	}
	lintNames(doc, report)
	lintSchemas(doc, report)
	lintRecordExamples(doc, report)
	lintUnused(doc, raw, report)
	lintAsVacuum(doc, report)
	for _, s := range doc.Servers {
		if u, err := url.Parse(s.URL); err != nil || u.IsAbs() || u.Host != "" || !strings.HasPrefix(s.URL, "/") {
			report("server %q is not a relative URL", s.URL)
		}
	}
	sort.Strings(problems)
	return problems
}

func lintInfo(doc *openapi3.T, report func(string, ...any)) {
	info := doc.Info
	if info == nil {
		report("info is missing")
		return
	}
	if strings.TrimSpace(info.Description) == "" {
		report("info has no description")
	}
	if info.Contact == nil || (info.Contact.URL == "" && info.Contact.Email == "") {
		report("info has no contact with a URL or an e-mail")
	}
	if info.License == nil || info.License.Name == "" || info.License.URL == "" {
		report("info has no license with a name and a URL")
	}
}

// lintTags checks the top-level tags and returns their names.
func lintTags(doc *openapi3.T, report func(string, ...any)) []string {
	var names []string
	for _, tag := range doc.Tags {
		names = append(names, tag.Name)
		if !slices.Contains(areas, tag.Name) {
			report("tag %s is not one of the areas %v", tag.Name, areas)
		}
		if strings.TrimSpace(tag.Description) == "" {
			report("tag %s has no description", tag.Name)
		}
	}
	return names
}

func lintOperation(where string, op *openapi3.Operation, declared []string, used map[string]bool, report func(string, ...any)) {
	if op.OperationID == "" {
		report("%s: no operationId", where)
	}
	if strings.TrimSpace(op.Summary) == "" {
		report("%s: no summary", where)
	}
	if strings.TrimSpace(op.Description) == "" {
		report("%s: no description", where)
	} else if op.Description == op.Summary {
		report("%s: the description only repeats the summary", where)
	}
	if len(op.Tags) != 1 {
		report("%s: tags %v, want exactly one", where, op.Tags)
	}
	for _, tag := range op.Tags {
		used[tag] = true
		if !slices.Contains(declared, tag) {
			report("%s: tag %s is not declared at the top level", where, tag)
		}
	}
}

// lintContent checks that every media type has an example (or named examples) and that each
// validates against its schema, read as a request or as an answer.
func lintContent(where string, content openapi3.Content, as openapi3.SchemaValidationOption, report func(string, ...any)) {
	if len(content) == 0 {
		report("%s: no content", where)
	}
	for mediaType, mt := range content {
		where := where + " " + mediaType
		if mt.Schema == nil || mt.Schema.Value == nil {
			report("%s: no schema", where)
			continue
		}
		values := map[string]any{}
		if mt.Example != nil {
			values["example"] = mt.Example
		}
		for name, ex := range mt.Examples {
			if ex == nil || ex.Value == nil || ex.Value.Value == nil {
				report("%s: example %s has no value", where, name)
				continue
			}
			values["example "+name] = ex.Value.Value
		}
		if len(values) == 0 {
			report("%s: no example", where)
		}
		for name, v := range values {
			if err := mt.Schema.Value.VisitJSON(v, openapi3.MultiErrors(), as); err != nil {
				report("%s: %s does not validate: %v", where, name, err)
			}
		}
	}
}

// lintNames checks that no component schema takes a name a generator derives from an
// operationId.
func lintNames(doc *openapi3.T, report func(string, ...any)) {
	for _, op := range spec.Operations(doc) {
		if op.ID == "" {
			continue // reported as an operation without an operationId
		}
		base := strings.ToUpper(op.ID[:1]) + op.ID[1:]
		for _, suffix := range generatedSuffixes {
			if _, ok := doc.Components.Schemas[base+suffix]; ok {
				report("schema %s collides with the %s type generated for operation %s", base+suffix, suffix, op.ID)
			}
		}
	}
}

// lintSchemas walks every schema of the document, components and inline ones.
func lintSchemas(doc *openapi3.T, report func(string, ...any)) {
	seen := map[*openapi3.Schema]bool{}
	var walk func(where string, ref *openapi3.SchemaRef)
	walk = func(where string, ref *openapi3.SchemaRef) {
		if ref == nil || ref.Value == nil || seen[ref.Value] {
			return
		}
		s := ref.Value
		seen[s] = true
		if s.Nullable && len(s.Enum) > 0 && !slices.Contains(s.Enum, any(nil)) {
			report("%s: nullable enumeration %v does not list null", where, s.Enum)
		}
		for name, p := range s.Properties {
			if !snakeCase.MatchString(name) {
				report("%s: property %q is not snake_case", where, name)
			}
			walk(where+"."+name, p)
		}
		walk(where+"[]", s.Items)
		walk(where+"{}", s.AdditionalProperties.Schema)
		for i, sub := range slices.Concat(s.AllOf, s.AnyOf, s.OneOf) {
			walk(fmt.Sprintf("%s/%d", where, i), sub)
		}
	}
	for _, name := range sortedKeys(doc.Components.Schemas) {
		walk("schema "+name, doc.Components.Schemas[name])
	}
	for _, path := range doc.Paths.InMatchingOrder() {
		for method, op := range doc.Paths.Value(path).Operations() {
			if op.RequestBody != nil {
				for mt, c := range op.RequestBody.Value.Content {
					walk(method+" "+path+" request "+mt, c.Schema)
				}
			}
			for code, resp := range op.Responses.Map() {
				for mt, c := range resp.Value.Content {
					walk(method+" "+path+" "+code+" "+mt, c.Schema)
				}
			}
		}
	}
}

// lintRecordExamples checks that every object schema of the components that another schema
// refers to (a record: Card, Cart, Pagination, ...) carries an example of its own, so that a
// reader of the record alone sees real values.
func lintRecordExamples(doc *openapi3.T, report func(string, ...any)) {
	const prefix = "#/components/schemas/"
	referred := map[string]bool{}
	var collect func(ref *openapi3.SchemaRef, depth int)
	collect = func(ref *openapi3.SchemaRef, depth int) {
		if ref == nil {
			return
		}
		if strings.HasPrefix(ref.Ref, prefix) {
			referred[strings.TrimPrefix(ref.Ref, prefix)] = true
			if depth > 0 {
				return // walked where it is defined
			}
		}
		if ref.Value == nil {
			return
		}
		for _, p := range ref.Value.Properties {
			collect(p, depth+1)
		}
		collect(ref.Value.Items, depth+1)
	}
	for _, ref := range doc.Components.Schemas {
		collect(ref, 0)
	}
	for _, name := range sortedKeys(referred) {
		ref := doc.Components.Schemas[name]
		if ref == nil || ref.Value == nil || !ref.Value.Type.Is("object") {
			continue
		}
		if ref.Value.Example == nil {
			report("schema %s: a record other schemas refer to, with no example", name)
		}
	}
}

// lintUnused reports components that nothing refers to. The document has no external
// references, so a component is used when its reference appears in the text.
func lintUnused(doc *openapi3.T, raw []byte, report func(string, ...any)) {
	text := string(raw)
	check := func(kind string, names []string) {
		for _, name := range names {
			ref := "#/components/" + kind + "/" + name + "'"
			if !strings.Contains(text, ref) {
				report("components/%s/%s is never referred to", kind, name)
			}
		}
	}
	check("schemas", sortedKeys(doc.Components.Schemas))
	check("responses", sortedKeys(doc.Components.Responses))
	check("headers", sortedKeys(doc.Components.Headers))
	check("parameters", sortedKeys(doc.Components.Parameters))
	check("requestBodies", sortedKeys(doc.Components.RequestBodies))
	check("examples", sortedKeys(doc.Components.Examples))
	for name := range doc.Components.SecuritySchemes {
		if !strings.Contains(text, name+": []") {
			report("components/securitySchemes/%s is never required", name)
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func TestTheDocumentKeepsTheHouseRules(t *testing.T) {
	for _, p := range lint(load(t), spec.Bytes()) {
		t.Error(p)
	}
}

// Each rule catches what it is for: a fresh copy of the document, broken one way, yields the
// problem named.
func TestLintCatchesEachBrokenRule(t *testing.T) {
	const cardsCreate = "/services/operations/v1/operations/cards/create"
	cases := []struct {
		name  string
		raw   func(string) string // edits the YAML text before loading
		doc   func(*openapi3.T)   // edits the loaded document
		wants string              // a problem that must be reported
	}{
		{name: "an operation without a summary",
			doc:   func(d *openapi3.T) { d.Paths.Value(cardsCreate).Post.Summary = "" },
			wants: "POST " + cardsCreate + ": no summary"},
		{name: "an operation without a description",
			doc:   func(d *openapi3.T) { d.Paths.Value(cardsCreate).Post.Description = "" },
			wants: "POST " + cardsCreate + ": no description"},
		{name: "an operation with two tags",
			doc:   func(d *openapi3.T) { d.Paths.Value(cardsCreate).Post.Tags = []string{"operations", "admin"} },
			wants: "POST " + cardsCreate + ": tags [operations admin], want exactly one"},
		{name: "an operation with an undeclared tag",
			doc:   func(d *openapi3.T) { d.Paths.Value(cardsCreate).Post.Tags = []string{"cards"} },
			wants: "POST " + cardsCreate + ": tag cards is not declared at the top level"},
		{name: "an operation without an operationId",
			doc:   func(d *openapi3.T) { d.Paths.Value(cardsCreate).Post.OperationID = "" },
			wants: "POST " + cardsCreate + ": no operationId"},
		{name: "a request body without an example",
			doc: func(d *openapi3.T) {
				d.Paths.Value(cardsCreate).Post.RequestBody.Value.Content.Get("application/json").Example = nil
			},
			wants: "POST " + cardsCreate + " request body application/json: no example"},
		{name: "an answer whose example does not validate",
			doc: func(d *openapi3.T) {
				d.Paths.Value(cardsCreate).Post.Responses.Value("200").Value.Content.Get("application/json").Example = map[string]any{"error": "no"}
			},
			wants: "POST " + cardsCreate + " 200 application/json: example does not validate"},
		{name: "an error answer without a description",
			doc: func(d *openapi3.T) {
				empty := ""
				d.Paths.Value(cardsCreate).Post.Responses.Value("404").Value.Description = &empty
			},
			wants: "POST " + cardsCreate + " 404: the answer has no description"},
		{name: "a nullable enumeration without null",
			raw: func(s string) string {
				return strings.Replace(s, "enum: [low, normal, high, urgent, null]", "enum: [low, normal, high, urgent]", 1)
			},
			wants: "nullable enumeration [low normal high urgent] does not list null"},
		{name: "a schema named like a generated response type",
			raw:   func(s string) string { return strings.ReplaceAll(s, "CardsCreateSuccess", "CardsCreateResponse") },
			wants: "schema CardsCreateResponse collides with the Response type generated for operation cardsCreate"},
		{name: "a schema named like a generated request type",
			raw:   func(s string) string { return strings.ReplaceAll(s, "TagsCreateBody", "TagsCreateRequest") },
			wants: "schema TagsCreateRequest collides with the Request type generated for operation tagsCreate"},
		{name: "a camelCase property",
			raw: func(s string) string {
				return strings.Replace(s, "        card_id: {type: integer, description: \"Card commented on (comments/create request).\"}", "        cardId: {type: integer, description: \"Card commented on (comments/create request).\"}", 1)
			},
			wants: `schema CommentsCreateBody: property "cardId" is not snake_case`},
		{name: "a request body without a description",
			doc:   func(d *openapi3.T) { d.Paths.Value(cardsCreate).Post.RequestBody.Value.Description = "" },
			wants: "POST " + cardsCreate + " request body: no description"},
		{name: "a request body schema without an example",
			doc:   func(d *openapi3.T) { d.Components.Schemas["TagsCreateBody"].Value.Example = nil },
			wants: "schema TagsCreateBody: a request body or error shape with no example"},
		{name: "an error shape without an example",
			doc:   func(d *openapi3.T) { d.Components.Schemas["ErrorB"].Value.Example = nil },
			wants: "schema ErrorB: a request body or error shape with no example"},
		{name: "a property description written twice",
			doc: func(d *openapi3.T) {
				d.Components.Schemas["Tag"].Value.Properties["name"].Value.Description = d.Components.Schemas["Card"].Value.Properties["title"].Value.Description
			},
			wants: "property description \"Title (card record).\" is written twice"},
		{name: "an untyped schema that does not say why",
			doc: func(d *openapi3.T) {
				d.Components.Schemas["Tag"].Value.Properties["name"].Value.Type = nil
			},
			wants: "schema Tag.name has no type, and its description does not say the interface shows none"},
		{name: "a record without an example",
			doc:   func(d *openapi3.T) { d.Components.Schemas["Card"].Value.Example = nil },
			wants: "schema Card: a record other schemas refer to, with no example"},
		{name: "an unused schema",
			doc: func(d *openapi3.T) {
				d.Components.Schemas["Orphan"] = openapi3.NewSchemaRef("", openapi3.NewObjectSchema())
			},
			wants: "components/schemas/Orphan is never referred to"},
		{name: "an absolute server",
			doc:   func(d *openapi3.T) { d.Servers[0].URL = "https://api.example.com/" },
			wants: `server "https://api.example.com/" is not a relative URL`},
		{name: "no contact",
			doc:   func(d *openapi3.T) { d.Info.Contact = nil },
			wants: "info has no contact with a URL or an e-mail"},
		{name: "no license",
			doc:   func(d *openapi3.T) { d.Info.License = nil },
			wants: "info has no license with a name and a URL"},
		{name: "a declared tag nobody uses",
			doc:   func(d *openapi3.T) { d.Tags = append(d.Tags, &openapi3.Tag{Name: "billing", Description: "Invoices."}) },
			wants: "tag billing is declared but no operation carries it"},
		{name: "a tag that is not an area",
			doc:   func(d *openapi3.T) { d.Tags = append(d.Tags, &openapi3.Tag{Name: "billing", Description: "Invoices."}) },
			wants: "tag billing is not one of the areas"},
		{name: "a tag without a description",
			doc:   func(d *openapi3.T) { d.Tags[0].Description = "" },
			wants: "tag account has no description"},
	}
	for _, c := range cases {
		t.Run("reports "+c.name, func(t *testing.T) {
			raw := string(spec.Bytes())
			if c.raw != nil {
				edited := c.raw(raw)
				if edited == raw {
					t.Fatal("the edit changed nothing: the test no longer matches the document")
				}
				raw = edited
			}
			loader := openapi3.NewLoader()
			doc, err := loader.LoadFromData([]byte(raw))
			if err != nil {
				t.Fatalf("load the edited document: %v", err)
			}
			if err := doc.Validate(context.Background(), openapi3.DisableExamplesValidation()); err != nil {
				t.Fatalf("the edited document does not validate: %v", err)
			}
			if c.doc != nil {
				c.doc(doc)
			}
			problems := lint(doc, []byte(raw))
			for _, p := range problems {
				if strings.Contains(p, c.wants) {
					return
				}
			}
			t.Errorf("no problem mentions %q; got %q", c.wants, problems)
		})
	}
}

// Every request body and every answer of every operation carries an example that validates
// against its schema (the rule of lintContent, run on its own so its failures read alone).
func TestEveryBodyAndAnswerHasAValidExample(t *testing.T) {
	doc := load(t)
	report := func(format string, args ...any) { t.Errorf(format, args...) }
	checked := 0
	for _, op := range spec.Operations(doc) {
		post := doc.Paths.Value(op.Path).Post
		lintContent(op.ID+" request body", post.RequestBody.Value.Content, openapi3.VisitAsRequest(), report)
		checked++
		for code, resp := range post.Responses.Map() {
			lintContent(op.ID+" "+code, resp.Value.Content, openapi3.VisitAsResponse(), report)
			checked++
		}
	}
	if checked < 24*2 {
		t.Errorf("checked %d bodies and answers, want at least 48", checked)
	}
}
