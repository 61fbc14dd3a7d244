package reference

import (
	"fmt"
	"sort"
	"strings"
)

// The one sentence writer of field failures (D5). Every layer that finds a failed field rule —
// the OpenAPI validation of the HTTP adapter, the store's own rules (blank strings D44,
// references D43), the mock's controls — words it with these functions, so the same failure
// reads the same wherever it is found. Field names are the request's JSON keys; sentences name
// them with spaces for underscores ("The per page field ..."), in the manner of the framework
// the envelope comes from.

// FieldName is how a sentence names a request field: "per_page" reads "per page".
func FieldName(field string) string { return strings.ReplaceAll(field, "_", " ") }

// MsgRequired: the field is absent, or blank where a value is required (D44).
func MsgRequired(field string) string { return "The " + FieldName(field) + " field is required." }

// MsgNotNull: the field is null where null is not accepted.
func MsgNotNull(field string) string {
	return "The " + FieldName(field) + " field must not be null."
}

// MsgType: the value has the wrong JSON type; kind is "a string", "an integer", ...
func MsgType(field, kind string) string {
	return "The " + FieldName(field) + " field must be " + kind + "."
}

// MsgMaxLength: a string longer than limit characters.
func MsgMaxLength(field string, limit uint64) string {
	return fmt.Sprintf("The %s field must not be greater than %d characters.", FieldName(field), limit)
}

// MsgMinLength: a string shorter than limit characters.
func MsgMinLength(field string, limit uint64) string {
	return fmt.Sprintf("The %s field must be at least %d characters.", FieldName(field), limit)
}

// MsgMin: a number below its minimum.
func MsgMin(field, limit string) string {
	return "The " + FieldName(field) + " field must be at least " + limit + "."
}

// MsgMax: a number above its maximum.
func MsgMax(field, limit string) string {
	return "The " + FieldName(field) + " field must not be greater than " + limit + "."
}

// MsgBetween: a number outside lo..hi (both included).
func MsgBetween(field, lo, hi string) string {
	return "The " + FieldName(field) + " field must be between " + lo + " and " + hi + "."
}

// MsgGreaterThan: a number at or below an excluded lower bound.
func MsgGreaterThan(field, limit string) string {
	return "The " + FieldName(field) + " field must be greater than " + limit + "."
}

// MsgNot: a value the field may not take.
func MsgNot(field, value string) string {
	return "The " + FieldName(field) + " field must not be " + value + "."
}

// MsgRequiredWithout: neither of two fields was sent, and one of them is needed.
func MsgRequiredWithout(field, other string) string {
	return "The " + FieldName(field) + " field is required when " + FieldName(other) + " is not present."
}

// MsgProhibits: two fields that exclude each other were both sent.
func MsgProhibits(field, other string) string {
	return "The " + FieldName(field) + " and " + FieldName(other) + " fields cannot be sent together: send one of them."
}

// MsgOneOf: a value outside its enumeration.
func MsgOneOf(field string, allowed []string) string {
	return "The selected " + FieldName(field) + " is invalid (allowed: " + strings.Join(allowed, ", ") + ")."
}

// MsgSelected: an id that names no record the caller may use, where the operation answers a
// field failure rather than 404 (D43).
func MsgSelected(field string) string { return "The selected " + FieldName(field) + " is invalid." }

// MsgFormat: a string that is not of its format ("email", "date-time").
func MsgFormat(field, format string) string {
	switch format {
	case "email":
		return "The " + FieldName(field) + " field must be a valid email address."
	case "date-time":
		return "The " + FieldName(field) + " field must be a valid RFC 3339 date-time."
	}
	return MsgInvalid(field)
}

// MsgDateRange: an RFC 3339 date-time naming an instant outside years 0000 to 9999 once
// converted to UTC (D73): well formed, so "must be a valid date-time" would mislead.
func MsgDateRange(field string) string {
	return "The " + FieldName(field) + " field must be an instant from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59Z once converted to UTC."
}

// MsgText: a string that is not valid UTF-8 text, as sent (D74); path says where inside the
// field when it is deeper than the field itself ("boards[0].title").
func MsgText(field, path string) string {
	where := ""
	if path != "" && path != field {
		where = " at " + path
	}
	if field == "body" {
		return "The request body must be valid UTF-8 text" + where + "."
	}
	return "The " + FieldName(field) + " field must be valid UTF-8 text" + where + "."
}

// MsgUnknown: a field the body may not carry (the mock's controls refuse unknown fields).
func MsgUnknown(field string) string { return "The " + FieldName(field) + " field is not known." }

// MsgInvalid: any other failure of the field.
func MsgInvalid(field string) string { return "The " + FieldName(field) + " field is invalid." }

// Summary is the `message` of a validation answer (D5): the first sentence of the first field in
// alphabetical order, and how many more follow.
func Summary(fields map[string][]string) string {
	keys := make([]string, 0, len(fields))
	total := 0
	for k, msgs := range fields {
		keys = append(keys, k)
		total += len(msgs)
	}
	sort.Strings(keys)
	first := "The given data was invalid."
	for _, k := range keys {
		if len(fields[k]) > 0 {
			first = fields[k][0]
			break
		}
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

// Invalid returns the EVALIDATION error of fields, its message their Summary.
func Invalid(fields map[string][]string) *Error {
	return &Error{Code: EVALIDATION, Message: Summary(fields), Fields: fields}
}

// InvalidField returns the EVALIDATION error of one field failure.
func InvalidField(field, sentence string) *Error {
	return Invalid(map[string][]string{field: {sentence}})
}
