package proxy

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/opsapi/mocktoolkit/conformance/check"
)

// The fields of a recorded record, read from the upstream's decoded JSON and held to the
// scenario's rules: what cannot be written as it came is left out or replaced, with one note
// per record and field that names what was wrong and never renders a decoded value (D174).

// title is a record's scrubbed title (or name, or a comment's body), cut to max characters (0:
// no bound). When it is missing, blank or not text (null included), which the mock refuses,
// the record is kept as "<Kind> <id>" with one note saying why (D174); a placeholder (rec nil:
// no answer showed it) takes that title without a note.
func (b *scenarioBuilder) title(rec map[string]any, key, kind string, id int64, max int) string {
	if s := b.str(rec, key, max); s != nil && strings.TrimSpace(*s) != "" {
		return *s
	}
	stand := fmt.Sprintf("%s %d", kind, id)
	if rec == nil { // a placeholder for a record no answer showed: the stop line says so, not a change
		return stand
	}
	instead := fmt.Sprintf("written as %q", stand)
	switch v, ok := rec[key]; {
	case !ok:
		b.changes[fmt.Sprintf("%s: %s is missing, which the mock refuses: %s", b.at, key, instead)] = true
	case isText(v):
		b.changes[fmt.Sprintf("%s: %s is empty, which the mock refuses: %s", b.at, key, instead)] = true
	default:
		b.notText(key, v, instead)
	}
	return stand
}

// text is a string field scrubbed of personal data and cut to max characters (0: no bound);
// a value of another JSON kind is left out with a note. Null is left out without one: the
// file then holds no value either, which is what null says.
func (b *scenarioBuilder) text(rec map[string]any, key string, max int) *string {
	s := b.str(rec, key, max)
	if v := rec[key]; s == nil && v != nil {
		b.notText(key, v, "left out")
	}
	return s
}

// str is a string field scrubbed of personal data and cut to max characters (0: no bound),
// with a note when cut; nil, and no note, when the field holds no text (its caller says what it
// wrote instead, in one note).
func (b *scenarioBuilder) str(rec map[string]any, key string, max int) *string {
	s, ok := rec[key].(string)
	if !ok {
		return nil
	}
	s = b.scrub.text(s)
	if max > 0 && utf8.RuneCountInString(s) > max {
		s = string([]rune(s)[:max])
		b.changes[fmt.Sprintf("%s: %s cut to %d characters, the most the mock takes", b.at, key, max)] = true
	}
	return &s
}

// notText is the one note of a field of the record being written whose JSON value belongs to be
// text but is another kind; instead says what the file holds in its place ("left out",
// `written as "Tag 3"`). It names the value's JSON kind, never the value: Go's rendering of a
// decoded object or array ("map[a:b]", "[a b]") reads as neither JSON nor the upstream's text
// (a tag named {"nested":"obj"} was logged twice: its name empty or missing, and
// "map[nested:obj]" left out).
func (b *scenarioBuilder) notText(key string, v any, instead string) {
	b.changes[fmt.Sprintf("%s: %s is %s, not text: %s", b.at, key, check.Kind(v), instead)] = true
}

// isText tells whether a decoded JSON value is a string.
func isText(v any) bool {
	_, ok := v.(string)
	return ok
}

// enum is a field of an enumeration when its value is one of allowed; another value is left
// out, with a note.
func (b *scenarioBuilder) enum(rec map[string]any, key string, allowed ...string) *string {
	v := oneOf(rec, key, allowed...)
	switch s, ok := rec[key].(string); {
	case v != nil || rec[key] == nil:
	case !ok:
		b.notText(key, rec[key], "left out")
	default:
		b.changes[fmt.Sprintf("%s: %s %s left out: not one of %s", b.at, key, quoteClipped(s), strings.Join(allowed, ", "))] = true
	}
	return v
}

// quoteClipped quotes a text for a note, at most 40 characters of it.
func quoteClipped(s string) string {
	s = fmt.Sprintf("%q", s)
	if r := []rune(s); len(r) > 40 {
		s = string(r[:40]) + "…"
	}
	return s
}

// recordID reads a reference to another record: only a positive id names one, so another
// number (group_id -3, 0) is left out with a note in the recording's log.
func (b *scenarioBuilder) recordID(rec map[string]any, kind, key string) *int64 {
	n := b.integer(rec, key)
	if n != nil && *n <= 0 {
		b.changes[fmt.Sprintf("%s: %s %d is left out (a record's id is a positive number)", kind, key, *n)] = true
		return nil
	}
	return n
}

func number(rec map[string]any, key string) *int64 {
	if n, ok := intField(rec, key); ok {
		return &n
	}
	return nil
}

// position is a record's position when the mock takes it (a 32-bit integer, D75); another is
// left out with a note, the record kept (a tag left out for its position took the cards
// tagged with it along).
func (b *scenarioBuilder) position(rec map[string]any) *int64 {
	p := b.integer(rec, "position")
	if p != nil && (*p < math.MinInt32 || *p > math.MaxInt32) {
		b.changes[fmt.Sprintf("%s: position %d left out: the mock takes %d to %d", b.at, *p, math.MinInt32, math.MaxInt32)] = true
		return nil
	}
	return p
}

func oneOf(rec map[string]any, key string, allowed ...string) *string {
	if s, ok := rec[key].(string); ok && slices.Contains(allowed, s) {
		return &s
	}
	return nil
}

// integer is a whole-number field of the record being written; a value of another JSON kind,
// or a number with a fraction or past what JSON readers keep exactly (2^53), is left out with a
// note. Null is left out without one.
func (b *scenarioBuilder) integer(rec map[string]any, key string) *int64 {
	n := number(rec, key)
	switch v := rec[key].(type) {
	case nil:
	case float64:
		if n == nil {
			b.changes[fmt.Sprintf("%s: %s %s left out: not a whole number within ±2^53", b.at, key, strconv.FormatFloat(v, 'g', -1, 64))] = true
		}
	default:
		b.changes[fmt.Sprintf("%s: %s is %s, not a number: left out", b.at, key, check.Kind(v))] = true
	}
	return n
}

// boolean is a true-or-false field of the record being written; a value of another JSON kind
// is left out with a note, null without one.
func (b *scenarioBuilder) boolean(rec map[string]any, key string) *bool {
	switch v := rec[key].(type) {
	case bool:
		return &v
	case nil:
	default:
		b.changes[fmt.Sprintf("%s: %s is %s, not true or false: left out", b.at, key, check.Kind(v))] = true
	}
	return nil
}

// price is a cart item's price: a number not below zero; another value is left out with a
// note, null without one.
func (b *scenarioBuilder) price(rec map[string]any) *float64 {
	switch v := rec["price"].(type) {
	case float64:
		if v >= 0 {
			return &v
		}
		b.changes[fmt.Sprintf("%s: price %s left out: a price is not below zero", b.at, strconv.FormatFloat(v, 'g', -1, 64))] = true
	case nil:
	default:
		b.changes[fmt.Sprintf("%s: price is %s, not a number: left out", b.at, check.Kind(v))] = true
	}
	return nil
}
