package mockserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/opsapi/mocktoolkit/internal/prefer"
)

// This file binds each request to its world (D100): the prefix or header naming it, the world
// made only for an admitted request (D141), and the controls that make one only once their body
// is checked.

// worldKey keys a request's bound world in its context.
type worldKey struct{}

// bound is the world of a request, or why it has none.
type bound struct {
	w   *world
	err error
	// pending is set when a control that changes the world names one not there yet: the
	// world is made once the control has checked its body (worldToChange).
	pending *pendingWorld
}

// pendingWorld is a world a control that changes it (reset, clock, a fault rule, a snapshot)
// makes only once its body is checked (D141): a refused one makes no world and pushes none out.
type pendingWorld struct {
	name  string
	evict bool
	w     *world // made, held in flight until the request ends
	made  bool   // by this request (unmake takes it back)
}

// unmake forgets the world r's control made when the change it was made for is refused after
// all (no room for a scenario or a snapshot): a refused control leaves no world (D141).
func (s *Server) unmake(r *http.Request) {
	b, _ := r.Context().Value(worldKey{}).(bound)
	p := b.pending
	if p == nil || !p.made {
		return
	}
	reg := s.worlds
	reg.mu.Lock()
	defer reg.mu.Unlock()
	if reg.named[p.name] == p.w {
		reg.forget(p.w)
	}
	p.made = false
}

// splitWorld takes the /__worlds/<name> prefix off an escaped path: the name, the escaped path
// the mock serves, and whether there was a prefix.
func splitWorld(path string) (name, rest string, ok bool) {
	tail, found := strings.CutPrefix(path, WorldPrefix)
	if !found {
		return "", path, false
	}
	name, rest, _ = strings.Cut(tail, "/")
	return name, "/" + rest, true
}

// withRoutePath returns r with escaped as its path (unescaped), the path every route is matched
// on. A path that encodes a '/' (tags%2Flist) keeps it encoded, so that it matches no route
// and answers 404 naming it as sent, as a server routing on the path as sent does (D146):
// decoded, it reached tags/list under a name the API does not have.
func withRoutePath(r *http.Request, escaped string) *http.Request {
	p, err := url.PathUnescape(escaped)
	if err != nil || strings.Contains(strings.ToUpper(escaped), "%2F") {
		p = escaped
	}
	if p == r.URL.Path && r.URL.RawPath == "" {
		return r
	}
	u := *r.URL
	u.Path, u.RawPath = p, ""
	ctx := r.Context()
	if p != escaped { // decoded: the path as sent is its escaped form
		u.RawPath = escaped
	} else if strings.ContainsRune(p, '%') { // kept encoded: escaping it again would show "%252F"
		ctx = context.WithValue(ctx, sentPathKey{}, escaped)
	}
	r2 := r.WithContext(ctx)
	r2.URL = &u
	return r2
}

type sentPathKey struct{}

// pathAsSent is r's route path as the client sent it, escapes kept.
func pathAsSent(r *http.Request) string {
	if p, ok := r.Context().Value(sentPathKey{}).(string); ok {
		return p
	}
	return r.URL.EscapedPath()
}

