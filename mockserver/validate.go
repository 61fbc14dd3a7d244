package mockserver

import (
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/opsapi/mocktoolkit/reference"
	"github.com/opsapi/mocktoolkit/spec"
)

// bodyVisitOptions are those openapi3filter.ValidateRequestBody uses for a request body with
// every error collected (the spec sets no defaults, so none are written back).
var bodyVisitOptions = []openapi3.SchemaValidationOption{openapi3.VisitAsRequest(), openapi3.MultiErrors()}

// validate checks a body against the operation's request schema with kin-openapi — the one
// field validator of the HTTP path — and returns the failures keyed by field (D5), worded by
// the one sentence writer (reference/messages.go), or nil. Text that is not UTF-8 is checked on
// the raw bytes: decoding would silently turn it into U+FFFD (D74).
func validate(schema *openapi3.Schema, raw []byte, value map[string]any) map[string][]string {
	fields := textErrors(raw)
	err := schema.VisitJSON(value, bodyVisitOptions...)
	if err == nil {
		return fields
	}
	if fields == nil {
		fields = map[string][]string{}
	}
	for _, e := range spec.SchemaErrors(err) {
		field := spec.Field(e)
		if field == "" {
			field = "body"
		}
		msg := sentence(field, e)
		if slices.Contains(schema.Required, field) && missing(e.Value) {
			msg = reference.MsgRequired(field) // null and blank are missing, however the schema failed them (D44)
		}
		if !slices.Contains(fields[field], msg) {
			fields[field] = append(fields[field], msg)
		}
	}
	if len(fields) == 0 {
		fields["body"] = []string{"The request body is invalid."}
	}
	return fields
}

// textErrors words each top-level field of a request body whose text is not valid UTF-8: raw
// bytes that are not UTF-8, or an escaped lone surrogate such as "\ud800" (D74). It returns nil
// when every string is valid text.
func textErrors(raw []byte) map[string][]string {
	bad := spec.InvalidText(raw)
	if len(bad) == 0 {
		return nil
	}
	fields := map[string][]string{}
	for _, path := range bad {
		field := path
		if i := strings.IndexAny(field, ".["); i > 0 {
			field = field[:i] // errors are keyed by the top-level field (D5)
		}
		fields[field] = append(fields[field], reference.MsgText(field, path))
	}
	return fields
}

// missing tells a value that stands for no value: null, or a string of white space only (D44).
func missing(v any) bool {
	s, isString := v.(string)
	return v == nil || isString && strings.TrimSpace(s) == ""
}
