package mockserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/opsapi/mocktoolkit/internal/inflight"
	"github.com/opsapi/mocktoolkit/internal/jsonnum"
	"github.com/opsapi/mocktoolkit/internal/jsonwords"
	"github.com/opsapi/mocktoolkit/internal/text"
	"github.com/opsapi/mocktoolkit/reference"
	"github.com/opsapi/mocktoolkit/spec"
)

// maxBody is the largest request body an operation accepts (D41).
const maxBody = 1 << 20

// bodyProblem is why a request body cannot be read as a JSON object: 413 past the size limit,
// 400 otherwise (the operation may answer the 400 as 422, D2).
type bodyProblem struct {
	status  int
	message string
	field   string // the request field at fault, when it is not the body as a whole
}

// contentTypeProblem refuses a body that is not declared JSON (D6): requests carry
// Content-Type: application/json (with parameters such as a UTF-8 charset, or a +json type);
// an empty body may come without one. It is checked before the body is read, so a form post is
// told about its header, not about its bytes. Config.LenientContentType reads any body as JSON.
func contentTypeProblem(r *http.Request) *bodyProblem {
	if r.ContentLength == 0 {
		return nil
	}
	ct := r.Header.Get("Content-Type")
	var msg string
	switch t, charset := spec.RequestBodyType(r.Header); t {
	case spec.BodyJSON:
		return nil
	case spec.BodyUntyped:
		msg = "The Content-Type header is missing: a request body must be sent as application/json."
	case spec.BodyTwoTypes:
		msg = "The request carries more than one Content-Type header: send one, application/json."
	case spec.BodyOtherCharset:
		msg = "The Content-Type header names the charset " + strconv.Quote(text.Clip(charset, 40)) + ": a JSON body is sent in UTF-8."
	default:
		msg = "The Content-Type header must be application/json, not " + strconv.Quote(ct) + "."
	}
	return &bodyProblem{status: http.StatusBadRequest, message: msg, field: "Content-Type"}
}

// encodingProblem refuses a body sent with a Content-Encoding other than identity (D184), as
// a wrong Content-Type is refused (D6): the mock reads bodies as sent, so a gzip body would
// otherwise be "not valid JSON" and a body marked br would be read as if it were plain.
func encodingProblem(r *http.Request) *bodyProblem {
	enc := strings.TrimSpace(strings.Join(r.Header.Values("Content-Encoding"), ", ")) // all of them: the first may be identity
	if r.ContentLength == 0 || !bodyEncoded(r.Header) {
		return nil
	}
	return &bodyProblem{status: http.StatusBadRequest, field: "Content-Encoding",
		message: "The Content-Encoding header must be identity or absent, not " + strconv.Quote(clip(enc, 60)) + ": send the body uncompressed."}
}

// bodyEncoded tells whether h declares a Content-Encoding other than identity.
func bodyEncoded(h http.Header) bool {
	for _, v := range h.Values("Content-Encoding") {
		for _, enc := range strings.Split(v, ",") {
			if e := strings.TrimSpace(enc); e != "" && !strings.EqualFold(e, "identity") {
				return true
			}
		}
	}
	return false
}

// readBody reads at most limit bytes of the request body as one JSON object, decoded once,
// and returns the bytes (trimmed) and the object; an empty body has no
// bytes and counts as {} (D2). Of duplicate keys the last wins (D8).
// It is the one body reader of the operations; the controls read theirs with readObject.
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, map[string]any, *bodyProblem) {
	raw, problem := readRaw(w, r, limit)
	if problem != nil {
		return nil, nil, problem
	}
	if len(raw) == 0 {
		return nil, map[string]any{}, nil
	}
	// Numbers decode as float64: validation needs their type and bounds only, and an integer
	// past 64 bits, which a float64 cannot tell apart, is refused by decode with the same words.
	var value any
	if err := json.Unmarshal(raw, &value); err != nil {
		var typeErr *json.UnmarshalTypeError
		if !errors.As(err, &typeErr) {
			return nil, nil, notJSON(raw, err)
		}
		// Valid JSON with a number past float64 (1e400): decode it as written; the field is then
		// refused like any integer past 64 bits (D8).
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		value = nil
		if err := dec.Decode(&value); err != nil {
			return nil, nil, notJSON(raw, err)
		}
	}
	obj, ok := value.(map[string]any)
	if !ok {
		return nil, nil, notAnObject()
	}
	return raw, obj, nil
}

