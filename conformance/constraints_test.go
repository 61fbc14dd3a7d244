package conformance_test

import (
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/nearmiss"

	"github.com/opsapi/mocktoolkit/conformance/rules"
	"github.com/opsapi/mocktoolkit/spec"
)

// A constraint is one field constraint of the interface: required, a JSON type, an
// enumeration, a minimum or maximum, a maximum length.
type constraint struct {
	field string
	kind  string // required, type, enum, maxLength, min, max
	n     int    // the bound of maxLength, min, max
	// chars marks a maximum the interface counts in characters (Limits: title and name, max 255
	// characters): the value accepted at the bound is of characters two bytes long in UTF-8, so
	// a deployment counting bytes refuses it.
	chars bool
	enum  []string
	want  string // the JSON type for kind "type": integer, string, boolean
	// ref, when set, is the decision the constraint rests on (the interface does not state it).
	ref string
	// bounded builds the body for an accepted value of the field, when the operation's base body
	// does not fit (thumbnail types need an entity of that type).
	bounded func(base map[string]any, v any) map[string]any
}

func required(field string) constraint { return constraint{field: field, kind: "required"} }
func typed(field, want string) constraint {
	return constraint{field: field, kind: "type", want: want}
}
func maxLen(field string, n int) constraint { return constraint{field: field, kind: "maxLength", n: n} }
func maxChars(field string, n int) constraint {
	return constraint{field: field, kind: "maxLength", n: n, chars: true}
}
func minimum(field string, n int) constraint { return constraint{field: field, kind: "min", n: n} }
func maximum(field string, n int) constraint { return constraint{field: field, kind: "max", n: n} }
func oneOf(field string, values ...string) constraint {
	return constraint{field: field, kind: "enum", enum: values}
}

// formatted is a string field of a format the interface gives: date-time or email.
func formatted(field, format string) constraint {
	return constraint{field: field, kind: "format", want: format}
}

// nearMiss is a value of another JSON type than want that a lenient deployment coerces: a
// fraction where an integer belongs (truncated), an integer written as text (the base body's
// own value, so a coercing deployment would carry the request out), the text "true" or the
// number 1 where a boolean belongs.
type nearMiss struct {
	said  string
	value func(base map[string]any, field string) any
}

func nearMisses(want string) []nearMiss {
	switch want {
	case "integer":
		return []nearMiss{
			{"the fractional number 1.5", func(map[string]any, string) any { return 1.5 }},
			{"its integer written as text", func(base map[string]any, field string) any {
				if n, ok := Integer(base[field]); ok {
					return fmt.Sprint(n)
				}
				return "1"
			}},
		}
	case "boolean":
		return []nearMiss{
			{`the text "true"`, func(map[string]any, string) any { return "true" }},
			{"the number 1", func(map[string]any, string) any { return 1 }},
		}
	}
	return nil
}

// wrongValue is a value of another JSON type than want.
func wrongValue(want string) any {
	switch want {
	case "integer":
		return "not-a-number"
	case "boolean":
		return "not-a-boolean"
	}
	return 12345
}

func (c constraint) accept(base map[string]any, v any) map[string]any {
	if c.bounded != nil {
		return c.bounded(base, v)
	}
	return with(base, c.field, v)
}

// fieldRules are the field constraints of one operation, and a valid body to break one at a time
// (built inside the spec: it reads the manifest).
type fieldRules struct {
	base        func() map[string]any
	constraints []constraint
	// spends is set for an operation whose accepted requests spend a window other specs count
	// (the thumbnail limit, LIMIT-3): its "accepts" specs run Serial, on the process that
	// counts (D160).
	spends bool
}

// nullSpecs declares, for each field of op the interface marks null ("Fields marked null accept
// null", Endpoints), a spec sending null for it: no validation error may name the field (rule
// ERR-3). An update is sent for a record that does not exist, so nothing changes whichever way
// the deployment reads null; a validation of the body that refuses it still shows.
func nullSpecs(op Operation, fr fieldRules) {
	who := caller(op)
	var serial []any
	if fr.spends {
		serial = append(serial, Serial)
	}
	for _, field := range op.Fields {
		p := op.Request.Properties[field]
		if p == nil || p.Value == nil || !p.Value.Nullable {
			continue
		}
		It(fmt.Sprintf("accepts null for %q, which the interface marks null", field), serial, Contract(op, AspectValidation, "ERR-3"), func() {
			body := with(fr.base(), field, nil)
			if _, update := body["id"]; update && field != "id" {
				body["id"] = missingID
			}
			ex := send(Request{Op: op, As: who.String(), Token: token(who, op), Body: body})
			Expect(ex).To(AcceptField(field), "%s: the interface marks %q null", Cite(rules.ERR3), field)
		})
	}
}

// violationRule is the rule a violation spec checks: its citation and its id.
func violationRule(_ Operation, c constraint) (string, string) {
	if c.kind == "min" || c.kind == "max" {
		return Cite(rules.ERR2), "ERR-2"
	}
	return Cite(rules.ERR1), "ERR-1"
}

