package mockserver

import (
	"errors"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// CORS headers of the mock (D67 as revised by D103; README, "Steering the mock": CORS).
const (
	corsAllowHeaders  = "Authorization, Content-Type, Accept, Prefer, X-Request-Id, X-Mock-World, X-Mock-Admin-Token"
	corsExposeHeaders = "X-RateLimit-Limit, X-RateLimit-Remaining, Retry-After, X-Request-Id, X-Mock-Forced, X-Mock-Refused"
	corsMaxAge        = "600"
	// maxRequestHeaders bounds the Access-Control-Request-Headers the mock reflects.
	maxRequestHeaders = 2 << 10
)

// corsPolicy is the set of origins browsers may call the mock from: any ("*") when none are
// listed, for the API only.
type corsPolicy struct {
	any     bool
	origins map[string]bool
}

func newCORSPolicy(origins []string) corsPolicy {
	p := corsPolicy{origins: map[string]bool{}}
	listed := false
	for _, o := range origins {
		o = strings.ToLower(strings.TrimRight(strings.TrimSpace(o), "/")) // browsers send scheme and host in lower case
		switch {
		case o == "":
		case o == "*":
			p.any = true
		case strings.EqualFold(o, "null"): // never echoed, never with credentials (D148)
			listed = true
		default:
			p.origins[o] = true
		}
	}
	p.any = p.any || (len(p.origins) == 0 && !listed)
	return p
}

// allowOrigin is the Access-Control-Allow-Origin for origin, or "" when it may not call, and
// whether credentials may be sent. An origin listed by name is echoed with credentials; any
// other is allowed as "*" only when the policy allows any and the path is the API's: the
// mock's own endpoints (/__mock/…) answer listed origins only (D103).
func (p corsPolicy) allowOrigin(origin string, control bool) (allow string, credentials bool) {
	switch {
	case origin == "":
		return "", false
	case p.origins[strings.ToLower(origin)]:
		return origin, true
	case p.any && !control:
		return "*", false
	}
	return "", false
}

// cors sets the CORS headers on every answer to an allowed Origin and answers a preflight
// (OPTIONS with Access-Control-Request-Method) on a known path with 204, before any auth:
// browsers send preflights without credentials. Other paths go on to route match (404).
func (s *Server) cors(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		control := strings.HasPrefix(r.URL.Path, "/__mock")
		h.Add("Vary", "Origin")
		allow, creds := s.steering.cors.allowOrigin(requestOrigin(r), control)
		if allow != "" {
			h.Set("Access-Control-Allow-Origin", allow)
			h.Set("Access-Control-Expose-Headers", corsExposeHeaders)
			if creds {
				h.Set("Access-Control-Allow-Credentials", "true")
			}
		}
		if r.Method != http.MethodOptions || r.Header.Get("Access-Control-Request-Method") == "" {
			next.ServeHTTP(w, r)
			return
		}
		methods := s.pathMethods(r.URL.Path)
		if methods == "" {
			next.ServeHTTP(w, r)
			return
		}
		if allow != "" {
			h.Add("Vary", "Access-Control-Request-Headers")
			h.Set("Access-Control-Allow-Methods", methods+", OPTIONS")
			h.Set("Access-Control-Allow-Headers", allowHeaders(r.Header.Get("Access-Control-Request-Headers")))
			h.Set("Access-Control-Max-Age", corsMaxAge)
			if r.Header.Get("Access-Control-Request-Private-Network") == "true" && !control {
				h.Set("Access-Control-Allow-Private-Network", "true")
			}
		}
		if rt, ok := s.ops[r.URL.Path]; ok {
			// Rate-limit headers on every answer of an operation (D14), read without spending:
			// a preflight is the browser's, not the client's call (D103). A world a preflight
			// names and nothing made yet has every window whole (D141).
			switch err := worldError(r); {
			case err == nil:
				setRateHeaders(h, s.worldOf(r).limiter.peek(rt.id+" addr:"+clientAddr(r)))
			case errors.Is(err, errAbsent):
				setRateHeaders(h, verdict{limit: s.cfg.RateLimit, remaining: s.cfg.RateLimit})
			}
		}
		if worldError(r) == nil {
			s.worldOf(r).clock.stampDate(h) // the world's time, as on every other answer (D80)
		}
		w.WriteHeader(http.StatusNoContent)
	})
}

