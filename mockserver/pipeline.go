package mockserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/opsapi/mocktoolkit/reference"
)

// maxBody is the largest request body accepted (D41).
const maxBody = 1 << 20

// validationOptions: all field errors at once; bearer auth is ours (the spec's security scheme
// is checked by authenticate, so kin-openapi's is a no-op).
var validationOptions = &openapi3filter.Options{
	MultiError:         true,
	AuthenticationFunc: openapi3filter.NoopAuthenticationFunc,
}

// handler is the whole mock: recover → request id → log → CORS (preflight on a known path) →
// journal → route match, then per operation the pipeline below.
func (s *server) handler() http.Handler {
	return s.recoverPanics(s.requestID(s.logRequests(s.cors(s.recordRequests(http.HandlerFunc(s.dispatch))))))
}

// dispatch matches the route: an operation, a control, or 404/405 in the envelope (D3).
func (s *server) dispatch(w http.ResponseWriter, r *http.Request) {
	if rt, ok := s.ops[r.URL.Path]; ok {
		if r.Method != http.MethodPost {
			if !s.spend(w, "addr:"+clientAddr(r)) {
				return
			}
			w.Header().Set("Allow", http.MethodPost)
			writeShapeA(w, http.StatusMethodNotAllowed, "The "+r.Method+" method is not supported for this route. Supported methods: POST.")
			return
		}
		rt.handler.ServeHTTP(w, r)
		return
	}
	if h, ok := s.ctrl[r.Method+" "+r.URL.Path]; ok {
		if s.admitted(w, r) {
			h(w, r)
		}
		return
	}
	if allow := s.controlMethods(r.URL.Path); allow != "" {
		w.Header().Set("Allow", allow)
		writeShapeA(w, http.StatusMethodNotAllowed, "The "+r.Method+" method is not supported for this route. Supported methods: "+allow+".")
		return
	}
	// Every response carries the rate-limit headers (interface §Endpoints), unknown paths too.
	if !s.spend(w, "addr:"+clientAddr(r)) {
		return
	}
	writeShapeA(w, http.StatusNotFound, "The route "+r.URL.Path+" could not be found.")
}

// pipeline serves one operation: identify the caller → rate limit (headers on every answer) →
// steer (latency, Prefer, fault rules) → authenticate (401, 403 for S) → read the body (413,
// 400) → validate against the spec (422) → the operation. A failure answers a status the
// operation lists: 400 and 422 stand in for each other where only one is listed (D2, D30).
func (s *server) pipeline(rt *route) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user, authed := s.identify(r)
		if !s.rateLimit(w, r, rt, user, authed) {
			return
		}
		if !s.steer(w, r, rt) {
			return
		}
		if !rt.public {
			if !authed {
				writeShapeB(w, http.StatusUnauthorized, "Unauthenticated.")
				return
			}
			if rt.superadmin && !user.IsSuperadmin {
				writeShapeB(w, http.StatusForbidden, "This action requires superadmin access.")
				return
			}
		}
		body, ok := s.readBody(w, r, rt)
		if !ok {
			return
		}
		if fields := s.validate(r, rt, body); len(fields) > 0 {
			writeInvalid(w, rt, fields)
			return
		}
		var userID int64
		if !rt.public {
			userID = user.ID
		}
		if rt.id == "authenticate" {
			s.serveLogin(w, r, body) // throttled per e-mail and client (D71)
			return
		}
		rt.serve(w, s.store(), userID, body)
	})
}

// identify resolves the bearer token, if any, to its user.
func (s *server) identify(r *http.Request) (reference.User, bool) {
	token, ok := bearer(r)
	if !ok {
		return reference.User{}, false
	}
	u, err := s.store().UserByToken(token)
	return u, err == nil
}

func bearer(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	const prefix = "bearer "
	if len(h) <= len(prefix) || !equalFold(h[:len(prefix)], prefix) {
		return "", false
	}
	return h[len(prefix):], true
}

func equalFold(a, b string) bool { return bytes.EqualFold([]byte(a), []byte(b)) }

// rateLimit spends one request of the caller's window (D14): per token for authenticated
// operations, per client address otherwise. It sets the headers and answers 429 when spent.
func (s *server) rateLimit(w http.ResponseWriter, r *http.Request, rt *route, user reference.User, authed bool) bool {
	key := "addr:" + clientAddr(r)
	if authed && !rt.public {
		key = "user:" + strconv.FormatInt(user.ID, 10) + ":" + r.Header.Get("Authorization")
	}
	return s.spend(w, key)
}

// spend takes one request of key's window, sets the rate-limit headers and answers 429 once the
// window is spent.
func (s *server) spend(w http.ResponseWriter, key string) bool {
	v := s.limiter.take(key)
	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(v.limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(v.remaining))
	if !v.allowed {
		writeRateLimited(w, "Too many requests.", v.retryAfter)
		return false
	}
	return true
}

