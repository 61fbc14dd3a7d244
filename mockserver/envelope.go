package mockserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/opsapi/mocktoolkit/reference"
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

// emptyData is the `data` of shape (a) and of operations whose data is an empty array.
var emptyData = []any{}

// writeJSON writes v as the JSON body with status. Every answer of the mock goes through here
// or through writeFast.
func writeJSON(w http.ResponseWriter, status int, v any) {
	bp := bufPool.Get().(*[]byte)
	buf := bytes.NewBuffer((*bp)[:0])
	if err := json.NewEncoder(buf).Encode(v); err != nil { // Marshal's bytes and a newline
		slog.Error("encode answer", "err", err)
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"error":true,"message":"Internal server error.","data":[]}` + "\n")
	}
	writeBody(w, status, buf.Bytes())
	*bp = buf.Bytes()[:0]
	putBuf(bp)
}

// writeBody writes an encoded answer.
func writeBody(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// writeSuccess writes the success envelope.
func writeSuccess(w http.ResponseWriter, status int, message string, data any) {
	if fd, ok := data.(fastData); ok {
		if writeFast(w, status, message, fd) {
			return
		}
		data = fd.plain()
	}
	writeJSON(w, status, envelope{Error: false, Message: message, Data: data})
}

// writeFast writes the success envelope around data's hand-written JSON (encode.go), the
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
	writeJSON(w, status, envelope{Error: true, Message: message, Data: emptyData})
}

// writeShapeB writes error shape (b): error and message only.
func writeShapeB(w http.ResponseWriter, status int, message string) {
	writeJSON(w, status, envelope{Error: true, Message: message})
}

// writeValidation writes error shape (c) with errors keyed by field (D5).
func writeValidation(w http.ResponseWriter, fields map[string][]string) {
	writeJSON(w, http.StatusUnprocessableEntity, validationBody{Message: summary(fields), Errors: fields})
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

// writeError writes err, a reference error or any other, in the shape its status takes.
func writeError(w http.ResponseWriter, err error) {
	code := reference.ErrorCode(err)
	status, ok := statusOf[code]
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
		writeValidation(w, fields)
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
			slog.Error("internal error", "err", err)
		}
		writeShapeA(w, status, reference.ErrorMessage(err))
	}
}