// bindWorld binds the request's world once, before anything else reads the path (D100): the
// /__worlds/<name> prefix is taken off the path (read from the path as sent, so an escaped
// '/' stays in the name, D146), the X-Mock-World header read, and the world created on first
// use, only by a request the mock admits (D141, mayCreateWorld). A request whose world cannot
// be served is answered by dispatch.
func (s *Server) bindWorld(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, path, prefixed := splitWorld(r.URL.EscapedPath())
		header := r.Header.Get(WorldHeader)
		// A header sent blank is an unset variable, most likely: not the default world.
		blank := len(r.Header.Values(WorldHeader)) > 0 && strings.TrimSpace(header) == ""
		if !prefixed && header == "" && !blank { // the default world: worldOf falls back to it unbound
			def := s.worlds.def
			def.touch()
			countIn(def, r, path)
			next.ServeHTTP(w, withRoutePath(r, path))
			return
		}
		r2 := withRoutePath(r, path)
		b := bound{}
		if blank && !prefixed {
			b.err = &errNoWorld{msg: fmt.Sprintf("The %s header is empty: name a world, or leave the header out for the default world.", WorldHeader)}
		}
		if n := len(r.Header.Values(WorldHeader)); b.err == nil && n > 1 {
			b.err = &errNoWorld{msg: fmt.Sprintf("The %s header is given %d times: send it once.", WorldHeader, n)}
		}
		if b.err == nil && header != "" {
			if prefixed && header != name {
				b.err = &errNoWorld{msg: fmt.Sprintf("The path names world %q and the %s header names %q: use one.", clip(name, 80), WorldHeader, clip(header, 80))}
			}
			if !prefixed {
				name = header
			}
		}
		if param, other := queriedWorld(r2); b.err == nil && other != "" && other != name {
			// A worker whose base URL holds its world, deleting or reading another by a
			// mistaken ?name=, would act on another worker's world (D202).
			by := "path"
			if !prefixed {
				by = WorldHeader + " header"
			}
			b.err = &errNoWorld{msg: fmt.Sprintf("The %s names world %q and ?%s= names %q: use one. Nothing was changed.", by, clip(name, 80), param, clip(other, 80))}
		}
		if b.err == nil && name != DefaultWorld {
			if err := CheckWorldName(name); err != nil {
				b.err = &errNoWorld{msg: badWorldName(name, err)}
			}
		}
		if b.err == nil {
			var answered bool
			if b, answered = s.bindNamed(w, r2, name); answered {
				return
			}
		}
		if b.w != nil {
			defer b.w.release()
			b.w.touch()
			countIn(b.w, r, path)
		}
		if p := b.pending; p != nil {
			defer func() {
				if p.w != nil {
					p.w.release()
				}
			}()
		}
		next.ServeHTTP(w, r2.WithContext(context.WithValue(r2.Context(), worldKey{}, b)))
	})
}

// bindNamed finds the world name, or makes it for a request the mock admits that reaches an
// operation or a control (D141, D185): a path that leads nowhere (an unknown path, dot
// segments) answers 404 and makes no world. answered tells that mayCreateWorld answered r.
func (s *Server) bindNamed(w http.ResponseWriter, r *http.Request, name string) (b bound, answered bool) {
	b.w, b.err = s.world(name, false, false)
	if b.err != errAbsent { // admission is decided before any world is made (D141)
		return b, false
	}
	if isPreflight(r) || serverWide[getOrHead(r)+" "+r.URL.Path] || s.bareOptions(r) {
		// The browser's question before a page's call, not the call, a bare OPTIONS and the
		// answers that are the same in every world: they make no world (D141, D213).
		return bound{err: errAbsent}, false
	}
	if !s.reaches(r) {
		return bound{err: &errNoWorld{status: http.StatusNotFound, msg: fmt.Sprintf("The world %q does not exist, and only a POST to one of the API's operations or a request to the mock's own endpoints makes one; %s %s is neither.", clip(name, 80), r.Method, clip(r.URL.Path, 100))}}, false
	}
	if worldless[getOrHead(r)+" "+r.URL.Path] {
		return bound{}, false // the server's list of worlds: no world is needed, or made
	}
	if _, control := s.ctrl[getOrHead(r)+" "+r.URL.Path]; control {
		// The Host guard and the admin token first: a client without the token must not learn
		// which worlds exist from a 404.
		if !(s.hostAllowed(w, r) && s.admitted(w, r, name)) {
			return b, true
		}
		if msg := controlQueryProblem(getOrHead(r), r); msg != "" { // a refused control makes no world
			return bound{err: &errNoWorld{status: http.StatusBadRequest, msg: msg}}, false
		}
		if worldReads[getOrHead(r)+" "+r.URL.Path] {
			// A read or a clear of a world that is not there (never made, or dropped) says so:
			// made afresh it would answer "never called" or an empty flow, and push out another.
			return bound{err: &errNoWorld{status: http.StatusNotFound, msg: s.noSuchWorld(name)}}, false
		}
	}
	if !s.mayCreateWorld(w, r, name) {
		return b, true
	}
	if k := getOrHead(r) + " " + r.URL.Path; k == "GET /" || k == "GET /__mock" {
		// The way to the world's dashboard needs no world to point there: the dashboard makes
		// it, for a request it admits (the admin token, D141).
		if s.spendUnbound(w, r) {
			redirectToDashboard(w, r, name)
		}
		return b, true
	}
	if worldChanges[getOrHead(r)+" "+r.URL.Path] {
		return bound{pending: &pendingWorld{name: name, evict: s.mayEvict(r)}}, false
	}
	// A page of another site may make a world while there is room, never by pushing out
	// another, unless --cors-origins names its origin: a few dozen fetches from any site would
	// otherwise wipe every worker's world.
	b.w, b.err = s.world(name, true, s.mayEvict(r))
	return b, false
}