// answerNotShown are the id fields whose value at a bound names a record in a state for which
// the interface shows no answer (a conversation that is not archived): a deployment may refuse
// it with a validation error keyed by the field, so accepting the value there is the
// reference's choice, named here.
var answerNotShown = map[string]string{
	OpConversationsRestore.ID + ".conversation_id": choiceConversations,
}

// validationSpecs declares, for each constraint of op, a spec that breaks it just past its bound
// and one that sends the value at the bound.
//
// Rules ERR-1 and ERR-2 (a violation is a validation error), ERR-5 (keyed by the field) and
// ERR-3 (the value at the bound is valid). Where the interface does not show the operation's codes (ops 1, 13, 18-21) the
// contract checks the body (shape (c), keyed), and the 422 status is reference (D1).
func validationSpecs(op Operation, fr fieldRules) {
	who := caller(op)
	for _, c := range fr.constraints {
		profile := c.ref == ""
		rule, ruleID := violationRule(op, c)
		if !profile {
			rule = fmt.Sprintf("%s (%s: not stated by the interface)", rule, c.ref)
		}
		reject := func(name string, v any) {
			It(fmt.Sprintf("rejects %s with a validation error keyed by %q", name, c.field), Profile(profile, op, AspectValidation, ruleID, "ERR-5"), func() {
				base := fr.base()
				if f, ok := v.(func(map[string]any, string) any); ok { // a value made from the base body
					v = f(base, c.field)
				}
				ex := send(Request{Op: op, As: who.String(), Token: token(who, op), Body: with(base, c.field, v), Intent: Invalid, Constraint: c.tag()})
				if op.CodesShown() {
					Expect(ex).To(HaveStatus(422), rule)
				}
				Expect(ex).To(HaveValidationErrorFor(c.field)) // ENV-4 and ERR-5, cited by the matcher
			})
		}
		var serial []any
		if fr.spends {
			serial = append(serial, Serial)
		}
		// acceptAs declares a spec that sends v as the field and expects it accepted; choice,
		// when not "", is the reference's choice it rests on (a reference spec, not contract).
		acceptAs := func(name, choice string, v any) {
			// A field whose allowed values are not shown (generic card status, D19): a value past
			// its bound is refused whatever they are, but which value at the bound is accepted is
			// the deployment's choice.
			why, open := Cite(rules.ERR3), spec.ValuesNotShown(op.Request, c.field)
			if open {
				why += "; " + choiceOpenValues
			}
			if choice, ok := answerNotShown[op.ID+"."+c.field]; ok {
				why, open = why+"; "+choice, true
			}
			if choice != "" {
				why, open = why+"; "+choice, true
			}
			It(fmt.Sprintf("accepts %s", name), serial, Profile(profile && !open, op, AspectValidation, "ERR-3"), func() {
				v := v
				if fresh, ok := v.(func() any); ok { // a value of its own for each run
					v = fresh()
				}
				ex := send(Request{Op: op, As: who.String(), Token: token(who, op), Body: c.accept(fr.base(), v), Constraint: c.tag()})
				Expect(ex).To(AcceptField(c.field), why)
			})
		}
		accept := func(name string, v any) { acceptAs(name, "", v) }
		switch c.kind {
		case "required":
			reject(fmt.Sprintf("a body without %q", c.field), omit)
		case "type":
			w := wrongValue(c.want)
			reject(fmt.Sprintf("%q given as %T %v instead of %s", c.field, w, w, aType(c.want)), w)
			for _, nm := range nearMisses(c.want) {
				reject(fmt.Sprintf("%q given as %s instead of %s", c.field, nm.said, aType(c.want)), nm.value)
			}
		case "format":
			v := nearmiss.Unformatted(c.want)
			reject(fmt.Sprintf("%q of %q, not %s", c.field, v, aFormat(c.want)), v)
			if c.want == "date-time" { // a date alone is no date-time: a lenient parser takes it
				reject(fmt.Sprintf("%q of %q, a date without a time", c.field, nearmiss.Date), nearmiss.Date)
			}
		case "maxLength":
			reject(fmt.Sprintf("%q of %d characters (max %d)", c.field, c.n+1, c.n), strings.Repeat("x", c.n+1))
			// Past the bound in every count (characters, UTF-16 units, bytes): a deployment that
			// checks only plain ASCII text, or cuts other text to fit, is caught too.
			reject(fmt.Sprintf("%q of %d characters (max %d), of two and three bytes in UTF-8", c.field, c.n+1, c.n), wideChars(c.n+1, "€"))
			if c.chars {
				// What a character is, beyond the Basic Multilingual Plane, is not shown: a
				// deployment counting UTF-16 units (Java, JavaScript) counts an emoji as two.
				// Two- and three-byte characters are one in every count but bytes.
				accept(fmt.Sprintf("%q of %d characters (max %d), of two and three bytes in UTF-8", c.field, c.n, c.n), func() any { return wideChars(c.n, "€") })
				acceptAs(fmt.Sprintf("%q of %d characters (max %d), of two and four bytes in UTF-8", c.field, c.n, c.n), choiceCodePoints, func() any { return wideChars(c.n, "😀") })
			} else {
				accept(fmt.Sprintf("%q of %d characters (max %d)", c.field, c.n, c.n), func() any { return atBound(c.n) })
			}
		case "min":
			reject(fmt.Sprintf("%q of %d (min %d)", c.field, c.n-1, c.n), c.n-1)
			accept(fmt.Sprintf("%q of %d (min %d)", c.field, c.n, c.n), c.n)
		case "max":
			reject(fmt.Sprintf("%q of %d (max %d)", c.field, c.n+1, c.n), c.n+1)
			accept(fmt.Sprintf("%q of %d (max %d)", c.field, c.n, c.n), c.n)
		case "enum":
			reject(fmt.Sprintf("%q outside its enumeration (%q)", c.field, "not-"+c.enum[0]), "not-"+c.enum[0])
			for _, v := range nearmiss.InEnum(c.field, c.enum) {
				reject(fmt.Sprintf("%q outside its enumeration (%q)", c.field, v), v)
			}
			if words := nearmiss.Words(c.enum); len(words) > 0 {
				It(fmt.Sprintf("rejects words a deployment might add to %q's enumeration (%s) with a validation error keyed by %q", c.field, strings.Join(words, ", "), c.field), Profile(profile, op, AspectValidation, ruleID, "ERR-5"), func() {
					for _, v := range words {
						By(fmt.Sprintf("sending %q as %q", v, c.field))
						ex := send(Request{Op: op, As: who.String(), Token: token(who, op), Body: with(fr.base(), c.field, v), Intent: Invalid, Constraint: c.tag()})
						if op.CodesShown() {
							Expect(ex).To(HaveStatus(422), rule)
						}
						Expect(ex).To(HaveValidationErrorFor(c.field))
					}
				})
			}
			for _, v := range c.enum {
				accept(fmt.Sprintf("%q %q of its enumeration", c.field, v), v)
			}
		}
	}
	nullSpecs(op, fr)
	if !op.CodesShown() && len(fr.constraints) > 0 {
		c := fr.constraints[0]
		// D1: the interface does not show this operation's codes; the reference answers a field
		// violation with 422, the status the interface gives validation errors.
		It("answers a field violation with status 422", Reference(op, AspectValidation), func() {
			ex := send(Request{Op: op, As: who.String(), Token: token(who, op), Body: with(fr.base(), c.field, c.violation()), Intent: Invalid, Constraint: c.tag()})
			Expect(ex).To(HaveStatus(422), choiceStatus+"; "+Cite(rules.ERR1))
		})
	}
}

