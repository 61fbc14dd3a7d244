// Package hostguard is the guard against DNS rebinding shared by the mock and the validating
// proxy (D103, D140): a page on a name the attacker controls, re-pointed at 127.0.0.1, reaches
// a local server with its own name in Host. A Policy allows Hosts that are IP addresses, names
// reserved from registration (localhost, *.localhost, *.test, example.com, …) and the names it
// was given; "*" turns the guard off.
package hostguard

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/opsapi/mocktoolkit/internal/text"
)

// Policy is the set of Host names a server answers.
type Policy struct {
	any   bool
	names map[string]bool
}

// New is the policy of the names of --allowed-hosts ("*": any).
func New(names []string) Policy {
	p := Policy{names: map[string]bool{}}
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

// CheckNames refuses a name of --allowed-hosts that no Host header could carry (a space, a
// scheme, a path, a port): such a name would never match, and the guard would refuse the
// host its user meant to allow.
func CheckNames(names []string) error {
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "*" && len(names) > 1 { // foo,* read as "any host" would turn the guard off unasked
			return fmt.Errorf("* allows any host, so it stands alone: give --allowed-hosts '*', or list host names without it")
		}
		if n == "*" || n == "" {
			continue
		}
		if strings.ContainsAny(n, " \t/:@?#[]") {
			return fmt.Errorf("%q is not a host name: give names such as staging.example.com, without a scheme, port or path", n)
		}
		for _, c := range n {
			if c > 0x7f { // browsers send an international name in its ASCII form (IDNA)
				return fmt.Errorf("%q: a Host header carries an international name in its ASCII form (münchen.de is xn--mnchen-3ya.de): give that form", n)
			}
		}
		if strings.Contains(n, "*") { // matched as written, it would allow no host its user meant
			return fmt.Errorf("%q: a name holds no wildcard (only * alone, for any host); list each host name, such as a.example.com,b.example.com", n)
		}
		for _, label := range strings.Split(strings.TrimSuffix(n, "."), ".") { // no Host header names a.., -a or a-
			if label == "" || len(label) > 63 || strings.HasPrefix(label, "-") || strings.HasSuffix(label, "-") {
				return fmt.Errorf("%q is not a host name: each dot-separated part is 1 to 63 letters, digits or hyphens, not starting or ending with a hyphen", n)
			}
		}
	}
	return nil
}

// Name is the name in a Host header, without port, brackets or a final dot, lower case.
func Name(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	return strings.ToLower(strings.TrimSuffix(host, "."))
}

// Allows tells whether a request with this Host header may be answered.
func (p Policy) Allows(host string) bool {
	name := Name(host)
	switch {
	case p.any, name == "", net.ParseIP(name) != nil:
		return true
	case reserved(name):
		return true
	}
	return p.names[name]
}

// Refuses is why the policy refuses r, worded after lead, or "" when it admits it. A request
// target in absolute form (POST http://127.0.0.1:4010/… HTTP/1.1) names in the request line the
// server it is for, and a server takes the host from there, not from the Host header (RFC 9112
// 3.2.2, which has servers accept that form; net/http sets r.Host from it): its authority is
// judged as a Host header is (D221). One the policy refuses asks the server to fetch from
// another, as of a forward proxy, which the mock and the proxy are not.
func (p Policy) Refuses(r *http.Request, lead string) string {
	if r.URL.IsAbs() {
		return p.refusesTarget(r.URL, lead)
	}
	if !p.Allows(r.Host) {
		return Refusal(lead, r.Host)
	}
	return ""
}

// refusesTarget is why the policy refuses the absolute-form target u, or "".
func (p Policy) refusesTarget(u *url.URL, lead string) string {
	shown := strconv.Quote(clipHost(u.Scheme + "://" + u.Host))
	const send = "send the path alone in the request line, with the host in the Host header"
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Opaque != "" {
		return "The request line holds " + shown + ", not an http URL of this server, which is not a forward proxy: " + send + "."
	}
	if p.Allows(u.Host) {
		return ""
	}
	name := clipHost(Name(u.Host))
	return "The request line names " + shown + ", another server: this one is not a forward proxy and fetches nothing from other hosts. " +
		lead + " localhost, IP addresses, reserved names and the hosts of --allowed-hosts: " + send + ", or start with --allowed-hosts " + name + " if that name is this server's own."
}

func clipHost(s string) string { return text.Clip(s, 100) }

// Refusal is the sentence that explains why host is refused, for a 403; lead says who answers
// what ("The proxy answers only"), and the list of allowed hosts follows.
func Refusal(lead, host string) string {
	name := clipHost(Name(host))
	q := `"` + strings.ReplaceAll(name, `"`, `\"`) + `"`
	return lead + " localhost, IP addresses, reserved names and the hosts of --allowed-hosts (a guard against DNS rebinding); the host " + q + " is not one of them: start with --allowed-hosts " + name + " to allow it."
}

// reserved tells the names nobody can register (RFC 2606, RFC 6761) and so nobody can point at
// a server by DNS: localhost, the example domains and the .localhost, .test, .example and
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
