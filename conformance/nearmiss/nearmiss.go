// Package nearmiss holds the near misses the suite's validation specs and explore mode both send:
// values a lenient deployment takes although the interface refuses them (rule ERR-1). One list,
// so that what one judges the other generates.
package nearmiss

import (
	"slices"
	"strings"

	"github.com/opsapi/mocktoolkit/conformance"
)

// Words are words a deployment might add to an enumeration (a status "done" or "archived",
// a priority "medium"), those the enumeration enum does not hold.
func Words(enum []string) []string {
	return slices.DeleteFunc([]string{"done", "archived", "pending", "active", "medium", "critical", "none", "other"},
		func(w string) bool { return slices.Contains(enum, w) })
}

// Date is a date without a time: no date-time, though a lenient parser reads it as midnight.
const Date = "2030-01-31"

// Unformatted is a string no parser of format (date-time or email) reads.
func Unformatted(format string) string {
	if format == "email" {
		return "not-an-email"
	}
	return "not-a-date"
}

// InEnum are values outside an enumeration a lenient deployment takes: a valid value in
// capitals, and a value the same field allows in another operation (a master card status sent
// as a tour card's).
func InEnum(field string, enum []string) []string {
	out := []string{strings.ToUpper(enum[0])}
	for _, op := range conformance.Operations {
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
