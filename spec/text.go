package spec

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// InvalidText returns the places in a JSON document whose strings are not valid UTF-8 text:
// raw bytes that are not UTF-8, and \u escapes of a lone surrogate ("\ud800") (D74). JSON
// decoders replace both with U+FFFD without a word, so the check must see the bytes as sent.
//
// Each place is a path from the top: a top-level member is its name ("title"); deeper ones add
// array indexes and member names ("cards[3].title"). A bad member name is reported at its
// object's path, or "body" at the top. A place is listed once, in document order; text that
// is not a JSON document yields what was found before the point where it stops parsing.
//
// The path is one buffer that grows and shrinks as the scan goes down and up, so a deeply
// nested document costs time in proportion to its length, and the scan stops below MaxDepth
// levels (where every JSON decoder of the toolkit refuses the document anyway).
func InvalidText(doc []byte) []string {
	sc := textScanner{doc: doc}
	sc.value()
	return sc.bad
}

// MaxDepth is the deepest nesting of arrays and objects a JSON document of the toolkit may have:
// encoding/json refuses a document nested deeper than 10000, so nothing deeper is ever decoded
// (or judged).
const MaxDepth = 10000

type textScanner struct {
	doc   []byte
	i     int
	path  []byte // where the scan is: "cards[3].title", empty at the top
	depth int
	bad   []string
	seen  map[string]bool
}

// report records the current path (the top is "body") once.
func (sc *textScanner) report() {
	path := string(sc.path)
	if path == "" {
		path = "body"
	}
	if sc.seen == nil {
		sc.seen = map[string]bool{}
	}
	if !sc.seen[path] {
		sc.seen[path] = true
		sc.bad = append(sc.bad, path)
	}
}

func (sc *textScanner) space() {
	for sc.i < len(sc.doc) {
		switch sc.doc[sc.i] {
		case ' ', '\t', '\n', '\r':
			sc.i++
		default:
			return
		}
	}
}

// value scans one JSON value at the current path; it reports false when the document ends or
// breaks, or nests deeper than MaxDepth.
func (sc *textScanner) value() bool {
	sc.space()
	if sc.i >= len(sc.doc) {
		return false
	}
	switch sc.doc[sc.i] {
	case '{', '[':
		if sc.depth >= MaxDepth {
			return false
		}
		sc.depth++
		defer func() { sc.depth-- }()
		if sc.doc[sc.i] == '{' {
			return sc.object()
		}
		return sc.array()
	case '"':
		_, ok, good := sc.str()
		if !good {
			sc.report()
		}
		return ok
	default: // a number, true, false or null: up to the next delimiter
		start := sc.i
		for sc.i < len(sc.doc) && !isDelim(sc.doc[sc.i]) {
			sc.i++
		}
		return sc.i > start // nothing read: a stray delimiter, the document is broken
	}
}

func isDelim(b byte) bool {
	switch b {
	case ',', '}', ']', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

func (sc *textScanner) object() bool {
	at := len(sc.path)
	sc.i++ // {
	for {
		sc.space()
		if sc.i >= len(sc.doc) {
			return false
		}
		switch sc.doc[sc.i] {
		case '}':
			sc.i++
			return true
		case ',':
			sc.i++
			continue
		case '"':
		default:
			return false
		}
		name, ok, good := sc.str()
		if !ok {
			return false
		}
		if !good {
			sc.report()
		}
		sc.space()
		if sc.i >= len(sc.doc) || sc.doc[sc.i] != ':' {
			return false
		}
		sc.i++
		if at > 0 {
			sc.path = append(sc.path, '.')
		}
		sc.path = append(sc.path, name...)
		ok = sc.value()
		sc.path = sc.path[:at]
		if !ok {
			return false
		}
	}
}

func (sc *textScanner) array() bool {
	at := len(sc.path)
	sc.i++ // [
	for n := 0; ; {
		sc.space()
		if sc.i >= len(sc.doc) {
			return false
		}
		switch sc.doc[sc.i] {
		case ']':
			sc.i++
			return true
		case ',':
			sc.i++
			continue
		}
		sc.path = append(strconv.AppendInt(append(sc.path, '['), int64(n), 10), ']')
		ok := sc.value()
		sc.path = sc.path[:at]
		if !ok {
			return false
		}
		n++
	}
}

// str scans a string starting at its opening quote. It returns the text (decoded only as far
// as a path needs: escapes other than \" and \\ are kept as written), whether the string was
// closed, and whether it is valid UTF-8 text.
func (sc *textScanner) str() (text string, closed, good bool) {
	sc.i++ // opening quote
	good = true
	var out []byte
	for sc.i < len(sc.doc) {
		b := sc.doc[sc.i]
		switch {
		case b == '"':
			sc.i++
			return string(out), true, good
		case b == '\\':
			if sc.i+1 >= len(sc.doc) {
				sc.i = len(sc.doc)
				return string(out), false, good
			}
			if sc.doc[sc.i+1] != 'u' {
				out = append(out, sc.doc[sc.i+1])
				sc.i += 2
				continue
			}
			r, n, valid := sc.escape(sc.i)
			if !valid {
				good = false
			} else {
				out = utf8.AppendRune(out, r)
			}
			sc.i += n
		case b < utf8.RuneSelf:
			out = append(out, b)
			sc.i++
		default:
			r, n := utf8.DecodeRune(sc.doc[sc.i:])
			if r == utf8.RuneError && n <= 1 {
				good = false
			} else {
				out = append(out, sc.doc[sc.i:sc.i+n]...)
			}
			sc.i += n
		}
	}
	return string(out), false, good
}

// escape reads the \uXXXX escape at i (and the low half that must follow a high surrogate):
// the rune, the bytes read, and false for a lone surrogate or a malformed escape.
func (sc *textScanner) escape(i int) (rune, int, bool) {
	r, ok := hex4(sc.doc, i+2)
	if !ok {
		return utf8.RuneError, min(6, len(sc.doc)-i), false
	}
	switch {
	case r >= 0xDC00 && r <= 0xDFFF: // a low half with no high half before it
		return utf8.RuneError, 6, false
	case r >= 0xD800 && r <= 0xDBFF:
		if i+12 <= len(sc.doc) && sc.doc[i+6] == '\\' && sc.doc[i+7] == 'u' {
			if lo, ok := hex4(sc.doc, i+8); ok && lo >= 0xDC00 && lo <= 0xDFFF {
				return utf16.DecodeRune(r, lo), 12, true
			}
		}
		return utf8.RuneError, 6, false
	}
	return r, 6, true
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(b[i:i+4]), 16, 32)
	return rune(n), err == nil
}
