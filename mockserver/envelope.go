package mockserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/opsapi/mocktoolkit/internal/jsonnum"
	"github.com/opsapi/mocktoolkit/internal/prefer"
	"github.com/opsapi/mocktoolkit/reference"
	"github.com/opsapi/mocktoolkit/spec"
)

// This file is the one place that encodes JSON and writes the interface's envelopes:
//
//	success    {"error": false, "message": "...", "data": ...}
//	shape (a)  {"error": true, "message": "...", "data": []}      400, 403 (domain), 404, 405, 409, 413, 500
//	shape (b)  {"error": true, "message": "..."}                  401, 403 (superadmin), 429
//	shape (c)  {"message": "...", "errors": {"field": ["..."]}}   422
//
// and the one table from reference error codes to HTTP status.

// statusOf maps each reference error code to its HTTP status.
var statusOf = map[string]int{
	reference.EINVALID:         http.StatusBadRequest,
	reference.ECAPACITY:        http.StatusBadRequest,
	reference.EUNAUTHENTICATED: http.StatusUnauthorized,
	reference.EFORBIDDEN:       http.StatusForbidden,
	reference.ENOTFOUND:        http.StatusNotFound,
	reference.ECONFLICT:        http.StatusConflict,
	reference.EVALIDATION:      http.StatusUnprocessableEntity,
	reference.ERATELIMITED:     http.StatusTooManyRequests,
	reference.EINTERNAL:        http.StatusInternalServerError,
}

// envelope is the success body and error shapes (a) and (b).
type envelope struct {
	Error   bool   `json:"error"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

// validationBody is error shape (c).
type validationBody struct {
	Message string              `json:"message"`
	Errors  map[string][]string `json:"errors"`
}

// jsonContentType is the Content-Type of every answer (shared: header values are never changed
// in place).
var jsonContentType = []string{"application/json"}

// emptyData is the `data` of shape (a) and of operations whose data is an empty array.
var emptyData = []any{}

// writeJSON writes v as the JSON body with status. Every answer of the mock goes through here
// or through writeFast. A value that cannot be encoded answers 500 shape (a) instead, and its
// error is returned for the caller to log.
func writeJSON(w http.ResponseWriter, status int, v any) error {
	return writeJSONEscaped(w, status, v, true)
}

// writeJSONEscaped is writeJSON, with <, > and & written as \u003c… only when escapeHTML: a
// snapshot is written as it is, so a world full of '<' does not come out six times its size,
// past what PUT /__mock/state reads back.
func writeJSONEscaped(w http.ResponseWriter, status int, v any, escapeHTML bool) error {
	bp := bufPool.Get().(*[]byte)
	defer putBuf(bp)
	buf := bytes.NewBuffer((*bp)[:0])
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(escapeHTML)
	err := enc.Encode(v) // Marshal's bytes and a newline
	if err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"error":true,"message":"Internal server error.","data":[]}` + "\n")
	}
	writeBody(w, status, buf.Bytes())
	*bp = buf.Bytes()[:0]
	return err
}

