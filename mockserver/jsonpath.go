package mockserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/opsapi/mocktoolkit/reference"
)

// pathAt names the place in the JSON text doc that byte offset falls in: "cards[2].id" inside
// the value of the third card's id, "cards[0]" between the first card's members. A snapshot's
// decoding error names a field by its name alone ("cards.id"); its place says which record.
func pathAt(doc []byte, offset int64) string {
	type frame struct {
		array     bool
		index     int
		key       string
		expectKey bool
	}
	var stack []frame
	for i := 0; i < len(doc) && int64(i) < offset; i++ {
		switch c := doc[i]; c {
		case '"':
			j := i + 1
			for j < len(doc) && doc[j] != '"' {
				if doc[j] == '\\' {
					j++
				}
				j++
			}
			if n := len(stack); n > 0 && stack[n-1].expectKey {
				var k string
				_ = json.Unmarshal(doc[i:min(j+1, len(doc))], &k)
				stack[n-1].key, stack[n-1].expectKey = k, false
			}
			i = j
		case '{', '[':
			stack = append(stack, frame{array: c == '[', expectKey: c == '{'})
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case ',':
			if n := len(stack); n > 0 {
				if stack[n-1].array {
					stack[n-1].index++
				} else {
					stack[n-1].key, stack[n-1].expectKey = "", true
				}
			}
		}
	}
	var b strings.Builder
	for _, f := range stack {
		switch {
		case f.array:
			b.WriteString("[" + strconv.Itoa(f.index) + "]")
		case f.key != "":
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(f.key)
		}
	}
	return b.String()
}

// placedFieldError is controlFieldError with the field named by its place in doc, the text
// decoded: "cards[2].id" rather than "cards.id", "cards[0].zzz" rather than "zzz". stopped is
// where the decoder stopped (an unknown field's error carries no offset of its own).
func placedFieldError(doc []byte, err error, stopped int64) (string, string) {
	field, msg := controlFieldError(err)
	var te *json.UnmarshalTypeError
	var path string
	switch {
	case errors.As(err, &te) && te.Field != "":
		at := te.Offset
		if te.Value == "array" || te.Value == "object" {
			at-- // the offset is past the value's opening bracket: "set", not "set[0]"
		}
		path = pathAt(doc, at)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		i := bytes.LastIndex(doc[:min(max(stopped, 0), int64(len(doc)))], []byte(strconv.Quote(field)))
		if i < 0 {
			return field, msg
		}
		if path = pathAt(doc, int64(i)); path != "" {
			path += "." + field
		}
	}
	if path == "" || path == field {
		return field, msg
	}
	return path, strings.Replace(msg, "The "+reference.FieldName(field)+" field", "The "+reference.FieldName(path)+" field", 1)
}
