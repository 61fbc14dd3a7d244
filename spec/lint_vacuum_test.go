package spec_test

import (
	"fmt"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// lintAsVacuum holds the document to what vacuum's recommended rules ask beyond lint's other
// checks (run it with the toolkit's vacuum script; the project's score is at least 90):
// every request body describes itself (operation-description), every request body schema and
// error shape carries an example (oas3-missing-example), and no property description of the
// components is written twice (description-duplication: say what differs, or share the schema
// by $ref). A schema without a type (oas-missing-type) is allowed only where the interface shows
// none, and its description says so: typing it would hold vendors to more than the interface.
func lintAsVacuum(doc *openapi3.T, report func(string, ...any)) {
	lintUntyped(doc, report)
	for _, path := range doc.Paths.InMatchingOrder() {
		for method, op := range doc.Paths.Value(path).Operations() {
			if op.RequestBody != nil && strings.TrimSpace(op.RequestBody.Value.Description) == "" {
				report("%s %s request body: no description", method, path)
			}
		}
	}
	seen := map[string]string{}
	for _, name := range sortedKeys(doc.Components.Schemas) {
		s := doc.Components.Schemas[name].Value
		if s == nil {
			continue
		}
		if (strings.HasSuffix(name, "Body") || strings.HasPrefix(name, "Error") || name == "ValidationError") && s.Type.Is("object") && s.Example == nil {
			report("schema %s: a request body or error shape with no example", name)
		}
		for _, prop := range sortedKeys(s.Properties) {
			p := s.Properties[prop]
			if p.Ref != "" || p.Value == nil || p.Value.Description == "" {
				continue
			}
			where := fmt.Sprintf("%s.%s", name, prop)
			if first, ok := seen[p.Value.Description]; ok {
				report("property description %q is written twice: %s and %s", p.Value.Description, first, where)
				continue
			}
			seen[p.Value.Description] = where
		}
	}
}

// lintUntyped reports component schemas, their properties and array items, that have no type
// and whose description does not say the interface leaves the type open.
func lintUntyped(doc *openapi3.T, report func(string, ...any)) {
	open := func(d string) bool {
		return strings.Contains(d, "not shown") || strings.Contains(d, "untyped") || strings.Contains(d, "string or mixed")
	}
	var check func(where string, ref *openapi3.SchemaRef)
	check = func(where string, ref *openapi3.SchemaRef) {
		if ref == nil || ref.Ref != "" || ref.Value == nil {
			return
		}
		s := ref.Value
		if s.Type == nil && len(s.AllOf)+len(s.AnyOf)+len(s.OneOf) == 0 && !open(s.Description) {
			report("%s has no type, and its description does not say the interface shows none", where)
		}
		for _, name := range sortedKeys(s.Properties) {
			check(where+"."+name, s.Properties[name])
		}
		check(where+"[]", s.Items)
	}
	for _, name := range sortedKeys(doc.Components.Schemas) {
		check("schema "+name, doc.Components.Schemas[name])
	}
}
