package spec

import (
	"errors"

	"github.com/getkin/kin-openapi/openapi3"
)

// SchemaErrors returns every *openapi3.SchemaError inside err, an error of
// openapi3filter.ValidateRequest or ValidateResponse, in the order kin-openapi reports them.
//
// kin-openapi nests them: with Options.MultiError the request error is an openapi3.MultiError of
// *openapi3filter.RequestError whose Err is an openapi3.MultiError of *openapi3.SchemaError (one
// per failed keyword). openapi3.MultiError has no Unwrap() []error, and its As stops at the first
// match, so errors.As finds only the first SchemaError; this walks them all.
//
// A request error with no SchemaError inside is not about a field: a body that is not JSON
// (RequestError.Err is an *openapi3filter.ParseError) or a missing required body.
func SchemaErrors(err error) []*openapi3.SchemaError {
	var out []*openapi3.SchemaError
	var walk func(error)
	walk = func(err error) {
		switch e := err.(type) {
		case nil:
		case *openapi3.SchemaError:
			out = append(out, e)
		case openapi3.MultiError:
			for _, inner := range e {
				walk(inner)
			}
		case interface{ Unwrap() []error }:
			for _, inner := range e.Unwrap() {
				walk(inner)
			}
		default:
			walk(errors.Unwrap(err))
		}
	}
	walk(err)
	return out
}

// Field returns the top-level request property a SchemaError is about, the key of the 422
// `errors` object (D5): the first element of its JSON pointer. It returns "" when the error is
// about the body as a whole (for example a body that is a JSON array, not an object: D2 makes
// that a 400).
//
// This holds for every keyword, "required" included: kin-openapi v0.152.0 appends the missing
// property's name to the pointer of a "required" error (JSONPointer() is ["title"], SchemaField
// is "required"), so the field name never has to be parsed out of Reason.
func Field(e *openapi3.SchemaError) string {
	if p := e.JSONPointer(); len(p) > 0 {
		return p[0]
	}
	return ""
}