func notAnObject() *bodyProblem {
	return &bodyProblem{status: http.StatusBadRequest, message: "The request body must be a JSON object."}
}

// readObject reads a request body that must be a JSON object (or empty) without decoding it
// into values, for the controls that decode it into their own types: a snapshot of a hundred
// megabytes took a gigabyte as a tree of maps. The same problems as readBody's.
func readObject(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, *bodyProblem) {
	raw, problem := readRaw(w, r, limit)
	if problem != nil || len(raw) == 0 {
		return nil, problem
	}
	var typeErr *json.UnmarshalTypeError
	switch err := json.Unmarshal(raw, &struct{}{}); { // checks the syntax, skips the members
	case errors.As(err, &typeErr), string(raw) == "null":
		return nil, notAnObject()
	case err != nil && formData(r) && raw[0] != '{' && raw[0] != '[':
		// curl -F or --data: the controls take JSON, which a form's bytes only seemed not to be.
		// A body that starts as JSON is JSON with a mistake (curl -d '{"seed": 7,}', the
		// README's way, sends it labelled a form): its syntax error says where.
		return nil, &bodyProblem{status: http.StatusBadRequest, message: "The request body is form data (" + r.Header.Get("Content-Type") + "); the mock's controls take a JSON object, such as {\"seed\": 7} (curl -d '{...}' -H 'Content-Type: application/json')."}
	case err != nil:
		return nil, notJSON(raw, err)
	}
	return raw, nil
}

// formData tells whether r declares its body a form (multipart or URL-encoded).
func formData(r *http.Request) bool {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return mt == "multipart/form-data" || mt == "application/x-www-form-urlencoded"
}

// readRaw reads a request body up to limit, trimmed of white space, refusing a content
// encoding it cannot read and a body past limit.
func readRaw(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, *bodyProblem) {
	if p := encodingProblem(r); p != nil {
		return nil, p
	}
	if r.ContentLength > limit { // refused unread: a client waiting on "100 Continue" sends nothing
		return nil, &bodyProblem{status: http.StatusRequestEntityTooLarge, message: "The request body must not be larger than " + byteSize(limit) + "."}
	}
	var raw []byte
	var err error
	if ra, ok := r.Body.(*readAhead); ok && int64(len(ra.data)) <= limit {
		raw = ra.data // read whole by the journal; never written to
	} else {
		raw, err = io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	}
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return nil, &bodyProblem{status: http.StatusRequestEntityTooLarge, message: "The request body must not be larger than " + byteSize(limit) + "."}
	case errors.Is(err, inflight.ErrFull):
		return nil, &bodyProblem{status: http.StatusServiceUnavailable, message: bodiesFullMessage(maxBodiesHeld)}
	case err != nil:
		return nil, &bodyProblem{status: http.StatusBadRequest, message: "The request body could not be read."}
	}
	return bytes.TrimSpace(raw), nil
}

// notJSON words why raw, trimmed, is not JSON text: the byte order mark it starts with, or the
// line and column where the decoder stopped and why ("line 1, column 14: invalid character
// '}' looking for beginning of object key string"), so a hand-edited body can be mended.
func notJSON(raw []byte, err error) *bodyProblem {
	msg := "The request body is not valid JSON"
	var syntax *json.SyntaxError
	switch {
	case bytes.HasPrefix(raw, []byte("\xef\xbb\xbf")):
		msg += ": it starts with a byte order mark (U+FEFF); send the UTF-8 text without one"
	case bytes.HasPrefix(raw, []byte("\xff\xfe")), bytes.HasPrefix(raw, []byte("\xfe\xff")):
		msg += ": it is UTF-16 text (it starts with a UTF-16 byte order mark); send it as UTF-8"
	case errors.As(err, &syntax):
		line, col := lineColumn(raw, syntax.Offset)
		msg += fmt.Sprintf(": line %d, column %d: %s", line, col, clip(jsonwords.Syntax(err), 200))
	}
	return &bodyProblem{status: http.StatusBadRequest, message: msg + "."}
}

// lineColumn is the line and column (both from 1, the column in characters) of the byte
// before offset in b: where a decoder that stopped at offset found the fault.
func lineColumn(b []byte, offset int64) (line, col int) {
	at := b[:min(max(offset-1, 0), int64(len(b)))]
	start := bytes.LastIndexByte(at, '\n') + 1
	return bytes.Count(at, []byte("\n")) + 1, utf8.RuneCount(at[start:]) + 1
}

