package proxy

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/opsapi/mocktoolkit/internal/text"
	"github.com/opsapi/mocktoolkit/internal/wireerr"
)

// admit refuses, before anything is forwarded or shown, a request the proxy must not serve
// (D140): a Host the host policy refuses (403 shape (b): a DNS-rebinding page would read the
// recorded traffic and send requests through the proxy), a target in absolute form naming a
// host the same policy refuses (403 shape (b): forward-proxy use; one it admits is served as
// the path alone would be, D221), a request that already passed
// through this proxy (508 shape (a): the upstream leads back to it), a path with "." or ".."
// segments (400 shape (a): joined to the upstream's base path it could leave it), a request
// that names no path (CONNECT, OPTIONS *: 405 shape (a)).
func (p *Proxy) admit(w http.ResponseWriter, r *http.Request) bool {
	hostRefusal := p.hosts.Refuses(r, "The proxy and its pages answer only")
	badPath := pathProblem(strings.ToLower(r.URL.EscapedPath()))
	if badPath == "" {
		badPath = pathProblem(r.URL.Path)
	}
	switch {
	case hostRefusal != "":
		writeJSON(w, http.StatusForbidden, map[string]any{"error": true, "message": hostRefusal})
	case p.looped(r):
		w.Header().Set("Via", "1.1 "+p.via) // marks the refusal as a proxy's, not the deployment's
		writeJSON(w, http.StatusLoopDetected, map[string]any{"error": true, "message": "This request already passed through this proxy: its upstream " + p.upstream.Redacted() + " leads back to it. Point --upstream at the deployment, not at the proxy.", "data": []any{}})
	case r.ProtoMajor != 1: // the HTTP/2 preface "PRI * HTTP/2.0", which net/http lets through
		writeJSON(w, http.StatusHTTPVersionNotSupported, map[string]any{"error": true, "message": wireerr.Message(http.StatusHTTPVersionNotSupported, "", "the proxy"), "data": []any{}})
	case r.Method == http.MethodConnect || r.URL.Path == "" || !strings.HasPrefix(r.URL.Path, "/"):
		// CONNECT's authority form, OPTIONS * and the like name no path to forward: the proxy is a
		// reverse proxy in front of one upstream, not a tunnel.
		writeJSON(w, http.StatusMethodNotAllowed, map[string]any{"error": true, "message": "The proxy forwards requests for paths of its upstream; " + clipText(r.Method+" "+r.RequestURI, 200) + " names none (it is not a tunnel or a forward proxy).", "data": []any{}})
	case strings.ContainsRune(r.RequestURI, '#'):
		// A fragment stays in the client; sent anyway, Go reads it as part of the path and would
		// forward it as "%23", a path the client never named.
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": true, "message": "The request target " + clipText(r.RequestURI, 200) + " holds '#': a URL's fragment is never sent in a request (escape a '#' that belongs to the path or query as %23). The request was not forwarded.", "data": []any{}})
	case badPath != "":
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": true, "message": "The path " + clipText(r.URL.EscapedPath(), 200) + " has " + badPath + "; the proxy forwards only paths without them, which every server reads alike.", "data": []any{}})
	default:
		return true
	}
	return false
}

// looped tells a request whose Via names this proxy.
func (p *Proxy) looped(r *http.Request) bool {
	for _, v := range r.Header.Values("Via") {
		if strings.Contains(v, p.via) {
			return true
		}
	}
	return false
}

// loopRefusal tells an answer that is a proxy of this toolkit refusing a looped request: 508
// with that proxy's Via.
func loopRefusal(resp *http.Response) bool {
	if resp.StatusCode != http.StatusLoopDetected {
		return false
	}
	for _, v := range resp.Header.Values("Via") {
		if strings.Contains(v, viaPrefix) {
			return true
		}
	}
	return false
}

// pathProblem says what a path has that servers read differently, or "": a "." or ".."
// segment, also percent-encoded ("%2e%2e") or between backslashes, which some servers read as
// slashes; an escape that does not decode, or decodes to a NUL or to bytes that are not UTF-8
// ("..%c0%af").
func pathProblem(path string) string {
	path = strings.NewReplacer(`\`, "/", "%5c", "/", "%5C", "/").Replace(path)
	for _, seg := range strings.Split(path, "/") {
		if i := strings.IndexByte(seg, ';'); i >= 0 {
			seg = seg[:i] // a path parameter: many servers read "..;" as ".."
		}
		decoded, err := url.PathUnescape(seg)
		switch {
		case err != nil:
			return "a percent escape that does not decode"
		case strings.ContainsRune(decoded, 0):
			return "an escaped NUL (%00)"
		case !utf8.ValidString(decoded):
			return "an escape that decodes to bytes that are not UTF-8 text"
		case strings.Trim(decoded, ".") == "" && decoded != "":
			return "'.' or '..' segments" // and their escaped forms
		}
	}
	return ""
}

// newVia names this proxy in Via headers: "mockserver-proxy-" and 8 random hex digits, so two
// proxies in a chain never take each other for themselves.
// viaPrefix starts every proxy's name in Via headers.
const viaPrefix = "mockserver-proxy-"

func newVia() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return viaPrefix + hex.EncodeToString(b)
}

// clipText shortens a value quoted in a message to about n bytes (text.Clip).
func clipText(s string, n int) string { return text.Clip(s, n) }
