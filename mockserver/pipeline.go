package mockserver

import (
	"bytes"
	"net"
	"net/http"
	"strconv"

	"github.com/opsapi/mocktoolkit/reference"
)

// request is what the pipeline knows of one operation request when it hands it to the
// operation's row: the world bound once for the whole request, the caller, the client's
// address and the body that passed validation.
type request struct {
	world  *world         // the request's world (D100)
	state  *worldState    // its records, bound once for the whole request
	caller reference.User // the zero User on public operations
	addr   string         // the client's address (login throttle, D71)
	body   []byte         // a JSON object that passed the spec's validation
}

// chain is the whole mock: recover → request id → log → world (D100) → CORS (preflight on a
// known path) → journal → route match, then per operation the pipeline below.
func (s *Server) chain() http.Handler {
	return s.recoverPanics(s.requestID(s.logRequests(s.bindWorld(s.cors(s.recordRequests(http.HandlerFunc(s.dispatch)))))))
}

// dispatch matches the route: an operation, a control, or 404/405 in the envelope (D3).
func (s *Server) dispatch(w http.ResponseWriter, r *http.Request) {
	if err := worldError(r); err != nil {
		writeShapeA(w, http.StatusBadRequest, err.Error())
		return
	}
	wl := s.worldOf(r)
	wl.clock.stampDate(w.Header())
	if rt, ok := s.ops[r.URL.Path]; ok {
		if r.Method != http.MethodPost {
			if !s.spend(w, wl, "addr:"+clientAddr(r)) {
				return
			}
			writeMethodNotAllowed(w, r.Method, http.MethodPost)
			return
		}
		rt.handler.ServeHTTP(w, r)
		return
	}
	if h, ok := s.ctrl[r.Method+" "+r.URL.Path]; ok {
		if s.hostAllowed(w, r) && s.admitted(w, r) {
			h(w, r)
		}
		return
	}
	if allow := s.controlMethods(r.URL.Path); allow != "" {
		writeMethodNotAllowed(w, r.Method, allow)
		return
	}
	// Every response carries the rate-limit headers (D3), unknown paths too.
	if !s.spend(w, wl, "addr:"+clientAddr(r)) {
		return
	}
	writeShapeA(w, http.StatusNotFound, "The route "+r.URL.Path+" could not be found.")
}

func writeMethodNotAllowed(w http.ResponseWriter, method, allow string) {
	w.Header().Set("Allow", allow)
	writeShapeA(w, http.StatusMethodNotAllowed, "The "+method+" method is not supported for this route. Supported methods: "+allow+".")
}

// pipeline serves one operation: bind the world → identify the caller → rate limit (headers on
// every answer) → steer (latency, Prefer, fault rules) → authenticate (401, 403 for S) → read
// the body (413, 400) → validate against the spec (422) → the operation's row. A failure
// answers a status the operation lists: 400 and 422 stand in for each other where only one is
// listed (D2, D30).
func (s *Server) pipeline(rt *route) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		wl := s.worldOf(r)
		rq := &request{world: wl, state: wl.state(), addr: clientAddr(r)}
		user, authed := rq.state.identify(r)
		if !s.rateLimit(w, wl, rt, rq.addr, user, authed) {
			return
		}
		if !s.steer(w, r, wl, rt) {
			return
		}
		if rt.access != accessPublic {
			if !authed {
				writeShapeB(w, http.StatusUnauthorized, "Unauthenticated.")
				return
			}
			if rt.access == accessSuperadmin && !user.IsSuperadmin {
				writeShapeB(w, http.StatusForbidden, "This action requires superadmin access.")
				return
			}
			rq.caller = user
		}
		var problem *bodyProblem
		if !s.cfg.LenientContentType {
			problem = contentTypeProblem(r)
		}
		var body []byte
		var value map[string]any
		if problem == nil {
			body, value, problem = readBody(w, r, maxBody)
		}
		if problem != nil {
			s.writeUnreadable(w, rt, problem)
			return
		}
		if fields := validate(rt.schema, body, value); len(fields) > 0 {
			writeInvalid(w, rt, fields)
			return
		}
		rq.body = body
		a, err := rt.serve(rq)
		if err != nil {
			s.writeError(w, rt, err)
			return
		}
		s.writeAnswer(w, rt, a)
	})
}

// identify resolves the bearer token, if any, to its user in this world.
func (wl *worldState) identify(r *http.Request) (reference.User, bool) {
	token, ok := bearer(r)
	if !ok {
		return reference.User{}, false
	}
	u, err := wl.store.UserByToken(token)
	return u, err == nil
}

func bearer(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	const prefix = "bearer "
	if len(h) <= len(prefix) || !bytes.EqualFold([]byte(h[:len(prefix)]), []byte(prefix)) {
		return "", false
	}
	return h[len(prefix):], true
}

// rateLimit spends one request of the caller's window for the operation (D14): per user on
// authenticated operations, so logging in again does not start a new window; per client
// address otherwise. It sets the headers and answers 429 when spent.
func (s *Server) rateLimit(w http.ResponseWriter, wl *world, rt *route, addr string, user reference.User, authed bool) bool {
	if authed && rt.access != accessPublic {
		return s.spend(w, wl, rt.id+" user:"+strconv.FormatInt(user.ID, 10))
	}
	return s.spend(w, wl, rt.id+" addr:"+addr)
}

// spend takes one request of key's window in wl, sets the rate-limit headers and answers 429
// once the window is spent.
func (s *Server) spend(w http.ResponseWriter, wl *world, key string) bool {
	v := wl.limiter.take(key)
	setRateHeaders(w.Header(), v)
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

// writeUnreadable answers a body that cannot be read as the operation's fields: 413 for an
// oversized body; else 400 shape (a), or, on an operation whose listed codes have no 400, 422
// shape (c) keyed by the field at fault (a header, D6) or by the fields the operation
// requires, as if the body were empty (D2).
func (s *Server) writeUnreadable(w http.ResponseWriter, rt *route, p *bodyProblem) {
	if p.status == http.StatusRequestEntityTooLarge || rt.lists[http.StatusBadRequest] {
		writeShapeA(w, p.status, p.message)
		return
	}
	if p.field != "" {
		writeValidation(w, map[string][]string{p.field: {p.message}})
		return
	}
	fields := validate(rt.schema, nil, map[string]any{})
	if len(fields) == 0 {
		fields = map[string][]string{"body": {p.message}}
	}
	writeValidation(w, fields)
}

// writeInvalid answers fields that fail validation: 422 shape (c), or, on an operation whose
// listed codes have no 422, 400 shape (a) with their summary as message (D30).
func writeInvalid(w http.ResponseWriter, rt *route, fields map[string][]string) {
	if rt.lists[http.StatusUnprocessableEntity] {
		writeValidation(w, fields)
		return
	}
	writeShapeA(w, http.StatusBadRequest, reference.Summary(fields))
}

// setRateHeaders sets X-RateLimit-Limit and X-RateLimit-Remaining of a verdict.
func setRateHeaders(h http.Header, v verdict) {
	h["X-Ratelimit-Limit"] = []string{strconv.Itoa(v.limit)}
	h["X-Ratelimit-Remaining"] = []string{strconv.Itoa(v.remaining)}
}