func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// readBody reads at most maxBody bytes and checks that they are a JSON object; an empty body
// counts as {} (D2).
func (s *server) readBody(w http.ResponseWriter, r *http.Request, rt *route) ([]byte, bool) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		writeShapeA(w, http.StatusRequestEntityTooLarge, "The request body must not be larger than 1 MiB.")
		return nil, false
	case err != nil:
		s.writeUnreadable(w, r, rt, "The request body could not be read.")
		return nil, false
	}
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return []byte("{}"), true
	}
	if !json.Valid(body) {
		s.writeUnreadable(w, r, rt, "The request body is not valid JSON.")
		return nil, false
	}
	if body[0] != '{' {
		s.writeUnreadable(w, r, rt, "The request body must be a JSON object.")
		return nil, false
	}
	return body, true
}

// writeUnreadable answers a body that cannot be read as the operation's fields: 400 shape (a),
// or, on an operation whose listed codes have no 400, 422 shape (c) keyed by the fields the
// operation requires, as if the body were empty (D2).
func (s *server) writeUnreadable(w http.ResponseWriter, r *http.Request, rt *route, message string) {
	if rt.lists[http.StatusBadRequest] {
		writeShapeA(w, http.StatusBadRequest, message)
		return
	}
	fields := s.validate(r, rt, []byte("{}"))
	if len(fields) == 0 {
		fields = map[string][]string{"body": {message}}
	}
	writeValidation(w, fields)
}

// writeInvalid answers fields that fail validation: 422 shape (c), or, on an operation whose
// listed codes have no 422, 400 shape (a) with the first failure as message (D30).
func writeInvalid(w http.ResponseWriter, rt *route, fields map[string][]string) {
	if rt.lists[http.StatusUnprocessableEntity] {
		writeValidation(w, fields)
		return
	}
	writeShapeA(w, http.StatusBadRequest, summary(fields))
}

// validate checks the body against the operation's request schema and returns the failures
// keyed by field (D5), or nil. It is kin-openapi validation either way: an operation whose
// request is only a JSON body (every operation of the spec) has its body schema visited
// directly, with the options openapi3filter.ValidateRequestBody would pass; anything else goes
// through openapi3filter.ValidateRequest. The direct path skips cloning the request and
// decoding the body a second time (docs/performance.md).
func (s *server) validate(r *http.Request, rt *route, body []byte) map[string][]string {
	var err error
	if schema, ok := bodyOnly(rt); ok {
		err = visitBody(schema, body)
	} else {
		err = validateRequest(r, rt, body)
	}
	fields := textErrors(body) // text that is not UTF-8, invisible once decoded (D74, text.go)
	if err == nil {
		return fields
	}
	if fields == nil {
		fields = map[string][]string{}
	}
	collectFieldErrors(err, fields)
	return fields
}

// bodyOnly returns the JSON body schema of an operation that has no parameters to validate.
func bodyOnly(rt *route) (*openapi3.Schema, bool) {
	op := rt.spec.Operation
	if len(op.Parameters) > 0 || len(rt.spec.PathItem.Parameters) > 0 || op.RequestBody == nil || op.RequestBody.Value == nil {
		return nil, false
	}
	mt := op.RequestBody.Value.Content.Get("application/json")
	if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
		return nil, false
	}
	return mt.Schema.Value, true
}

// bodyVisitOptions are those openapi3filter.ValidateRequestBody uses with validationOptions
// (the spec sets no defaults, so none are written back).
var bodyVisitOptions = []openapi3.SchemaValidationOption{openapi3.VisitAsRequest(), openapi3.MultiErrors()}

// visitBody decodes body as openapi3filter does (numbers kept exact) and visits the schema.
func visitBody(schema *openapi3.Schema, body []byte) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var value any
	if err := dec.Decode(&value); err != nil {
		return &openapi3filter.RequestError{Reason: "failed to decode request body", Err: err}
	}
	return schema.VisitJSON(value, bodyVisitOptions...)
}

// validateRequest is the whole of openapi3filter.ValidateRequest, on a copy of the request.
func validateRequest(r *http.Request, rt *route, body []byte) error {
	req := r.Clone(r.Context())
	req.Body = io.NopCloser(bytes.NewReader(body))
	req.ContentLength = int64(len(body))
	req.Header.Set("Content-Type", "application/json") // D6
	return openapi3filter.ValidateRequest(r.Context(), &openapi3filter.RequestValidationInput{
		Request: req,
		Route:   rt.spec,
		Options: validationOptions,
	})
}

// collectFieldErrors walks kin-openapi's errors and words each failure under its top-level
// field (the first element of the schema error's JSON pointer).
func collectFieldErrors(err error, fields map[string][]string) {
	var multi openapi3.MultiError
	var reqErr *openapi3filter.RequestError
	var schemaErr *openapi3.SchemaError
	switch {
	case errors.As(err, &multi):
		for _, e := range multi {
			collectFieldErrors(e, fields)
		}
	case errors.As(err, &schemaErr):
		field := "body"
		if p := schemaErr.JSONPointer(); len(p) > 0 {
			field = p[0]
		}
		fields[field] = append(fields[field], sentence(field, schemaErr))
	case errors.As(err, &reqErr):
		fields["body"] = append(fields["body"], "The request body is invalid: "+reqErr.Reason+".")
	default:
		fields["body"] = append(fields["body"], "The request body is invalid.")
	}
}
