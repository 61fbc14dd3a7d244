// Package jsonnum reads JSON numbers exactly, from their digits as written: whether one is a
// whole number, and its integer text. Standard library only, so the flow format can share it.
package jsonnum

import (
	"strconv"
	"strings"
)

// WholeNumber tells whether a JSON number's value is a whole number, read exactly from its
// digits as written: "5.0", "1e1", "1.5e1" and "1e500" are whole; "1.0000000000000000001",
// "5e-1" and "1e-400" are not (float64 reads the last two as 1 and 0). Every reader of the
// toolkit (the mock's decoder, the checker, the flow format) asks this one question the same way. num is a
// number in JSON's grammar.
func WholeNumber(num string) bool {
	_, digits, point := splitNumber(num)
	return strings.Trim(digits[min(max(point, 0), int64(len(digits))):], "0") == ""
}

// maxIntegerDigits bounds the integers IntegerText writes out: far past 64 bits.
const maxIntegerDigits = 400

// IntegerText writes a whole JSON number as an integer ("5.0" → "5", "1e1" → "10",
// "-12.50e1" → "-125", "0e99999999999999999999" → "0"), from its digits, so no value is rounded
// on the way. A number that is not whole (WholeNumber), or whose integer would pass 400
// digits, stays as written and ok is false.
func IntegerText(num string) (text string, ok bool) {
	if !WholeNumber(num) {
		return num, false
	}
	sign, digits, point := splitNumber(num)
	whole := strings.TrimLeft(digits[:min(max(point, 0), int64(len(digits)))], "0")
	if whole == "" {
		return "0", true
	}
	zeros := max(point-int64(len(digits)), 0)
	if int64(len(whole))+zeros > maxIntegerDigits {
		return num, false
	}
	return sign + whole + strings.Repeat("0", int(zeros)), true
}

// splitNumber reads a JSON number as its sign ("" or "-"), its digits without the point, and
// where the point falls among them once the exponent is applied (digits[:point] is the whole
// part; it may fall before the first digit or past the last). An exponent past int64 is taken
// as 2^40 either way: already far past any digits a document can hold.
func splitNumber(num string) (sign, digits string, point int64) {
	mant, exp := num, int64(0)
	if i := strings.IndexAny(num, "eE"); i >= 0 {
		mant = num[:i]
		e, err := strconv.ParseInt(strings.TrimPrefix(num[i+1:], "+"), 10, 64)
		if err != nil {
			e = 1 << 40
			if strings.HasPrefix(num[i+1:], "-") {
				e = -e
			}
		}
		exp = min(max(e, -1<<40), 1<<40)
	}
	if m, ok := strings.CutPrefix(mant, "-"); ok {
		sign, mant = "-", m
	}
	whole, frac, _ := strings.Cut(mant, ".")
	return sign, whole + frac, int64(len(whole)) + exp
}

// Integral returns the JSON text doc with every whole number outside its strings written as an
// integer (IntegerText), and the rest byte for byte; doc itself when no number changes. It
// reads the text once without decoding it, so a snapshot of hundreds of megabytes is not held
// as a tree of values. doc must be valid JSON.
func Integral(doc []byte) []byte {
	var out []byte
	from := 0
	inString, escaped := false, false
	for i := 0; i < len(doc); i++ {
		c := doc[i]
		switch {
		case escaped:
			escaped = false
		case inString:
			escaped = c == '\\'
			inString = c != '"'
		case c == '"':
			inString = true
		case c == '-' || (c >= '0' && c <= '9'):
			j := i + 1
			for j < len(doc) && strings.IndexByte("0123456789.eE+-", doc[j]) >= 0 {
				j++
			}
			num := string(doc[i:j])
			if text, ok := IntegerText(num); ok && text != num {
				out = append(append(out, doc[from:i]...), text...)
				from = j
			}
			i = j - 1
		}
	}
	if out == nil {
		return doc
	}
	return append(out, doc[from:]...)
}