// allowHeaders is the Access-Control-Allow-Headers of a preflight: the headers the browser
// asks for (traceparent, sentry-trace, X-Requested-With, … any header name), else the mock's
// own list. Names that are not HTTP tokens, or a list past 2 KiB, get the mock's list.
func allowHeaders(requested string) string {
	requested = strings.TrimSpace(requested)
	if requested == "" || len(requested) > maxRequestHeaders {
		return corsAllowHeaders
	}
	names := strings.Split(requested, ",")
	for i, n := range names {
		n = strings.TrimSpace(n)
		if !isToken(n) {
			return corsAllowHeaders
		}
		names[i] = n
	}
	return strings.Join(names, ", ")
}

// isToken tells an HTTP token (RFC 9110 §5.6.2), as header names are.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range []byte(s) {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
		if !ok {
			return false
		}
	}
	return true
}

// pathMethods lists the methods a known path answers ("" for an unknown path).
func (s *Server) pathMethods(path string) string {
	if _, ok := s.ops[path]; ok {
		return http.MethodPost
	}
	return s.controlMethods(path)
}

// controlMethods lists the methods of a control path, comma separated ("" if none).
func (s *Server) controlMethods(path string) string { return s.steering.ctrlMethods[path] }

// methodsByPath groups the "METHOD path" keys of the controls table by path.
func methodsByPath(ctrl map[string]http.HandlerFunc) map[string]string {
	byPath := map[string][]string{}
	for key := range ctrl {
		m, p, _ := strings.Cut(key, " ")
		byPath[p] = append(byPath[p], m)
	}
	out := make(map[string]string, len(byPath))
	for p, ms := range byPath {
		sort.Strings(ms)
		out[p] = strings.Join(ms, ", ")
	}
	return out
}

// The mock's own endpoints are guarded against DNS rebinding by the policy of --allowed-hosts
// (D103, package hostguard, shared with the validating proxy).

// hostAllowed guards the /__mock/ endpoints (the dashboard included): a change from a foreign
// origin, or a Host the host policy refuses, answers 403 shape (b) saying why.
func (s *Server) hostAllowed(w http.ResponseWriter, r *http.Request) bool {
	if !strings.HasPrefix(r.URL.Path, "/__mock") {
		return true
	}
	if why := s.originRefusal(r); why != "" {
		writeShapeB(w, http.StatusForbidden, "The mock's own endpoints take changes only from their own pages and the origins of --cors-origins; "+why)
		return false
	}
	why := s.steering.hosts.Refuses(r, "The mock's own endpoints answer only")
	if why == "" {
		return true
	}
	writeShapeB(w, http.StatusForbidden, why)
	return false
}

// originRefusal says why a change to the mock's own endpoints (any method but GET and HEAD)
// is refused, or "" (D103): one sent by a page of another origin, since a form or a no-cors
// fetch needs no preflight, so CORS alone would let any page reset the world without reading
// the answer; and one a browser marks as sent from another site (Sec-Fetch-Site: cross-site)
// without an Origin (D182). Requests with neither (curl, test clients), from the mock's own
// pages or listed origins, and those marked same-site, same-origin or none pass.
func (s *Server) originRefusal(r *http.Request) string {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return ""
	}
	origin := requestOrigin(r)
	switch {
	case origin == "" && crossSite(r):
		return "this one was sent by a page of another site."
	case origin == "", s.ownOrListed(r, origin):
		return ""
	}
	return notListed(r, origin)
}

// notListed ends a refusal's message: the origin that is not among those allowed, or, for a
// request carrying more than one Origin (requestOrigin's "null"), that it names none of them.
func notListed(r *http.Request, origin string) string {
	if len(r.Header.Values("Origin")) > 1 {
		return "a request with more than one Origin header names none of them (a browser sends one)."
	}
	return "the origin " + strconv.Quote(clip(origin, 100)) + " is not one of them."
}

