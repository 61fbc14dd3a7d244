package mockserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/opsapi/mocktoolkit/reference"
)

// serveFunc carries out an operation for the caller (user id 0 on public operations) with a body
// that has passed validation, and writes the answer.
type serveFunc func(w http.ResponseWriter, st *reference.Store, userID int64, body []byte)

// reply is the status and message of an operation's success envelope.
type reply struct {
	status  int
	message string
}

func ok(message string) reply      { return reply{http.StatusOK, message} }
func created(message string) reply { return reply{http.StatusCreated, message} }

// call makes the serveFunc of an operation: decode the body into In, run op, shape its result
// into the envelope's data.
func call[In, Out any](r reply, op func(*reference.Store, int64, In) (Out, error), data func(Out) any) serveFunc {
	return func(w http.ResponseWriter, st *reference.Store, userID int64, body []byte) {
		var in In
		if err := decode(body, &in); err != nil {
			writeError(w, err)
			return
		}
		out, err := op(st, userID, in)
		if err != nil {
			writeError(w, err)
			return
		}
		writeSuccess(w, r.status, r.message, data(out))
	}
}

// decode reads a validated body into in. Anything the spec let through but Go cannot hold
// still answers a validation error keyed by the field.
func decode(body []byte, in any) error {
	err := json.Unmarshal(body, in)
	if err == nil {
		return nil
	}
	// The spec validated the body as a JSON object whose last duplicate key wins and in which
	// 5.0 is an integer (JSON does not tell them apart); Go's decoder sees neither so. Decode
	// again from that object, integral numbers written as integers.
	if canon, ok := canonicalBody(body); ok {
		if err = json.Unmarshal(canon, in); err == nil {
			return nil
		}
	}
	field, sentence := "body", "The request body is invalid."
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		field = te.Field
		sentence = "The " + strings.ReplaceAll(field, "_", " ") + " field is invalid."
		if strings.HasPrefix(te.Value, "number") {
			sentence = "The " + strings.ReplaceAll(field, "_", " ") + " field must be an integer between -2^63 and 2^63-1."
		}
	}
	return &reference.Error{Code: reference.EVALIDATION, Message: sentence,
		Fields: map[string][]string{field: {sentence}}, Err: err}
}

// canonicalBody re-encodes a JSON object with its last duplicate keys only and integral
// numbers (5.0, 1e1) as integers.
func canonicalBody(body []byte) ([]byte, bool) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var obj map[string]any
	if dec.Decode(&obj) != nil {
		return nil, false
	}
	for k, v := range obj {
		if n, ok := v.(json.Number); ok {
			if f, err := n.Float64(); err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<63 {
				obj[k] = int64(f)
			}
		}
	}
	canon, err := json.Marshal(obj)
	return canon, err == nil
}

// noInput adapts an operation without body fields.
func noInput[Out any](op func(*reference.Store, int64) (Out, error)) func(*reference.Store, int64, struct{}) (Out, error) {
	return func(st *reference.Store, userID int64, _ struct{}) (Out, error) { return op(st, userID) }
}

// noResult adapts an operation whose data is an empty array.
func noResult[In any](op func(*reference.Store, int64, In) error) func(*reference.Store, int64, In) (struct{}, error) {
	return func(st *reference.Store, userID int64, in In) (struct{}, error) {
		return struct{}{}, op(st, userID, in)
	}
}

// public adapts an operation that has no caller.
func public[In, Out any](op func(*reference.Store, In) (Out, error)) func(*reference.Store, int64, In) (Out, error) {
	return func(st *reference.Store, _ int64, in In) (Out, error) { return op(st, in) }
}

// Shapers of the envelope's data.

func asIs[T any](v T) any { return v }

func empty(struct{}) any { return emptyData }

func under[T any](key string) func(T) any {
	return func(v T) any { return map[string]any{key: v} }
}

func list[T any](key string) func([]T) any {
	return func(v []T) any {
		if v == nil {
			v = []T{}
		}
		return map[string]any{key: v}
	}
}

// masterBoardTitles: the interface types master-boards/list's data.boards as string[]; each
// entry is a master board's title, in the order of the list (D21).
func masterBoardTitles(v []reference.Board) any {
	titles := make([]string, len(v))
	for i, b := range v {
		titles[i] = b.Title
	}
	return map[string]any{"boards": titles}
}

func widgetCards(v reference.WidgetCards) any {
	if v.Cards == nil {
		v.Cards = []reference.Card{}
	}
	return v
}

// masterCardCreated: projects_updated is a string on create (interface §3, D22).
func masterCardCreated(v reference.MasterCardResult) any {
	return map[string]any{"card": v.Card, "projects_updated": strconv.FormatInt(v.ProjectsUpdated, 10)}
}

// masterCardUpdated: projects_updated is an integer on update (interface §4, D22).
func masterCardUpdated(v reference.MasterCardResult) any {
	return map[string]any{"card": v.Card, "projects_updated": v.ProjectsUpdated}
}

// versionDeprecated: version_id is a string (interface §24).
func versionDeprecated(v reference.ThemeVersion) any {
	return map[string]any{"version_id": strconv.FormatInt(v.VersionID, 10), "theme_status": v.ThemeStatus}
}

// authenticateBody is the answer of /v1/authenticate (interface §1): the envelope plus errors.
type authenticateBody struct {
	Error   bool                   `json:"error"`
	Message string                 `json:"message"`
	Data    *reference.LoginResult `json:"data,omitempty"`
	Errors  []string               `json:"errors"`
}

// serveAuthenticate answers 200 with a token, or 401 with the same answer for a wrong e-mail and
// a wrong password (D1).
func serveAuthenticate(w http.ResponseWriter, st *reference.Store, _ int64, body []byte) {
	var in reference.AuthenticateInput
	if err := decode(body, &in); err != nil {
		writeError(w, err)
		return
	}
	res, err := st.Authenticate(in)
	switch {
	case err == nil:
		writeJSON(w, http.StatusOK, authenticateBody{Message: "Login successful.", Data: &res, Errors: []string{}})
	case reference.ErrorCode(err) == reference.EUNAUTHENTICATED:
		msg := reference.ErrorMessage(err)
		writeJSON(w, http.StatusUnauthorized, authenticateBody{Error: true, Message: msg, Errors: []string{msg}})
	default:
		writeError(w, err)
	}
}
