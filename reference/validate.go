package reference

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Field limits of the interface (Limits table). The HTTP layer validates them from the spec
// first; the store checks again so that no input can break a rule.
const (
	maxTitle      = 255
	maxColor      = 50
	maxIcon       = 100
	maxStatus     = 50
	maxToolKey    = 100 // master board create
	maxWidgetTool = 50  // widget cards list
	maxMasterKey  = 100 // unique_identifier, evaluation_check, tour_key
	maxSession    = 64
	maxPerPage    = 100
)

// Enumerations of the interface.
var (
	priorities         = []string{"low", "normal", "high", "urgent"}
	masterCardStatuses = []string{"open", "in_progress", "closed", "to_check", "blocked"}
	tourCardStatuses   = []string{"open", "closed"}
	cardTypes          = []string{"widget", "widget_tour", "tour"}
	entityTypes        = []string{EntityPage, EntityTemplate, EntityLayout}
)

// fieldErrors collects per-field messages in the order found (D5).
type fieldErrors struct {
	order  []string
	fields map[string][]string
}

func (f *fieldErrors) add(field, format string, args ...any) {
	if f.fields == nil {
		f.fields = map[string][]string{}
	}
	if _, seen := f.fields[field]; !seen {
		f.order = append(f.order, field)
	}
	f.fields[field] = append(f.fields[field], fmt.Sprintf(format, args...))
}

// required checks a required string that must not be blank.
func (f *fieldErrors) required(field, v string, limit int) {
	if strings.TrimSpace(v) == "" {
		f.notBlank(field, v)
		return
	}
	f.maxLen(field, v, limit)
}

// notBlank checks a required string that has no length bound: empty or white space is missing
// (D44).
func (f *fieldErrors) notBlank(field, v string) {
	if strings.TrimSpace(v) == "" {
		f.add(field, "The %s field is required.", field)
	}
}

// maxLen checks a length in characters, as the interface's max does.
func (f *fieldErrors) maxLen(field, v string, limit int) {
	if utf8.RuneCountInString(v) > limit {
		f.add(field, "The %s field must not be greater than %d characters.", field, limit)
	}
}

// optMaxLen checks the length of an optional string when a value was sent.
func (f *fieldErrors) optMaxLen(field string, o Optional[string], limit int) {
	if o.Present() {
		f.maxLen(field, o.Value, limit)
	}
}

// oneOf checks an enumeration.
func (f *fieldErrors) oneOf(field, v string, allowed []string) {
	if !slices.Contains(allowed, v) {
		f.add(field, "The selected %s is invalid.", field)
	}
}

// optOneOf checks an optional enumeration when a value was sent.
func (f *fieldErrors) optOneOf(field string, o Optional[string], allowed []string) {
	if o.Present() {
		f.oneOf(field, o.Value, allowed)
	}
}

// optDateTime checks a date-time sent for a field: the store keeps it in UTC and answers and
// saves it as RFC 3339, whose year has four digits, so an instant outside years 0000–9999 in
// UTC is refused (D73). The HTTP layer refuses it first, from the spec's date-time format.
func (f *fieldErrors) optDateTime(field string, o Optional[time.Time]) {
	if o.Present() && !writableTime(o.Value) {
		f.add(field, "The %s field must be a valid RFC 3339 date-time.", strings.ReplaceAll(field, "_", " "))
	}
}

// writableTime reports whether t, in UTC, can be written as RFC 3339 (D73).
func writableTime(t time.Time) bool {
	y := t.UTC().Year()
	return y >= 0 && y <= 9999
}

// Positions (and the sort_order of cards) are whole numbers of a signed 32-bit column, the
// type a real schema gives them (D75). A position a client sends outside the range is refused;
// a position the store assigns saturates at maxPosition, so it never wraps to a negative one.
const (
	minPosition = math.MinInt32
	maxPosition = math.MaxInt32
)

// optPosition checks a position sent for field.
func (f *fieldErrors) optPosition(field string, o Optional[int64]) {
	if o.Present() && !validPosition(o.Value) {
		f.add(field, "The %s field must be between %d and %d.", field, minPosition, maxPosition)
	}
}

func validPosition(p int64) bool { return p >= minPosition && p <= maxPosition }

// nextPosition is the position after top (and after 0 when top is negative): new records go
// last (D45), and at maxPosition they share the last place (D75).
func nextPosition(top int64) int64 {
	if top >= maxPosition {
		return maxPosition
	}
	return max(top, 0) + 1
}

// min checks a lower bound.
func (f *fieldErrors) min(field string, v, limit int64) {
	if v < limit {
		f.add(field, "The %s field must be at least %d.", field, limit)
	}
}

// err returns nil or an EVALIDATION error whose message is the first sentence, plus
// "(and N more errors)" when there are more (D5).
func (f *fieldErrors) err() error {
	if len(f.order) == 0 {
		return nil
	}
	n := 0
	for _, msgs := range f.fields {
		n += len(msgs)
	}
	msg := f.fields[f.order[0]][0]
	switch {
	case n == 2:
		msg += " (and 1 more error)"
	case n > 2:
		msg = fmt.Sprintf("%s (and %d more errors)", msg, n-1)
	}
	return &Error{Code: EVALIDATION, Message: msg, Fields: f.fields}
}
