package reference

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/opsapi/mocktoolkit/internal/jsonnum"
)

// Field limits and enumerations of the interface (its Limits and States tables). On the HTTP
// path the OpenAPI document is the one validator of a request's fields; the store checks only
// what a schema cannot say (blank strings D44, references, caps, states). These values serve
// the checks of whole records that do not come through a request (a loaded snapshot).
const (
	maxTitle      = 255
	maxColor      = 50
	maxIcon       = 100
	maxStatus     = 50
	maxToolKey    = 100 // master board create
	maxWidgetTool = 50  // widget cards list
	maxMasterKey  = 100 // unique_identifier, evaluation_check, tour_key
	maxSession    = 64
	maxPerPage    = 100 // comments list
)

// Enumerations of the interface.
var (
	priorities         = []string{"low", "normal", "high", "urgent"}
	masterCardStatuses = []string{"open", "in_progress", "closed", "to_check", "blocked"}
	cardTypes          = []string{"widget", "widget_tour", "tour"}
)

// fieldErrors collects the field failures a store method finds, worded by messages.go.
type fieldErrors map[string][]string

func (f *fieldErrors) add(field, sentence string) {
	if *f == nil {
		*f = fieldErrors{}
	}
	(*f)[field] = append((*f)[field], sentence)
}

// notBlank checks a required string: empty or white space only is missing (D44).
func (f *fieldErrors) notBlank(field, v string) {
	if strings.TrimSpace(v) == "" {
		f.add(field, MsgRequired(field))
	}
}

// optNotBlank checks a string that may be omitted but, when sent, must not be blank (D44).
func (f *fieldErrors) optNotBlank(field string, o Optional[string]) {
	if o.Present() {
		f.notBlank(field, o.Value)
	}
}

// err returns nil or the EVALIDATION error of the failures (D5).
func (f fieldErrors) err() error {
	if len(f) == 0 {
		return nil
	}
	return Invalid(f)
}

// optDateTime checks a date-time sent for a field: the store keeps it in UTC and answers and
// saves it as RFC 3339, whose year has four digits, so an instant outside years 0000–9999 in
// UTC is refused (D73). On the HTTP path the spec's date-time format refuses it first.
func (f *fieldErrors) optDateTime(field string, o Optional[time.Time]) {
	if o.Present() && !writableTime(o.Value) {
		f.add(field, MsgDateRange(field))
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
		f.add(field, MsgBetween(field, strconv.Itoa(minPosition), strconv.Itoa(maxPosition)))
	}
}

func validPosition(p int64) bool { return p >= minPosition && p <= maxPosition }

// MsgPastRange words a whole number too large for any field to hold (past 64 bits): a
// position by its own range (D75), any other field by the bound of the 64 bits it is read
// into on the side it went past (a page number far past the last one is "not greater than",
// not a range from -2^63 that no page number has).
func MsgPastRange(field string, negative bool) string {
	switch {
	case field == "position":
		return MsgBetween(field, strconv.Itoa(minPosition), strconv.Itoa(maxPosition))
	case field == "page" && !negative: // comments/list's, echoed as current_page (D26)
		return MsgMax(field, strconv.FormatInt(maxID, 10))
	case field == "per_page" && !negative:
		return MsgMax(field, strconv.Itoa(maxPerPage))
	case (field == "page" || field == "per_page") && negative:
		return MsgMin(field, "1")
	case isIDField(field) && negative:
		return MsgMin(field, "1")
	case isIDField(field): // by the ids a record may have, which a JavaScript client reads exactly
		return MsgMax(field, strconv.FormatInt(maxID, 10))
	case negative:
		return MsgMin(field, strconv.FormatInt(math.MinInt64, 10))
	}
	return MsgMax(field, strconv.FormatInt(math.MaxInt64, 10))
}

// IDsPastRange words each top-level id field of a request body (id, *_id) holding a whole
// number past the largest id a record may have (2^53-1, D76): no record has such an id and a
// JavaScript client cannot read it exactly, so it is refused as a page number past it is (D8),
// not looked up and answered 404 with the number echoed. nil when there is none.
func IDsPastRange(body map[string]any) map[string][]string {
	var out map[string][]string
	for field, v := range body {
		if !isIDField(field) || !idPastRange(v) {
			continue
		}
		if out == nil {
			out = map[string][]string{}
		}
		out[field] = []string{MsgPastRange(field, false)} // worded as an id past 64 bits is
	}
	return out
}

// idPastRange tells whether v, a decoded JSON value, is a whole number past maxID: a float64
// (every float64 past 2^53-1 is past it: 2^53 is the next), or a json.Number read from its
// digits (1e400, which no float64 holds).
func idPastRange(v any) bool {
	switch n := v.(type) {
	case float64:
		return n > maxID && n == math.Trunc(n)
	case json.Number:
		if !jsonnum.WholeNumber(string(n)) || strings.HasPrefix(string(n), "-") {
			return false
		}
		text, ok := jsonnum.IntegerText(string(n))
		if !ok {
			return true // past 400 digits
		}
		i, err := strconv.ParseInt(text, 10, 64)
		return err != nil || i > maxID
	}
	return false
}

// isIDField tells whether field names a record by its id.
func isIDField(field string) bool { return field == "id" || strings.HasSuffix(field, "_id") }

// nextPosition is the position after top (and after 0 when top is negative): new records go
// last (D45), and at maxPosition they share the last place (D75).
func nextPosition(top int64) int64 {
	if top >= maxPosition {
		return maxPosition
	}
	return max(top, 0) + 1
}