// worldReads are the controls that read or clear what a world has recorded or holds (its
// journal, flow, snapshot and fault rules): asked of a world not there, they make none (D141),
// since a world made afresh would answer for one dropped with its records ("never called", an
// empty flow). The fixture manifest, the clock and the dashboard do make one: they are how a
// test worker or a person starts with a world.
var worldReads = map[string]bool{
	"GET /__mock/requests": true, "GET /__mock/requests/count": true, "DELETE /__mock/requests": true,
	"GET /__mock/faults": true, "DELETE /__mock/faults": true,
	"GET /__mock/state": true, "GET /__mock/flow": true,
}

// worldless are the controls of the server's worlds themselves (list, forget): asked under the
// prefix of a world not there, they act as without it, behind the same guards, and make none.
var worldless = map[string]bool{"GET /__mock/worlds": true, "DELETE /__mock/worlds": true}

// worldChanges are the controls that change a world from a body they check first: they make a
// world not there yet only once the body is taken (worldToChange), never for a refused one.
var worldChanges = map[string]bool{"POST /__mock/reset": true, "POST /__mock/clock": true, "POST /__mock/faults": true, "PUT /__mock/state": true}

// noSuchWorld words the answer to a read of a world the mock does not hold, saying when and
// why a world of that name was dropped, when one was.
func (s *Server) noSuchWorld(name string) string {
	s.worlds.mu.Lock()
	why := s.worlds.dropped[name]
	s.worlds.mu.Unlock()
	if why != "" {
		why = " (" + strings.TrimSuffix(why, "; this one was made afresh") + ")"
	} else {
		why = " (never made, as far as the mock recalls)"
	}
	if s.worlds.max < 0 {
		return fmt.Sprintf("The mock holds no world named %q: it serves only its default world (it was started with --max-worlds 0).", clip(name, 80))
	}
	return fmt.Sprintf("The mock holds no world named %q%s; GET /__mock/worlds lists them, and a reset or an API call through its prefix makes it.", clip(name, 80), why)
}

// writeNoSuchWorld answers a control's query naming a world not there: 400 naming the rule for
// a name no world can have (D100), else 404 (noSuchWorld).
func (s *Server) writeNoSuchWorld(w http.ResponseWriter, name string) {
	if name != DefaultWorld {
		if err := CheckWorldName(name); err != nil {
			writeShapeA(w, http.StatusBadRequest, badWorldName(name, err))
			return
		}
	}
	writeShapeA(w, http.StatusNotFound, s.noSuchWorld(name))
}

// worldToChange is the world a control changes: the request's, made now when the request
// named a world not there yet (pendingWorld). When it cannot be made, the answer is written
// and ok is false.
func (s *Server) worldToChange(w http.ResponseWriter, r *http.Request) (*world, bool) {
	b, _ := r.Context().Value(worldKey{}).(bound)
	p := b.pending
	if p == nil || p.w != nil {
		return s.worldOf(r), true
	}
	wl, err := s.makeWorld(p.name, true, p.evict, true)
	if err != nil {
		writeNoWorld(w, err)
		return nil, false
	}
	p.w, p.made = wl, true
	wl.touch()
	wl.requests.Add(1)
	wl.clock.stampDate(w.Header())
	return wl, true
}

