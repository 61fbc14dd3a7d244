// Package spec holds the OpenAPI 3.0.3 contract of the service: openapi.yaml, embedded, covering
// exactly the 24 POST operations of the interface (the Operations, Account, Domain and Website
// Service Interface, §Endpoints), with the reference choices of
// docs/decisions.md (D1..D42) where the interface leaves a gap.
//
// Bytes serves the document; Load parses and validates it once and hands every caller the same
// *openapi3.T, which callers must treat as read-only. Route gives the precomputed route of the
// operation at an exact path, ready for openapi3filter.ValidateRequest and ValidateResponse
// without a router. Operations lists the operations with their path, id and access class.
//
// Importing the package registers the string formats the document uses with kin-openapi's
// global registry (see formats.go): "email" (surrounding white space allowed, as authenticate
// trims it: D49) and a strict RFC 3339 "date-time" limited to instants the mock can write
// back (D73). Request validation therefore rejects a malformed e-mail or a date-time such as
// "tomorrow" or "9999-12-31T23:59:59-23:59" with any openapi3filter.Options.
//
// InvalidText finds the strings of a JSON document that are not valid UTF-8 text (D74), which
// a schema cannot see: decoding has already replaced them with U+FFFD.
//
// Request validation: the document declares a bearerAuth security scheme, so pass
// openapi3filter.NoopAuthenticationFunc (authentication is the HTTP layer's job) and MultiError
// to collect every field error:
//
//	opts := &openapi3filter.Options{MultiError: true, AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}
//
// kin-openapi checks the request's Content-Type and refuses an empty body where the body is
// required, so, to honour D6 (any Content-Type is read as JSON) and D2 (an empty body counts as
// {}), give ValidateRequest a request whose Content-Type is application/json and whose empty body
// is replaced by {}. A body that is not JSON yields a RequestError with no SchemaError inside
// (D2: 400); a JSON value that is not an object yields one SchemaError whose Field is "" (400).
//
// The request field an error is about is the first element of the SchemaError's JSON pointer;
// SchemaErrors collects the SchemaErrors of a validation error and Field extracts the field.
//
// This package imports no other package of this module but internal/jsonnum (the exact reader
// of JSON numbers, standard library only); every other package may import it.
package spec
