package proxy

import (
	"errors"
	"strings"
	"testing"
)

// Why the upstream gave no answer is said in the proxy's words, never as Go's text nor with
// empty parentheses.
func TestUpstreamProblemInTheProxysWords(t *testing.T) {
	for raw, want := range map[string]string{
		`net/http: HTTP/1.x transport connection broken: malformed MIME header: missing colon: "XXXX"`: "a header line without a colon",
		"invalid byte in chunk length":                                        "chunked transfer encoding is broken",
		"read tcp 127.0.0.1:1->127.0.0.1:2: use of closed network connection": "closed while its answer was read",
		"net/http: server response headers exceeded 1048576 bytes; aborted":   "headers are larger than the proxy reads",
		`malformed HTTP status code "x"`:                                      "no three-digit status code",
		`malformed HTTP response "GARBAGE /x"`:                                "does not start with an HTTP status line",
		`bad Content-Length "-5"`:                                             "Content-Length is not a number of bytes",
	} {
		got := upstreamProblem(errors.New(raw))
		if !strings.Contains(got, want) || strings.Contains(got, "()") || strings.Contains(got, "invalid byte") {
			t.Errorf("%q: %q, want it to say %q", raw, got, want)
		}
	}
}
