package mockserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
)

// decodeControlMax is decodeControl for bodies of at most max bytes (413 shape (a) beyond).
func decodeControlMax(w http.ResponseWriter, r *http.Request, v any, max int64) bool {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, max))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		writeShapeA(w, http.StatusRequestEntityTooLarge, "The request body is too large.")
		return false
	case err != nil:
		writeShapeA(w, http.StatusBadRequest, "The request body could not be read.")
		return false
	}
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		body = []byte("{}")
	}
	if !json.Valid(body) {
		writeShapeA(w, http.StatusBadRequest, "The request body is not valid JSON.")
		return false
	}
	if body[0] != '{' {
		writeShapeA(w, http.StatusBadRequest, "The request body must be a JSON object.")
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		field, msg := controlFieldError(err)
		writeValidation(w, map[string][]string{field: {msg}})
		return false
	}
	return true
}

// controlFieldError words a decoding error of a valid JSON object under the field it is about.
func controlFieldError(err error) (string, string) {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return te.Field, "The " + te.Field + " field must be " + kindPhrase(te.Type.Kind().String()) + "."
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		name = strings.Trim(name, `"`)
		return name, "The " + name + " field is not known."
	}
	return "body", "The request body is invalid: " + err.Error() + "."
}

func kindPhrase(kind string) string {
	switch kind {
	case "int", "int64", "int32":
		return "an integer"
	case "float64", "float32":
		return "a number"
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "slice":
		return "an array"
	default:
		return "a " + kind
	}
}
