package flow

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"

	"github.com/opsapi/mocktoolkit/internal/jsonwords"
	"github.com/opsapi/mocktoolkit/internal/text"
)

// decodeProblem words an error of encoding/json reading a flow document in the flow format's
// terms, with the line it is on: "line 7: steps[].body is an array; the flow format wants an
// object there". at is where the decoder stopped, for errors that carry no offset of their own.
func decodeProblem(b []byte, err error, at int64) string {
	var syntax *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF):
		return "the file is empty; a flow is one JSON object as GET /__mock/flow answers"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the file ends before its JSON does"
	case errors.As(err, &syntax):
		return fmt.Sprintf("line %d: not valid JSON (%s)", lineAt(b, syntax.Offset), jsonwords.Syntax(err))
	case errors.As(err, &te):
		where := "the document"
		if te.Field != "" {
			where = text.Clip(strings.ReplaceAll(te.Field, "steps.", "steps[]."), maxQuoted)
		}
		return fmt.Sprintf("line %d: %s is %s; the flow format wants %s there", lineAt(b, te.Offset), where, text.Clip(jsonValue(te.Value), maxQuoted), jsonKind(te.Type))
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		if i := bytes.LastIndex(b[:min(max(at, 0), int64(len(b)))], []byte(name)); i >= 0 {
			at = int64(i) // the decoder stopped after the unknown key's value
		}
		if unquoted, err := strconv.Unquote(name); err == nil {
			name = quote(unquoted)
		}
		return fmt.Sprintf("line %d: the key %s is not one a flow document has (flow.schema.json lists them)", lineAt(b, at), text.Clip(name, maxQuoted+2))
	}
	return err.Error()
}

// jsonValue words the JSON value encoding/json describes as "array", "string" or "number 1.5".
func jsonValue(v string) string {
	if num, ok := strings.CutPrefix(v, "number "); ok {
		return "the number " + num
	}
	switch v {
	case "array", "object":
		return "an " + v
	}
	return "a " + v
}

// jsonKind words the Go type a JSON value was read into as the JSON it wants.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "an array"
	}
	return "an object"
}

// lineAt is the line of b that byte offset falls on, from 1.
func lineAt(b []byte, offset int64) int {
	return bytes.Count(b[:min(max(offset, 0), int64(len(b)))], []byte("\n")) + 1
}
