package flow

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
)

// inexactKey finds the first key of a flow document (one that decoded) named in another case
// than the field it stands for: Go's decoder matches keys in any case, so "Steps" or a step's
// "Operation" loaded as if written exactly, where the format's names are exact (as every
// name the toolkit reads). It returns the key, the name it should be and where it is; the
// free-form parts (headers, body, outline) have no fixed names and are not looked into.
func inexactKey(b []byte) (key, want string, at int64) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	key, want, at, _ = walkKeys(dec, reflect.TypeFor[Document]())
	if i := bytes.IndexByte(b[min(at, int64(len(b))):], '"'); i >= 0 {
		at += int64(i) // the decoder's offset is before the comma and white space
	}
	return key, want, at
}

// walkKeys reads the next value of dec as a value of type t (nil for a free-form one).
func walkKeys(dec *json.Decoder, t reflect.Type) (key, want string, at int64, err error) {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	tok, err := dec.Token()
	if err != nil {
		return "", "", 0, err
	}
	switch tok {
	case json.Delim('{'):
		for dec.More() {
			at = dec.InputOffset()
			k, err := dec.Token()
			if err != nil {
				return "", "", 0, err
			}
			name, _ := k.(string)
			var ft reflect.Type
			if t != nil && t.Kind() == reflect.Struct {
				var ok bool
				if ft, want, ok = fieldNamed(t, name); !ok {
					return name, want, at, nil
				}
			}
			if key, want, at, err = walkKeys(dec, ft); key != "" || err != nil {
				return key, want, at, err
			}
		}
	case json.Delim('['):
		var et reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			et = t.Elem()
		}
		for dec.More() {
			if key, want, at, err = walkKeys(dec, et); key != "" || err != nil {
				return key, want, at, err
			}
		}
	default:
		return "", "", 0, nil
	}
	_, err = dec.Token() // the closing delimiter
	return "", "", 0, err
}

// fieldNamed is the type of t's field whose JSON name is name exactly; else ok is false and
// want is the name it matches in another case.
func fieldNamed(t reflect.Type, name string) (ft reflect.Type, want string, ok bool) {
	for f := range t.Fields() {
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case !f.IsExported() || tag == "-":
		case tag == name:
			if f.Type.Kind() == reflect.Map || f.Type.Kind() == reflect.Interface {
				return nil, "", true // free-form: its keys are data
			}
			return f.Type, "", true
		case strings.EqualFold(tag, name):
			want = tag
		}
	}
	return nil, want, false
}