// writeBody writes an encoded answer.
func writeBody(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h["Content-Type"] = jsonContentType
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// writeAnswer writes an operation's success: its envelope, or its whole body when it has one.
// An answer that cannot be encoded is a bug: logged, and answered 500 shape (a).
func (s *Server) writeAnswer(w http.ResponseWriter, rt *route, a answer) {
	var err error
	switch {
	case a.body != nil:
		err = writeJSON(w, a.status, a.body)
	default:
		err = writeSuccess(w, a.status, a.message, a.data)
	}
	if err != nil {
		s.logger.Error("encode answer", "operation", rt.id, "err", err)
	}
}

// writeSuccess writes the success envelope.
func writeSuccess(w http.ResponseWriter, status int, message string, data any) error {
	if fd, ok := data.(fastData); ok {
		if writeFast(w, status, message, fd) {
			return nil
		}
		data = fd.plain()
	}
	return writeJSON(w, status, envelope{Error: false, Message: message, Data: data})
}

// writeFast writes the success envelope around data's hand-written JSON (encode.go, beside this file), the
// same bytes writeJSON would write; false when data cannot be written that way.
func writeFast(w http.ResponseWriter, status int, message string, data fastData) bool {
	bp := bufPool.Get().(*[]byte)
	defer putBuf(bp)
	b := append((*bp)[:0], `{"error":false,"message":`...)
	b = appendString(b, message)
	b = append(b, `,"data":`...)
	b, ok := data.appendJSON(b)
	*bp = b[:0]
	if !ok {
		return false
	}
	b = append(b, "}\n"...)
	*bp = b[:0]
	writeBody(w, status, b)
	return true
}

// writeShapeA writes error shape (a): error, message, data [].
func writeShapeA(w http.ResponseWriter, status int, message string) {
	_ = writeJSON(w, status, envelope{Error: true, Message: message, Data: emptyData}) // strings always encode
}

// writeShapeB writes error shape (b): error and message only.
func writeShapeB(w http.ResponseWriter, status int, message string) {
	_ = writeJSON(w, status, envelope{Error: true, Message: message})
}

// writeValidation writes error shape (c) with errors keyed by field (D5).
func writeValidation(w http.ResponseWriter, fields map[string][]string) {
	_ = writeJSON(w, http.StatusUnprocessableEntity, validationBody{Message: reference.Summary(fields), Errors: fields})
}

// writeRateLimited writes a 429 in shape (b) with Retry-After in whole seconds (at least 1).
func writeRateLimited(w http.ResponseWriter, message string, retryAfter time.Duration) {
	secs := int64((retryAfter + time.Second - 1) / time.Second)
	if secs < 1 {
		secs = 1
	}
	w.Header().Set("Retry-After", strconv.FormatInt(secs, 10))
	writeShapeB(w, http.StatusTooManyRequests, message)
}

// writeError writes an operation's error, a reference error or any other, in the shape its
// status takes; a validation error takes the operation's listed status for it (D30). Internal
// errors are logged.
func (s *Server) writeError(w http.ResponseWriter, rt *route, err error) {
	status, ok := statusOf[reference.ErrorCode(err)]
	if !ok {
		status = http.StatusInternalServerError
	}
	var e *reference.Error
	errors.As(err, &e)
	switch status {
	case http.StatusUnprocessableEntity:
		fields := map[string][]string{}
		if e != nil && len(e.Fields) > 0 {
			fields = e.Fields
		}
		writeInvalid(w, rt, fields)
	case http.StatusTooManyRequests:
		var after time.Duration
		if e != nil {
			after = e.RetryAfter
		}
		writeRateLimited(w, reference.ErrorMessage(err), after)
	case http.StatusUnauthorized:
		writeShapeB(w, status, reference.ErrorMessage(err))
	default:
		if status == http.StatusInternalServerError {
			s.logger.Error("internal error", "operation", rt.id, "err", err)
		}
		if reference.ErrorCode(err) == reference.ECAPACITY { // the mock's bound, not the API's rule: flows leave it out
			w.Header().Set(prefer.Refused, prefer.RefusedCapacity)
		}
		writeShapeA(w, status, reference.ErrorMessage(err))
	}
}

// sentence words one kin-openapi schema error about field with the one sentence writer
// (reference/messages.go, D5): this maps kin-openapi's keywords to it and words nothing itself.
func sentence(field string, e *openapi3.SchemaError) string {
	s := e.Schema
	switch e.SchemaField {
	case "required":
		return reference.MsgRequired(field)
	case "nullable":
		return reference.MsgNotNull(field)
	case "type":
		if n, ok := e.Value.(json.Number); ok && s != nil && s.Type.Is("integer") && jsonnum.WholeNumber(string(n)) {
			return reference.MsgPastRange(field, strings.HasPrefix(string(n), "-")) // 1e400: whole, past any bits
		}
		return reference.MsgType(field, article(s))
	case "maxLength":
		return reference.MsgMaxLength(field, derefU(s.MaxLength))
	case "minLength":
		return reference.MsgMinLength(field, s.MinLength)
	case "minimum":
		return reference.MsgMin(field, number(s.Min))
	case "maximum":
		return reference.MsgMax(field, number(s.Max))
	case "enum":
		return reference.MsgOneOf(field, enumList(s.Enum))
	case "format":
		if v, ok := e.Value.(string); ok && s.Format == "date-time" && errors.Is(spec.ValidateDateTime(v), spec.ErrOutsideYears) {
			return reference.MsgDateRange(field)
		}
		return reference.MsgFormat(field, s.Format)
	}
	return reference.MsgInvalid(field)
}

func article(s *openapi3.Schema) string {
	if s == nil || s.Type == nil || len(s.Type.Slice()) == 0 {
		return "valid"
	}
	switch s.Type.Slice()[0] {
	case "integer":
		return "an integer"
	case "array":
		return "an array"
	case "object":
		return "an object"
	default:
		return "a " + s.Type.Slice()[0]
	}
}

func derefU(p *uint64) uint64 {
	if p == nil {
		return 0
	}
	return *p
}

func number(p *float64) string {
	if p == nil {
		return "?"
	}
	return fmt.Sprintf("%g", *p)
}

// enumList is the allowed values of an enumeration; null, which a nullable enumeration lists,
// is not a value a client chooses and is left out.
func enumList(values []any) []string {
	out := make([]string, 0, len(values))
	for _, v := range values {
		if v != nil {
			out = append(out, fmt.Sprint(v))
		}
	}
	return out
}