// ownOrListed tells whether origin is the mock's own (its pages) or named by --cors-origins.
func (s *Server) ownOrListed(r *http.Request, origin string) bool {
	return origin == "http://"+r.Host || origin == "https://"+r.Host || s.steering.cors.origins[strings.ToLower(strings.TrimRight(origin, "/"))]
}

// apiOriginRefusal says why a call of an operation is refused, or "" (D214): with
// --cors-origins a list (no "*"), one from a page of an origin the list does not name, since
// a form post or a no-cors fetch needs no preflight: CORS would hide the answer from the page,
// not stop the change. Calls without an Origin (curl, test clients, server-side code) pass.
func (s *Server) apiOriginRefusal(r *http.Request) string {
	origin := requestOrigin(r)
	if s.steering.cors.any || origin == "" || s.ownOrListed(r, origin) {
		return ""
	}
	return "The mock serves the API to pages of the origins --cors-origins names; " + notListed(r, origin)
}

// crossSite tells whether the browser marks r as sent by a page of another site (D141, D182).
func crossSite(r *http.Request) bool { return r.Header.Get("Sec-Fetch-Site") == "cross-site" }

// fromAnotherSite tells whether r comes from a page of another site (D141, D213): the browser
// says so (unless the page and the mock are both on loopback hosts, one site to the mock), or,
// where it sends no Sec-Fetch-Site (a mock at an address that is not potentially
// trustworthy, such as a LAN address or a compose service name, or an older browser), the
// Origin is opaque ("null") or names another site than the Host: neither the same host, nor
// both loopback, nor hosts that share their last two labels (app.example.com and
// mock.example.com).
func fromAnotherSite(r *http.Request) bool {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "cross-site":
		// A browser calls localhost:5173 and 127.0.0.1:4010 two sites; the mock counts every
		// loopback host one (D141, D213): the app under test on another port of this machine.
		u, err := url.Parse(requestOrigin(r))
		return err != nil || !bothLoopback(u.Hostname(), hostOnly(r.Host))
	case "":
	default: // same-origin, same-site, none
		return false
	}
	origin := requestOrigin(r)
	if origin == "" {
		return false
	}
	u, err := url.Parse(origin)
	if err != nil || u.Hostname() == "" {
		return true // "null" and what no browser sends
	}
	return !sameSite(u.Hostname(), hostOnly(r.Host))
}

// siteHost is a host name as sites are compared: lower case, without a trailing dot.
func siteHost(h string) string { return strings.ToLower(strings.TrimSuffix(h, ".")) }

// bothLoopback tells whether two host names are both loopback hosts, one site to the mock.
func bothLoopback(a, b string) bool { return loopback(siteHost(a)) && loopback(siteHost(b)) }

// sameSite compares two host names as fromAnotherSite does.
func sameSite(a, b string) bool {
	a, b = siteHost(a), siteHost(b)
	if a == b || bothLoopback(a, b) {
		return true
	}
	if net.ParseIP(a) != nil || net.ParseIP(b) != nil {
		return false
	}
	la, lb := strings.Split(a, "."), strings.Split(b, ".")
	return len(la) >= 2 && len(lb) >= 2 && strings.Join(la[len(la)-2:], ".") == strings.Join(lb[len(lb)-2:], ".")
}

// loopback tells whether host names this machine (localhost, *.localhost, 127.0.0.0/8, ::1).
func loopback(host string) bool {
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// hostOnly is the host name of a Host header value, without its port or brackets.
func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return strings.Trim(hostport, "[]")
}

// requestOrigin is r's Origin header, or "null" (an opaque origin, listed nowhere and never
// echoed) when r carries more than one: a browser sends one, and servers disagree on which of
// two counts, so neither is taken, as with two Authorization headers (D10).
func requestOrigin(r *http.Request) string {
	if len(r.Header.Values("Origin")) > 1 {
		return "null"
	}
	return r.Header.Get("Origin")
}
