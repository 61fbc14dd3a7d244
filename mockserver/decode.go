package mockserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync"

	"github.com/opsapi/mocktoolkit/internal/jsonnum"
	"github.com/opsapi/mocktoolkit/reference"
)

// decode reads a body that passed validation into the operation's input (a struct), from its
// canonical form (canonicalBody): only the members named exactly as the input's fields, and
// integral numbers as integers. Validation leaves one thing for Go to refuse: a number that is
// not an integer within 64 bits; it is worded as the schema's failures are.
func decode(body []byte, in any) error {
	if len(body) == 0 {
		return nil // an empty body is {} (D2): every field absent
	}
	canon, err := canonicalBody(body, jsonNames(reflect.TypeOf(in)))
	if err == nil {
		err = json.Unmarshal(canon, in)
	}
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		field := te.Field
		msg := reference.MsgInvalid(field)
		if num, ok := strings.CutPrefix(te.Value, "number "); ok {
			msg = reference.MsgPastRange(field, strings.HasPrefix(num, "-"))
			if !jsonnum.WholeNumber(num) { // 1.0000000000000000001 passed validation as 1
				msg = reference.MsgType(field, "an integer")
			}
		}
		return &reference.Error{Code: reference.EVALIDATION, Message: msg, Fields: map[string][]string{field: {msg}}, Err: err}
	}
	return &reference.Error{Code: reference.EVALIDATION, Message: "The request body is invalid.",
		Fields: map[string][]string{"body": {"The request body is invalid."}}, Err: err}
}

// canonicalBody re-encodes a JSON object keeping only the members whose names are in names,
// exactly (encoding/json matches a struct's fields in any case, so {"priority":"low",
// "Priority":"mega"} would pass validation, which reads names as written, and store "mega"),
// each the last of its duplicates, and integral numbers (5.0, 1e1) as integers (D8).
func canonicalBody(body []byte, names map[string]bool) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil {
		return nil, err
	}
	for k := range obj {
		if !names[k] {
			delete(obj, k)
		}
	}
	return json.Marshal(integral(obj))
}

// integral writes every whole number of a decoded JSON value as an integer (jsonnum.IntegerText).
func integral(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = integral(x)
		}
	case []any:
		for i, x := range t {
			t[i] = integral(x)
		}
	case json.Number:
		if i, ok := jsonnum.IntegerText(t.String()); ok {
			return json.Number(i)
		}
	}
	return v
}

// jsonNames are the names encoding/json reads into struct type t (or *t): its fields' JSON
// names, those of embedded structs included.
func jsonNames(t reflect.Type) map[string]bool {
	if names, ok := jsonNamesOf.Load(t); ok {
		return names.(map[string]bool)
	}
	names := map[string]bool{}
	addJSONNames(t, names)
	jsonNamesOf.Store(t, names)
	return names
}

var jsonNamesOf sync.Map // reflect.Type → map[string]bool

func addJSONNames(t reflect.Type, names map[string]bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return
	}
	for f := range t.Fields() {
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		switch {
		case name == "-":
		case f.Anonymous && name == "":
			addJSONNames(f.Type, names)
		case !f.IsExported():
		case name == "":
			names[f.Name] = true
		default:
			names[name] = true
		}
	}
}
