package spec

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
)

// dateTimePattern is kin-openapi's RFC 3339 date-time pattern: it pins the layout (upper-case
// T and Z, an offset or Z), which time.Parse alone is more lenient about.
var dateTimePattern = regexp.MustCompile(openapi3.FormatOfStringDateTime)

// emailPattern is kin-openapi's e-mail pattern.
var emailPattern = regexp.MustCompile(openapi3.FormatOfStringForEmail)

// EarliestTime and LatestTime bound the instants a date-time field may name once converted to
// UTC (D73): RFC 3339 writes a four-digit year, and the mock answers and saves every time in UTC
// (D9), so an instant outside years 0000–9999 in UTC could be read but never written back.
var (
	EarliestTime = time.Date(0, time.January, 1, 0, 0, 0, 0, time.UTC)
	LatestTime   = time.Date(9999, time.December, 31, 23, 59, 59, 999999999, time.UTC)
)

// init registers the string formats openapi.yaml uses. kin-openapi v0.152.0 ships "date-time"
// (a regexp only, which accepts 2026-02-31) but no "email" validator at all: without this,
// format: email is accepted as any string.
//
// The registry is global to the process; registering in init, before any goroutine can
// validate, keeps it free of data races. openapi3filter does not consult document-scoped
// validators (openapi3.T.SetStringFormatValidator) unless they are passed again through
// Options.SchemaValidationOptions, so the global registry is the one that always applies.
func init() {
	openapi3.DefineStringFormatValidator("email", openapi3.NewCallbackValidator(ValidateEmail))
	openapi3.DefineStringFormatValidator("date-time", openapi3.NewCallbackValidator(ValidateDateTime))
}

// ValidateEmail accepts an e-mail address with optional surrounding white space, which
// authenticate trims before matching (D49): "ada@example.com", " ada@example.com ".
func ValidateEmail(value string) error {
	if !emailPattern.MatchString(strings.TrimSpace(value)) {
		return errors.New("not an e-mail address")
	}
	return nil
}

// ValidateDateTime accepts an RFC 3339 date-time that names a real instant the mock can write
// back ("2026-11-21T09:30:00Z", "2026-11-21T10:30:00.5+01:00") and rejects anything else:
// "tomorrow", "2026-11-21", "2026-02-31T00:00:00Z", an offset outside -23:59..+23:59
// ("+24:00", "+23:60"), and an instant before EarliestTime or after LatestTime in UTC
// ("9999-12-31T23:59:59-23:59" is year 10000 in UTC) (D73).
func ValidateDateTime(value string) error {
	if !dateTimePattern.MatchString(value) {
		return errors.New("not an RFC 3339 date-time")
	}
	if !validOffset(value) {
		return errors.New("not an RFC 3339 time offset")
	}
	t, err := time.Parse(time.RFC3339Nano, value)
	if err != nil {
		return errors.New("not a valid RFC 3339 date-time")
	}
	if t.Before(EarliestTime) || t.After(LatestTime) {
		return ErrOutsideYears
	}
	return nil
}

// ErrOutsideYears is ValidateDateTime's error for an RFC 3339 date-time that names an instant
// outside years 0000 to 9999 once converted to UTC: well formed, but not one the mock can write.
var ErrOutsideYears = errors.New("outside years 0000 to 9999 in UTC")

// validOffset checks the numeric offset of a value the pattern matched: hours 00–23 and
// minutes 00–59, as RFC 3339's time-numoffset says (time.Parse takes up to +24:00).
func validOffset(value string) bool {
	if strings.HasSuffix(value, "Z") {
		return true
	}
	off := value[len(value)-5:] // "hh:mm", the pattern guarantees the layout
	h, errH := strconv.Atoi(off[:2])
	m, errM := strconv.Atoi(off[3:])
	return errH == nil && errM == nil && h <= 23 && m <= 59
}
