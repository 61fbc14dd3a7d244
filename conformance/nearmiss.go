package conformance

import (
	"slices"
	"strings"
)

// The values below are the near misses the suite's validation specs and explore mode both send:
// values a lenient deployment takes although the interface refuses them (ERR-1). One list, so
// that what one judges the other generates.

// EnumWords are words a deployment might add to an enumeration (a status "done" or "archived",
// a priority "medium"), those the enumeration enum does not hold.
func EnumWords(enum []string) []string {
	return slices.DeleteFunc([]string{"done", "archived", "pending", "active", "medium", "critical", "none", "other"},
		func(w string) bool { return slices.Contains(enum, w) })
}

// DateAlone is a date without a time: no date-time, though a lenient parser reads it as midnight.
const DateAlone = "2030-01-31"

// NotFormatted is a string no parser of format (date-time or email) reads.
func NotFormatted(format string) string {
	if format == "email" {
		return "not-an-email"
	}
	return "not-a-date"
}

// EnumNearMisses are values outside an enumeration a lenient deployment takes: a valid value in
// capitals, and a value the same field allows in another operation (a master card status sent
// as a tour card's).
func EnumNearMisses(field string, enum []string) []string {
	out := []string{strings.ToUpper(enum[0])}
	for _, op := range Operations {
		if op.Request == nil || op.Request.Properties[field] == nil || op.Request.Properties[field].Value == nil {
			continue
		}
		for _, v := range op.Request.Properties[field].Value.Enum {
			if s, ok := v.(string); ok && !slices.Contains(enum, s) && !slices.Contains(out, s) {
				return append(out, s)
			}
		}
	}
	return out
}
