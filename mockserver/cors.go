package mockserver

import (
	"net/http"
	"sort"
	"strings"
)

// CORS headers of the mock (README, "Steering the mock": CORS).
const (
	corsAllowHeaders  = "Authorization, Content-Type, Accept, Prefer, X-Request-Id, X-Mock-Admin-Token"
	corsExposeHeaders = "X-RateLimit-Limit, X-RateLimit-Remaining, Retry-After, X-Request-Id, X-Mock-Forced"
	corsMaxAge        = "600"
)

// corsPolicy is the set of origins browsers may call the mock from; any when empty.
type corsPolicy struct {
	any     bool
	origins map[string]bool
}

func newCORSPolicy(origins []string) corsPolicy {
	p := corsPolicy{origins: map[string]bool{}}
	for _, o := range origins {
		o = strings.TrimRight(strings.TrimSpace(o), "/")
		switch o {
		case "":
		case "*":
			p.any = true
		default:
			p.origins[o] = true
		}
	}
	p.any = p.any || len(p.origins) == 0
	return p
}

// allowOrigin is the Access-Control-Allow-Origin for origin, or "" when it may not call.
func (p corsPolicy) allowOrigin(origin string) string {
	switch {
	case origin == "":
		return ""
	case p.any:
		return "*"
	case p.origins[origin]:
		return origin
	}
	return ""
}

// cors sets the CORS headers on every answer to an allowed Origin and answers a preflight
// (OPTIONS with Access-Control-Request-Method) on a known path with 204, before any auth:
// browsers send preflights without credentials. Other paths go on to route match (404).
func (s *Server) cors(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		if !s.steering.cors.any {
			h.Add("Vary", "Origin")
		}
		allow := s.steering.cors.allowOrigin(r.Header.Get("Origin"))
		if allow != "" {
			h.Set("Access-Control-Allow-Origin", allow)
			h.Set("Access-Control-Expose-Headers", corsExposeHeaders)
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
			h.Set("Access-Control-Allow-Methods", methods+", OPTIONS")
			h.Set("Access-Control-Allow-Headers", corsAllowHeaders)
			h.Set("Access-Control-Max-Age", corsMaxAge)
		}
		w.WriteHeader(http.StatusNoContent)
	})
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
