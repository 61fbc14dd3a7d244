package explore

import (
	"sort"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/spec"
)

// A field is one property of an operation's request body, as the OpenAPI document declares it.
type field struct {
	Name      string
	Type      string // integer, string, boolean, number
	Nullable  bool
	Required  bool
	Enum      []string // without null
	MaxLength int      // 0: none
	Min, Max  *int64
	Format    string
	// Gap is set on fields the interface does not declare (the spec adds them for a gap):
	// explore never breaks them on purpose.
	Gap bool
	// OpenValues is set on fields whose allowed values are not shown (generic card status): a
	// valid body leaves them out, as any value may be one the target refuses.
	OpenValues bool
}

// schemaOf is the request schema of every operation, by operation id.
type schemaOf map[string][]field

// gapFields are body fields the document declares for a gap of the interface: the boards/list
// filter (where tool_key is sent is not shown, D30).
var gapFields = map[string]bool{"boardsList.tool_key": true}

// loadSchemas reads the request body schemas of the 24 operations from the operation model.
func loadSchemas() schemaOf {
	out := schemaOf{}
	for _, op := range conformance.Operations {
		out[op.ID] = fieldsOf(op.ID, op.Request)
	}
	return out
}

func fieldsOf(opID string, s *openapi3.Schema) []field {
	req := map[string]bool{}
	for _, r := range s.Required {
		req[r] = true
	}
	names := make([]string, 0, len(s.Properties))
	for name := range s.Properties {
		names = append(names, name)
	}
	sort.Strings(names) // drawing order must not depend on map order
	fields := make([]field, 0, len(names))
	for _, name := range names {
		p := s.Properties[name].Value
		f := field{Name: name, Required: req[name], Nullable: p.Nullable, Format: p.Format, Gap: gapFields[opID+"."+name],
			OpenValues: spec.ValuesNotShown(s, name)}
		if p.Type != nil && len(*p.Type) > 0 {
			f.Type = (*p.Type)[0]
		}
		for _, e := range p.Enum {
			if s, ok := e.(string); ok {
				f.Enum = append(f.Enum, s)
			}
		}
		if p.MaxLength != nil {
			f.MaxLength = int(*p.MaxLength)
		}
		if p.Min != nil {
			v := int64(*p.Min)
			f.Min = &v
		}
		if p.Max != nil {
			v := int64(*p.Max)
			f.Max = &v
		}
		fields = append(fields, f)
	}
	return fields
}
