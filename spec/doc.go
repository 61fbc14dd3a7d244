// Package spec holds the OpenAPI 3.0.3 contract of the service: openapi.yaml, embedded, covering
// exactly the 24 POST operations of shared/interface.md, with the reference choices of
// docs/decisions.md (D1..D42) where the interface leaves a gap.
//
// Bytes serves the document; Load parses and validates it once and hands every caller the same
// *openapi3.T, which callers must treat as read-only. Route gives the precomputed route of the
// operation at an exact path, ready for openapi3filter.ValidateRequest and ValidateResponse
// without a router. Operations lists the operations with their path, id and access class.
//
// Importing the package registers the string formats the document uses with kin-openapi's
// global registry (see formats.go): "email" and a strict RFC 3339 "date-time". Request
// validation therefore rejects a malformed e-mail or a date-time such as "tomorrow" with any
// openapi3filter.Options.
//
// Request validation: the document declares a bearerAuth security scheme, so pass
// openapi3filter.NoopAuthenticationFunc (authentication is the HTTP layer's job) and MultiError
// to collect every field error:
//
//	opts := &openapi3filter.Options{MultiError: true, AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}
//
// The request field an error is about is the first element of the SchemaError's JSON pointer;
// FieldOf extracts it (see its comment for the kin-openapi error shapes).
//
// This package imports no other package of this module; every other package may import it.
package spec