// wideChars is n characters that are each more than one byte in UTF-8: Cyrillic letters (two
// bytes) alternating with wide, a character of three bytes (€, one UTF-16 unit: one character in
// every count but bytes) or of four (an emoji, outside the Basic Multilingual Plane: a
// surrogate pair in UTF-16, so two in a count of UTF-16 units, D219). None is split or joined by
// any Unicode normalization; a deployment counting bytes against the maximum finds more. The
// letters spell runTag, so the value is the run's own (whether a field must be unique is not
// shown).
func wideChars(n int, wide string) string {
	tag := runTag()
	var b strings.Builder
	for i := range n {
		switch {
		case i%2 == 1:
			b.WriteString(wide)
		case i/2 < len(tag):
			b.WriteRune('а' + rune(tag[i/2]-'0')) // а to й, for the digits
		default:
			b.WriteString("ж")
		}
	}
	return b.String()
}

// atBound is n characters of its own: runTag's digits, then x's (whether a field must be
// unique is not shown, and a run may follow another against one deployment).
func atBound(n int) string {
	tag := runTag()
	if len(tag) > n {
		tag = tag[len(tag)-n:]
	}
	return tag + strings.Repeat("x", n-len(tag))
}

// runTag is digits no other call of this run or an earlier one returns: the process and the
// time in nanoseconds.
func runTag() string {
	return fmt.Sprintf("%d%d", GinkgoParallelProcess(), time.Now().UnixNano()+tagSeq.Add(1))
}

// tagSeq keeps two calls within one clock tick apart.
var tagSeq atomic.Int64

// tag names the constraint in the report's coverage: the field and the kind ("title maxLength").
func (c constraint) tag() string { return c.field + " " + c.kind }

// violation is a value just past the constraint (omit for required).
func (c constraint) violation() any {
	switch c.kind {
	case "required":
		return omit
	case "type":
		return wrongValue(c.want)
	case "maxLength":
		return strings.Repeat("x", c.n+1)
	case "format":
		return nearmiss.Unformatted(c.want)
	case "min":
		return c.n - 1
	case "max":
		return c.n + 1
	}
	return "not-" + c.enum[0]
}

func aFormat(f string) string {
	if f == "email" {
		return "an e-mail address"
	}
	return "a " + f
}

func aType(t string) string {
	if t == "integer" {
		return "an integer"
	}
	return "a " + t
}
