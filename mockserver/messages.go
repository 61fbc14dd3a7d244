package mockserver

import (
	"fmt"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/opsapi/mocktoolkit/reference"
)

// sentence words one kin-openapi schema error about field with the one sentence writer
// (reference/messages.go, D5): this maps kin-openapi's keywords to it and words nothing itself.
func sentence(field string, e *openapi3.SchemaError) string {
	s := e.Schema
	switch e.SchemaField {
	case "required":
		return reference.MsgRequired(field)
	case "nullable":
		return reference.MsgNotNull(field)
	case "type":
		return reference.MsgType(field, article(s))
	case "maxLength":
		return reference.MsgMaxLength(field, derefU(s.MaxLength))
	case "minLength":
		return reference.MsgMinLength(field, s.MinLength)
	case "minimum":
		return reference.MsgMin(field, number(s.Min))
	case "maximum":
		return reference.MsgMax(field, number(s.Max))
	case "enum":
		return reference.MsgOneOf(field, enumList(s.Enum))
	case "format":
		return reference.MsgFormat(field, s.Format)
	}
	return reference.MsgInvalid(field)
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

// enumList is the allowed values of an enumeration; null, which a nullable enumeration lists,
// is not a value a client chooses and is left out.
func enumList(values []any) []string {
	out := make([]string, 0, len(values))
	for _, v := range values {
		if v != nil {
			out = append(out, fmt.Sprint(v))
		}
	}
	return out
}