// writeNoWorld answers a request whose world cannot be served: 400 shape (a) unless the error
// says otherwise (404 for one not there, 503 with Retry-After when every world is busy). The
// answer is marked as the mock's refusal of the world: the client's misuse of the mock, or the
// mock's own capacity, never the deployment's answer, so the checker excuses it (D60, D141).
func writeNoWorld(w http.ResponseWriter, err error) {
	status := http.StatusBadRequest
	if e, ok := err.(*errNoWorld); ok && e.status != 0 {
		status = e.status
	}
	if status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "1")
	}
	w.Header().Set(prefer.Refused, prefer.RefusedWorld)
	writeShapeA(w, status, err.Error())
}

// mayEvict tells whether r may push out an idle world to make room: any request but one from
// a page of another site whose origin --cors-origins does not name (D141, D206).
func (s *Server) mayEvict(r *http.Request) bool {
	return !fromAnotherSite(r) || s.corsListed(requestOrigin(r))
}

// bareOptions tells whether r is an OPTIONS that is not a preflight, on a path of an operation
// or a control: it answers 405 with the path's methods in Allow, in every world, and makes
// none (D213).
func (s *Server) bareOptions(r *http.Request) bool {
	return r.Method == http.MethodOptions && !isPreflight(r) && s.pathMethods(r.URL.Path) != ""
}

// isPreflight tells whether r is a CORS preflight.
func isPreflight(r *http.Request) bool {
	return r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != ""
}

// reaches tells whether r, its world prefix taken off, would be served by an operation (a POST)
// or a control of the mock: only such a request makes a world.
func (s *Server) reaches(r *http.Request) bool {
	if _, ok := s.ops[r.URL.Path]; ok {
		return r.Method == http.MethodPost
	}
	_, ok := s.ctrl[r.Method+" "+r.URL.Path]
	return ok
}

// serverWide are the mock's answers that are the same in every world: asked under a world that
// does not exist, they are answered without making it (D213), so a health probe or a fetch of
// the document never pushes out a test worker's world.
// countIn counts r among wl's requests, unless r asks for what is the same in every world or
// for the list of worlds (serverWide, worldless): a health check every few seconds made the
// default world look busy, and the same path counted in no named world.
func countIn(wl *world, r *http.Request, path string) {
	if key := getOrHead(r) + " " + path; !serverWide[key] && !worldless[key] {
		wl.requests.Add(1)
	}
}

var serverWide = map[string]bool{"GET /healthz": true, "GET /favicon.ico": true, "GET /openapi.json": true, "GET /openapi.yaml": true}

// queriedWorld is the world a control's query names besides the request's own, and its
// parameter: ?world= of the journal reads, ?name= of DELETE /__mock/worlds; "" when none.
func queriedWorld(r *http.Request) (param, name string) {
	switch {
	case worldQueryReads[getOrHead(r)+" "+r.URL.Path]:
		return "world", r.URL.Query().Get("world")
	case r.Method == http.MethodDelete && r.URL.Path == "/__mock/worlds":
		return "name", r.URL.Query().Get("name")
	}
	return "", ""
}

// getOrHead is r's method, HEAD read as GET (HEAD is GET without the body).
func getOrHead(r *http.Request) string {
	if r.Method == http.MethodHead {
		return http.MethodGet
	}
	return r.Method
}

// worldOf is the world bound to r (the default world when none was bound, as in handlers
// called directly).
func (s *Server) worldOf(r *http.Request) *world {
	b, _ := r.Context().Value(worldKey{}).(bound)
	switch {
	case b.w != nil:
		return b.w
	case b.pending != nil && b.pending.w != nil:
		return b.pending.w
	}
	return s.worlds.def
}

// pendingFor tells whether r names a world its control makes only once its body is checked,
// not made yet: until worldToChange, r has no world of its own.
func pendingFor(r *http.Request) bool {
	b, _ := r.Context().Value(worldKey{}).(bound)
	return b.pending != nil && b.pending.w == nil
}

// worldError is why r has no world, or nil.
func worldError(r *http.Request) error {
	b, _ := r.Context().Value(worldKey{}).(bound)
	var e *errNoWorld
	if errors.As(b.err, &e) {
		return e
	}
	return b.err
}