// maxBodiesHeld bounds the request bodies of the API's operations held at once, over every
// connection and world (D216).
const maxBodiesHeld = 64 << 20

// bodiesFullMessage says why a body was refused unread for maxBodiesHeld.
func bodiesFullMessage(max int64) string {
	return "The mock is receiving more request bodies at once than it holds (" + byteSize(max) + " in all); try again in a moment."
}

// writeBodiesFull answers a request whose body the budget of bodies held at once has no room
// for: 503 shape (a) with Retry-After, the body unread.
func writeBodiesFull(w http.ResponseWriter, max int64) {
	w.Header().Set("Retry-After", "1")
	w.Header().Set("Connection", "close") // the body is still on the connection
	writeShapeA(w, http.StatusServiceUnavailable, bodiesFullMessage(max))
}

// writeBodyGaveWay answers a request whose body stopped arriving, or came too slowly, while the
// budget of bodies held at once was full and another needed room (D216): 408 shape (a); its
// connection's reading has been cut off, so the connection closes.
func writeBodyGaveWay(w http.ResponseWriter) {
	w.Header().Set("Connection", "close")
	writeShapeA(w, http.StatusRequestTimeout, "The request body arrived too slowly while other requests waited for room, and was not read whole; send it again.")
}

// byteSize words a size limit: "1 MiB".
func byteSize(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// decodeControlChecked reads the JSON body of a control (at most limit bytes) into v: empty
// counts as {}; a body that is not a JSON object answers 400 shape (a) (413 past the limit); an
// unknown field or a value of the wrong type answers 422 shape (c). check (when not nil) runs on
// the body as written, before it is decoded: the fields it returns answer 422 shape (c).
func decodeControlChecked(w http.ResponseWriter, r *http.Request, v any, limit int64, check func([]byte) map[string][]string) bool {
	body, problem := readObject(w, r, limit)
	if problem != nil {
		writeShapeA(w, problem.status, problem.message)
		return false
	}
	if fields := textErrors(spec.InvalidText(body)); fields != nil { // text that is not UTF-8 (D74)
		writeValidation(w, fields)
		return false
	}
	if check != nil {
		if fields := check(body); fields != nil {
			writeValidation(w, fields)
			return false
		}
	}
	if len(body) == 0 {
		return true
	}
	canon, unknown := controlBody(body, jsonNames(reflect.TypeOf(v)))
	if unknown != "" {
		writeValidation(w, map[string][]string{unknown: {reference.MsgUnknown(unknown)}})
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(canon))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		field, msg := placedFieldError(canon, err, dec.InputOffset())
		writeValidation(w, map[string][]string{field: {msg}})
		return false
	}
	return true
}

// controlBody is a control's body as its decoder reads it, read as the operations' bodies are
// (D8): integral numbers (5.0, 1e1) as integers, at any depth, and member names only as
// written, so a name in another case (ADVANCE_SECONDS) is unknown, not read into the field it
// resembles; unknown is the first such name at the top. A body that is not a JSON object goes
// on as it is, for the decoder to word.
func controlBody(body []byte, names map[string]bool) (canon []byte, unknown string) {
	// Read without decoding the body into a tree of values: a snapshot of a hundred megabytes
	// took a gigabyte that way.
	keys, object := topKeys(body)
	if !object {
		return body, ""
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !names[k] {
			return nil, k
		}
	}
	return jsonnum.Integral(body), ""
}

// topKeys lists the member names of a JSON object, as written; object is false for any other
// value. Each member's value is read past, one at a time.
func topKeys(body []byte) (keys []string, object bool) {
	dec := json.NewDecoder(bytes.NewReader(body))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	for dec.More() {
		tok, err := dec.Token()
		key, isKey := tok.(string)
		var value json.RawMessage
		if err != nil || !isKey || dec.Decode(&value) != nil {
			return nil, false
		}
		keys = append(keys, key)
	}
	return keys, true
}

