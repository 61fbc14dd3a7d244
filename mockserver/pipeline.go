package mockserver

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/opsapi/mocktoolkit/internal/prefer"
	"github.com/opsapi/mocktoolkit/internal/querycheck"
	"github.com/opsapi/mocktoolkit/internal/wireerr"
	"github.com/opsapi/mocktoolkit/reference"
	"github.com/opsapi/mocktoolkit/spec"
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
	return s.recoverPanics(s.requestID(s.logRequests(s.bindWorld(s.cors(s.recordRequests(s.boundAnswers(http.HandlerFunc(s.dispatch))))))))
}

// dispatch matches the route: an operation, a control, or 404/405 in the envelope (D3).
func (s *Server) dispatch(w http.ResponseWriter, r *http.Request) {
	if key := getOrHead(r) + " " + r.URL.Path; serverWide[key] && errors.Is(worldError(r), errAbsent) {
		h := s.ctrl[key]
		h(w, r) // the same in every world: no world is needed, or made (D213)
		return
	}
	if err := worldError(r); err != nil {
		if !s.spendUnbound(w, r) {
			return
		}
		if errors.Is(err, errAbsent) && s.bareOptions(r) { // as in a world that exists (D213)
			writeMethodNotAllowed(w, r.Method, s.pathMethods(r.URL.Path))
			return
		}
		if errors.Is(err, errAbsent) && s.pathMethods(r.URL.Path) == "" { // a preflight to no route: 404 as in any world (D185)
			s.writeNoRoute(w, r)
			return
		}
		writeNoWorld(w, err)
		return
	}
	wl := s.worldOf(r)
	if !pendingFor(r) { // a world made later stamps its own (worldToChange)
		wl.clock.stampDate(w.Header())
	}
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
	method := getOrHead(r)
	if h, ok := s.ctrl[method+" "+r.URL.Path]; ok {
		if !s.hostAllowed(w, r) || !s.admitted(w, r, wl.name) {
			return
		}
		msg := controlQueryProblem(method, r)
		if msg == "" {
			msg = unreadBody(method, r)
		}
		if msg != "" {
			writeShapeA(w, http.StatusBadRequest, msg)
			return
		}
		h(w, r)
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
	if r.ProtoMajor != 1 { // the HTTP/2 preface "PRI * HTTP/2.0", which net/http lets through
		writeShapeA(w, http.StatusHTTPVersionNotSupported, wireerr.Message(http.StatusHTTPVersionNotSupported, "", "the mock"))
		return
	}
	s.writeNoRoute(w, r)
}

// writeNoRoute answers a path that is no route: 404 shape (a) naming it (D3).
func (s *Server) writeNoRoute(w http.ResponseWriter, r *http.Request) {
	route := s.shownPath(r)
	if route == "" { // CONNECT's authority form, OPTIONS *: no path to name
		route = r.RequestURI
	}
	writeShapeA(w, http.StatusNotFound, "The route "+strconv.Quote(clip(route, 200))+" could not be found.")
}

// worldQueryReads are the controls that read another world's journal with ?world=. Any other
// control would ignore the parameter and act on the world of its path, most often the default
// one (a careless DELETE /__mock/requests?world=a cleared the default world's journal), so
// there it is refused.
var worldQueryReads = map[string]bool{"GET /__mock/requests": true, "GET /__mock/requests/count": true}

// controlQueries are the query parameters each control of /__mock/ reads; any other is refused
// (unreadQuery): a control that ignored it acted on what the client did not mean (DELETE
// /__mock/faults?id=3 cleared every rule, POST /__mock/reset?seed=7 reset to the default seed).
var controlQueries = map[string][]string{
	"GET /__mock/":               {"token"},
	"GET /__mock/requests":       {"operation", "status", "limit", "world"},
	"GET /__mock/requests/count": {"operation", "status", "world"},
	"DELETE /__mock/worlds":      {"name"},
}

// controlQueryProblem is why a control refuses r's query (400, and no world is made for it),
// or "": ?world= where the control does not read it, or parameters it does not read.
func controlQueryProblem(method string, r *http.Request) string {
	if r.URL.Query().Has("world") && !worldQueryReads[method+" "+r.URL.Path] {
		act := "to act on a world, call /__worlds/<name>" + r.URL.Path + " or send the " + WorldHeader + " header"
		if r.URL.Path == "/__mock/worlds" {
			act = "GET /__mock/worlds lists every world, and DELETE /__mock/worlds?name=<name> deletes one"
		}
		return "The world query parameter only chooses the journal GET /__mock/requests and GET /__mock/requests/count read; " + act + ". Nothing was changed."
	}
	return unreadQuery(method, r)
}

// unreadQuery says which query parameters of a request to a control of /__mock/ the control
// does not read, and what it reads instead; "" when there are none. The mock's other pages
// (/healthz, /openapi.json) take any query, as static pages do.
func unreadQuery(method string, r *http.Request) string {
	if r.URL.RawQuery == "" || !strings.HasPrefix(r.URL.Path, "/__mock/") {
		return ""
	}
	inBody := method != http.MethodGet && method != http.MethodHead && method != http.MethodDelete
	if msg := querycheck.Problem(method, r.URL.Path, r.URL.RawQuery, controlQueries[method+" "+r.URL.Path], inBody); msg != "" {
		return msg + " Nothing was changed."
	}
	return ""
}

// deleteClears says what each DELETE control does; none reads a body, so a body naming what to
// clear (one fault rule, one operation's entries) would be ignored and everything cleared.
var deleteClears = map[string]string{
	"DELETE /__mock/clock":    "it gives the world's clock back to the system time",
	"DELETE /__mock/faults":   "it clears every fault rule of the world",
	"DELETE /__mock/requests": "it clears the world's whole journal",
	"DELETE /__mock/worlds":   "it names the world to forget with ?name=",
}

// unreadBody is why a DELETE control refuses r's body, or "": a body holding more than white
// space.
func unreadBody(method string, r *http.Request) string {
	does, ok := deleteClears[method+" "+r.URL.Path]
	if !ok || r.Body == nil || r.Body == http.NoBody {
		return ""
	}
	b, _ := io.ReadAll(io.LimitReader(r.Body, maxBody+1)) // white space as long as any body the mock reads
	switch {
	case len(b) > maxBody:
		return fmt.Sprintf("%s %s takes no body, and this one is over %s: %s. Send it without one; nothing was changed.", method, r.URL.Path, byteSize(maxBody), does)
	case len(bytes.TrimSpace(b)) == 0:
		return ""
	}
	return fmt.Sprintf("%s %s takes no body: %s. Send it without one; nothing was changed.", method, r.URL.Path, does)
}

// writeMethodNotAllowed answers 405 naming the method as sent (quoted, cut to 40 bytes) and the
// ones the route takes; a method that differs from one of them only in case is told so, as
// methods are case-sensitive ("post" is not POST).
func writeMethodNotAllowed(w http.ResponseWriter, method, allow string) {
	w.Header().Set("Allow", allow)
	msg := fmt.Sprintf("The method %q is not supported for this route. Supported methods: %s.", clip(method, 40), allow)
	for _, m := range strings.Split(allow, ", ") {
		if strings.EqualFold(m, method) {
			msg += " Methods are case-sensitive: send " + m + "."
		}
	}
	writeShapeA(w, http.StatusMethodNotAllowed, msg)
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
		ran := ranOnOf(r) // what the journal and the flow record the call against (D105, D173)
		ran.set(rq.state)
		markBuild(w, rq.state)
		user, authed := rq.state.identify(r)
		if !s.rateLimit(w, wl, rt, rq.addr, user, authed) {
			return
		}
		if why := s.apiOriginRefusal(r); why != "" {
			s.writeOriginRefused(w, rt, why)
			return
		}
		if !s.steer(w, r, wl, rt) {
			return
		}
		if status, msg := rt.admit(user, authed); status != 0 {
			writeShapeB(w, status, msg)
			return
		}
		if rt.access != accessPublic {
			rq.caller = user
		}
		body, ok := s.readValid(w, r, rt)
		if !ok {
			return
		}
		rq.body = body
		if rt.grows != nothing {
			need := int64(len(body))
			if rt.grows == copies { // one request copies the record into every project
				need *= int64(1 + rq.state.store.ProjectCount())
			}
			if err := s.roomToGrow(wl, need, rt.grows == aToken, s.mayEvict(r)); err != nil {
				s.writeError(w, rt, err)
				return
			}
			defer s.settle(wl)
		}
		if rt.whole {
			bw, release, ok := s.readWhole(w, r, wl)
			if !ok {
				return
			}
			defer release()
			w = bw
		}
		a, err := s.serveBound(rt, rq)
		if err != nil {
			s.writeError(w, rt, err)
			return
		}
		s.writeAnswer(w, rt, a)
	})
}

