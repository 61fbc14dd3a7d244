package mockserver

import (
	"fmt"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// Sentences of the validation answer (D5), in the manner of the framework the envelope comes
// from: "The per page field must not be greater than 100."

// summary is the `message` of a validation answer: the first sentence, and how many follow.
func summary(fields map[string][]string) string {
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	total := 0
	first := "The given data was invalid."
	for i, k := range keys {
		if i == 0 && len(fields[k]) > 0 {
			first = fields[k][0]
		}
		total += len(fields[k])
	}
	switch {
	case total <= 1:
		return first
	case total == 2:
		return first + " (and 1 more error)"
	default:
		return fmt.Sprintf("%s (and %d more errors)", first, total-1)
	}
}

// sentence words one kin-openapi schema error about field.
func sentence(field string, e *openapi3.SchemaError) string {
	name := "The " + strings.ReplaceAll(field, "_", " ") + " field"
	s := e.Schema
	switch e.SchemaField {
	case "required":
		return name + " is required."
	case "nullable":
		return name + " must not be null."
	case "type":
		return name + " must be " + article(s) + "."
	case "maxLength":
		return fmt.Sprintf("%s must not be greater than %d characters.", name, derefU(s.MaxLength))
	case "minLength":
		return fmt.Sprintf("%s must be at least %d characters.", name, s.MinLength)
	case "minimum":
		return fmt.Sprintf("%s must be at least %s.", name, number(s.Min))
	case "maximum":
		return fmt.Sprintf("%s must not be greater than %s.", name, number(s.Max))
	case "enum":
		return fmt.Sprintf("The selected %s is invalid (allowed: %s).", strings.ReplaceAll(field, "_", " "), enumList(s.Enum))
	case "format":
		switch s.Format {
		case "email":
			return name + " must be a valid email address."
		case "date-time":
			return name + " must be a valid RFC 3339 date-time."
		}
	}
	return name + " is invalid."
}

func article(s *openapi3.Schema) string {
	if s == nil || s.Type == nil || len(s.Type.Slice()) == 0 {
		return "valid"
	}
	switch s.Type.Slice()[0] {
	case "integer":
		return "an integer"
	case "array":
		return "an array"
	case "object":
		return "an object"
	default:
		return "a " + s.Type.Slice()[0]
	}
}

func derefU(p *uint64) uint64 {
	if p == nil {
		return 0
	}
	return *p
}

func number(p *float64) string {
	if p == nil {
		return "?"
	}
	return fmt.Sprintf("%g", *p)
}

// enumList words the allowed values of an enumeration. A nullable enumeration lists null among
// its values (OpenAPI 3.0 needs it there for null to be allowed by the enum keyword too); null is
// left out of the sentence, which names the values a client may choose.
func enumList(values []any) string {
	parts := make([]string, 0, len(values))
	for _, v := range values {
		if v == nil {
			continue
		}
		parts = append(parts, fmt.Sprint(v))
	}
	return strings.Join(parts, ", ")
}
