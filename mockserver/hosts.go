package mockserver

import (
	"net"
	"net/http"
	"strconv"
	"strings"
)

// hostPolicy is the guard of the mock's own endpoints against DNS rebinding (D103): a page on
// a name the attacker controls, re-pointed at 127.0.0.1, reaches the mock with its own name in
// Host. The controls answer only Hosts that are IP addresses, names reserved from registration
// (localhost, *.localhost, *.test, example.com, …) and the names of Config.AllowedHosts; "*"
// turns the guard off.
type hostPolicy struct {
	any   bool
	names map[string]bool
}

func newHostPolicy(names []string) hostPolicy {
	p := hostPolicy{names: map[string]bool{}}
	for _, n := range names {
		n = strings.ToLower(strings.TrimSuffix(strings.TrimSpace(n), "."))
		switch n {
		case "":
		case "*":
			p.any = true
		default:
			p.names[n] = true
		}
	}
	return p
}

// hostName is the name in a Host header, without port, brackets or a final dot, lower case.
func hostName(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	return strings.ToLower(strings.TrimSuffix(host, "."))
}

func (p hostPolicy) allows(host string) bool {
	name := hostName(host)
	switch {
	case p.any, name == "", net.ParseIP(name) != nil:
		return true
	case reserved(name):
		return true
	}
	return p.names[name]
}

// reserved tells the names nobody can register (RFC 2606, RFC 6761) and so nobody can point at
// the mock by DNS: localhost, the example domains and the .localhost, .test, .example and
// .invalid top-level domains (Go's httptest.NewRequest uses example.com).
func reserved(name string) bool {
	switch name {
	case "localhost", "example.com", "example.net", "example.org":
		return true
	}
	for _, tld := range []string{".localhost", ".test", ".example", ".invalid", ".example.com", ".example.net", ".example.org"} {
		if strings.HasSuffix(name, tld) {
			return true
		}
	}
	return false
}

// hostAllowed guards the /__mock/ endpoints (the dashboard included): a change from a foreign
// origin, or a Host the host policy refuses, answers 403 shape (b) saying why.
func (s *Server) hostAllowed(w http.ResponseWriter, r *http.Request) bool {
	if !strings.HasPrefix(r.URL.Path, "/__mock") {
		return true
	}
	if !s.originAllowed(r) {
		writeShapeB(w, http.StatusForbidden, "The mock's own endpoints take changes only from their own pages and the origins of --cors-origins; the origin "+strconv.Quote(clip(r.Header.Get("Origin"), 100))+" is not one of them.")
		return false
	}
	if s.steering.hosts.allows(r.Host) {
		return true
	}
	name := clip(hostName(r.Host), 100)
	writeShapeB(w, http.StatusForbidden, "The mock's own endpoints answer only localhost, IP addresses, reserved names and the hosts of --allowed-hosts (a guard against DNS rebinding); the host "+strconv.Quote(name)+" is not one of them: start the mock with --allowed-hosts "+name+" to allow it.")
	return false
}

// originAllowed refuses a change to the mock's own endpoints (any method but GET and HEAD)
// sent by a page of another origin (D103): a form or a no-cors fetch needs no preflight, so
// CORS alone would let any page reset the world without reading the answer. Requests without
// an Origin (curl, test clients) and from the mock's own pages or listed origins pass.
func (s *Server) originAllowed(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" || r.Method == http.MethodGet || r.Method == http.MethodHead {
		return true
	}
	if origin == "http://"+r.Host || origin == "https://"+r.Host {
		return true
	}
	return s.steering.cors.origins[strings.TrimRight(origin, "/")]
}