// readValid reads the request's body and checks it against the operation's schema. It
// answers a body it cannot read (encoding, content type, JSON) or an invalid one itself, and
// then reports false.
func (s *Server) readValid(w http.ResponseWriter, r *http.Request, rt *route) ([]byte, bool) {
	problem := encodingProblem(r) // also under LenientContentType (D184)
	if problem == nil && !s.cfg.LenientContentType {
		problem = contentTypeProblem(r)
	}
	var body []byte
	var value map[string]any
	if problem == nil {
		body, value, problem = readBody(w, r, maxBody)
	}
	bad := spec.InvalidText(body)
	if problem == nil && slices.Contains(bad, "body") {
		problem = errBadMemberName
	}
	if problem != nil {
		s.writeUnreadable(w, rt, problem)
		return nil, false
	}
	if fields := validate(rt.schema, bad, value, body); len(fields) > 0 {
		writeInvalid(w, rt, fields)
		return nil, false
	}
	return body, true
}

// admit tells whether an operation of rt's access serves the caller: 0, or 401 without a
// valid token and 403 for a caller who is not a superadmin on an A+S operation, with the
// message of the answer.
func (rt *route) admit(user reference.User, authed bool) (status int, msg string) {
	switch {
	case rt.access == accessPublic:
		return 0, ""
	case !authed:
		status = http.StatusUnauthorized
	case rt.access == accessSuperadmin && !user.IsSuperadmin:
		status = http.StatusForbidden
	}
	return status, rt.refusal(status)
}