// controlFieldError words a decoding error of a control's JSON object under its field.
func controlFieldError(err error) (string, string) {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		kind := kindPhrase(te.Type.Kind().String())
		if num, ok := strings.CutPrefix(te.Value, "number "); ok && kind == "an integer" && jsonnum.WholeNumber(num) {
			kind = "an integer between " + intRange(te.Type) // a whole number past the field's bits
		}
		return te.Field, reference.MsgType(te.Field, kind)
	}
	if errors.As(err, &te) && te.Field == "" { // the whole body is of another kind: "[]"
		what := map[string]string{"array": "an array", "string": "a string", "number": "a number", "bool": "a boolean"}[te.Value]
		if what == "" {
			what = te.Value
		}
		return "body", "The body must be a JSON object, not " + what + "."
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		name = strings.Trim(name, `"`)
		return name, reference.MsgUnknown(name)
	}
	return "body", "The request body is invalid: " + err.Error() + "."
}

// intRange words the range of an integer type ("-2^63 and 2^63-1").
func intRange(t reflect.Type) string {
	bits := t.Bits()
	if strings.HasPrefix(t.Kind().String(), "uint") {
		return fmt.Sprintf("0 and 2^%d-1", bits)
	}
	return fmt.Sprintf("-2^%d and 2^%d-1", bits-1, bits-1)
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
	case "struct", "map":
		return "an object"
	default:
		return "a " + kind
	}
}

// bodyVisitOptions are those openapi3filter.ValidateRequestBody uses for a request body with
// every error collected (the spec sets no defaults, so none are written back).
var bodyVisitOptions = []openapi3.SchemaValidationOption{openapi3.VisitAsRequest(), openapi3.MultiErrors()}

// validate checks a body against the operation's request schema with kin-openapi — the one
// field validator of the HTTP path — and returns the failures keyed by field (D5), worded by
// the one sentence writer (reference/messages.go), or nil. Text that is not UTF-8 is checked on
// the raw bytes (bad, from spec.InvalidText): decoding would silently turn it into U+FFFD (D74).
func validate(schema *openapi3.Schema, bad []string, value map[string]any, body []byte) map[string][]string {
	fields := textErrors(bad)
	for field, msgs := range reference.IDsPastRange(value) {
		if fields == nil {
			fields = map[string][]string{}
		}
		fields[field] = msgs
	}
	err := schema.VisitJSON(value, bodyVisitOptions...)
	if err == nil {
		return fields
	}
	if fields == nil {
		fields = map[string][]string{}
	}
	fractions := spec.NotIntegers(schema, body) // read only on failure: the hot path never decodes twice
	for _, e := range spec.SchemaErrors(err) {
		field := spec.Field(e)
		if field == "" {
			field = "body"
		}
		msg := sentence(field, e)
		if slices.Contains(fractions, field) {
			msg = reference.MsgType(field, "an integer") // not its minimum: 1e-400 is no 0 (D8)
		}
		if slices.Contains(schema.Required, field) && missing(e.Value) {
			msg = reference.MsgRequired(field) // null and blank are missing, however the schema failed them (D44)
		}
		if !slices.Contains(fields[field], msg) {
			fields[field] = append(fields[field], msg)
		}
	}
	if len(fields) == 0 {
		fields["body"] = []string{"The request body is invalid."}
	}
	return fields
}

// textErrors words each top-level field of a request body whose text is not valid UTF-8 (bad,
// the paths spec.InvalidText finds): raw bytes that are not UTF-8, or an escaped lone surrogate
// such as "\ud800" (D74). It returns nil when every string is valid text.
func textErrors(bad []string) map[string][]string {
	if len(bad) == 0 {
		return nil
	}
	fields := map[string][]string{}
	for _, path := range bad {
		field := path
		if i := strings.IndexAny(field, ".["); i > 0 {
			field = field[:i] // errors are keyed by the top-level field (D5)
		}
		if _, said := fields[field]; !said { // one message a field: its first bad text says where
			fields[field] = []string{reference.MsgText(field, path)}
		}
	}
	return fields
}

// missing tells a value that stands for no value: null, or a string of white space only (D44).
func missing(v any) bool {
	s, isString := v.(string)
	return v == nil || isString && strings.TrimSpace(s) == ""
}

// errBadMemberName is the problem of a request body whose top-level member name is not UTF-8
// text (D199): no field can be named by it, so the body is not read as the operation's fields.
var errBadMemberName = &bodyProblem{status: http.StatusBadRequest, message: "The request body is not valid JSON: a member name is not UTF-8 text."}
