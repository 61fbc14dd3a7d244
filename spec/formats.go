package spec

import (
	"errors"
	"regexp"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
)

// dateTimePattern is kin-openapi's RFC 3339 date-time pattern: it pins the layout (upper-case
// T and Z, an offset or Z), which time.Parse alone is more lenient about.
var dateTimePattern = regexp.MustCompile(openapi3.FormatOfStringDateTime)

// init registers the string formats openapi.yaml uses. kin-openapi v0.152.0 ships "date-time"
// (a regexp only, which accepts 2026-02-31) but no "email" validator at all: without this,
// format: email is accepted as any string.
//
// The registry is global to the process; registering in init, before any goroutine can
// validate, keeps it free of data races. openapi3filter does not consult document-scoped
// validators (openapi3.T.SetStringFormatValidator) unless they are passed again through
// Options.SchemaValidationOptions, so the global registry is the one that always applies.
func init() {
	openapi3.DefineStringFormatValidator("email", openapi3.NewRegexpFormatValidator(openapi3.FormatOfStringForEmail))
	openapi3.DefineStringFormatValidator("date-time", openapi3.NewCallbackValidator(validateDateTime))
}

// validateDateTime accepts an RFC 3339 date-time that names a real instant
// ("2026-11-21T09:30:00Z", "2026-11-21T10:30:00.5+01:00") and rejects anything else
// ("tomorrow", "2026-11-21", "2026-02-31T00:00:00Z").
func validateDateTime(value string) error {
	if !dateTimePattern.MatchString(value) {
		return errors.New("not an RFC 3339 date-time")
	}
	if _, err := time.Parse(time.RFC3339Nano, value); err != nil {
		return errors.New("not a valid RFC 3339 date-time")
	}
	return nil
}