// refusal is the message of admit's status.
func (rt *route) refusal(status int) string {
	switch status {
	case http.StatusUnauthorized:
		return "Unauthenticated."
	case http.StatusForbidden:
		return "This action requires superadmin access."
	}
	return ""
}

// serveBound runs the operation's row on the world's records as they were when the request
// arrived, holding the world's gate so that a reset or a snapshot cannot replace them under it.
// A request held (by a latency, a fault's delay, a slow body) across such a swap was sent
// before it, so it acts on the records it was sent to, which the swap discarded: the reset's
// world stays as the reset made it, and the journal and the flow leave the call out, as they
// hold only calls on the new records (D62, D105, D173). It was served by the new world, and a
// public call (a cart removal) or one whose token the loaded snapshot kept changed the world
// the reset had just made.
func (s *Server) serveBound(rt *route, rq *request) (answer, error) {
	rq.world.gate.RLock()
	defer rq.world.gate.RUnlock()
	return rt.serve(rq)
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

// bearer is the token of r's one Authorization header. Two such headers authenticate nobody
// (D10): servers and proxies disagree on which one counts, so neither is taken.
func bearer(r *http.Request) (string, bool) {
	if len(r.Header.Values("Authorization")) != 1 {
		return "", false
	}
	h := r.Header.Get("Authorization")
	const prefix = "bearer "
	if len(h) <= len(prefix) || !bytes.EqualFold([]byte(h[:len(prefix)]), []byte(prefix)) {
		return "", false
	}
	return h[len(prefix):], true
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
	if p.status == http.StatusServiceUnavailable { // the mock's own bound, not the body's fault (D216)
		w.Header().Set("Retry-After", "1")
	}
	if p.status == http.StatusRequestEntityTooLarge || p.status == http.StatusServiceUnavailable || rt.lists[http.StatusBadRequest] {
		writeShapeA(w, p.status, p.message)
		return
	}
	if p.field != "" {
		writeValidation(w, map[string][]string{p.field: {p.message}})
		return
	}
	fields := validate(rt.schema, nil, map[string]any{}, nil)
	if len(fields) == 0 {
		fields = map[string][]string{"body": {p.message}}
	}
	writeValidation(w, fields)
}

// writeOriginRefused answers a call from an origin --cors-origins does not name (D214): 403
// shape (b) where the operation lists it, else as a body it cannot take, keyed "origin".
func (s *Server) writeOriginRefused(w http.ResponseWriter, rt *route, why string) {
	if rt.lists[http.StatusForbidden] {
		writeShapeB(w, http.StatusForbidden, why)
		return
	}
	s.writeUnreadable(w, rt, &bodyProblem{status: http.StatusBadRequest, message: why, field: "origin"})
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

// markBuild names the build of the records an answer came from (prefer.WorldBuild): on each
// operation's answer, and on the answer of each control that replaces a world's records or
// moves its clock, by which a proxy in front of the mock knows a reset from a deployment's
// catch-all 2xx (D123).
func markBuild(w http.ResponseWriter, st *worldState) {
	w.Header().Set(prefer.WorldBuild, strconv.FormatUint(st.build, 10))
}
