package reference

import (
	"fmt"
	"slices"
	"strings"
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
