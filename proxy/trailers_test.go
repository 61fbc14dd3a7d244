package proxy_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/proxy"
)

// trailersThroughProxy posts {} to path through a proxy in front of an upstream that answers
// with the bytes of answer, and returns the answer's header, the trailer names the answer
// declared (its Trailer header) and the trailers that came after the body.
func trailersThroughProxy(t *testing.T, answer []byte, path string) (header http.Header, declared []string, trailers http.Header) {
	t.Helper()
	p, err := proxy.New(proxy.Config{Upstream: rawUpstream(t, answer)})
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(p)
	t.Cleanup(front.Close)
	req, _ := http.NewRequest(http.MethodPost, front.URL+path, strings.NewReader("{}"))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer x")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("the client got no answer: %v", err)
	}
	defer res.Body.Close()
	for name := range res.Trailer { // before the body: the names the Trailer header declared
		declared = append(declared, name)
	}
	slices.Sort(declared)
	if _, err := io.ReadAll(res.Body); err != nil {
		t.Fatalf("the answer's body broke off: %v", err)
	}
	return res.Header, declared, res.Trailer
}

// chunkedWithTrailers is an answer of tags/list sent chunked, with head's extra header lines and
// the trailer lines of trailers after the body.
func chunkedWithTrailers(head, trailers string) []byte {
	body := `{"error":false,"message":"ok","data":{"tags":[]}}`
	return answerWith("Transfer-Encoding: chunked\r\n"+head, []byte(itoa16(len(body))+"\r\n"+body+"\r\n0\r\n"+trailers+"\r\n"))
}

// The trailers an upstream sends after a chunked body reach the client, declared in the Trailer
// header as the upstream declared them, for an operation's answer (read ahead to be judged) and
// for any other (streamed): all but the proxy's own X-Contract-Violations, which an upstream
// cannot forge there either, and the fields of one connection.
func TestUpstreamTrailersReachTheClient(t *testing.T) {
	for _, path := range []string{pTagsList, "/not/an/operation"} {
		answer := chunkedWithTrailers("Trailer: X-Checksum, X-RateLimit-Reset, X-Contract-Violations, Keep-Alive\r\n",
			"X-Checksum: sha256=abc\r\nX-RateLimit-Reset: 30\r\nX-Contract-Violations: FORGED-1\r\nKeep-Alive: timeout=5\r\n")
		_, declared, trailers := trailersThroughProxy(t, answer, path)
		if want := []string{"X-Checksum", "X-Ratelimit-Reset"}; !slices.Equal(declared, want) {
			t.Errorf("%s: the answer declares the trailers %v, want %v as the upstream declared them, less the proxy's own and hop-by-hop ones", path, declared, want)
		}
		if trailers.Get("X-Checksum") != "sha256=abc" || trailers.Get("X-RateLimit-Reset") != "30" {
			t.Errorf("%s: trailers %v, want X-Checksum and X-RateLimit-Reset with the upstream's values", path, trailers)
		}
		if v := trailers.Values(proxy.HeaderViolations); len(v) > 0 || trailers.Get("Keep-Alive") != "" {
			t.Errorf("%s: trailers %v relay the upstream's verdict or a hop-by-hop field", path, trailers)
		}
	}
}

// Trailers the upstream sends without declaring them reach the client undeclared, as net/http
// sends such trailers, with the upstream's values: not announced in the Trailer header of an
// operation's answer (read whole before its header goes out), not merged with a header of the
// same name, and never the proxy's own verdict or a field the answer's Connection header names.
func TestUndeclaredUpstreamTrailersPassAsSent(t *testing.T) {
	for _, path := range []string{pTagsList, "/not/an/operation"} {
		answer := chunkedWithTrailers("Connection: X-Hop\r\n",
			"X-Checksum: sha256=abc\r\nX-Contract-Violations: FORGED-2\r\nUpgrade: h2c\r\nX-Hop: 1\r\nX-RateLimit-Remaining: 1\r\n")
		header, declared, trailers := trailersThroughProxy(t, answer, path)
		if len(declared) > 0 {
			t.Errorf("%s: the answer declares the trailers %v, which the upstream did not declare", path, declared)
		}
		if trailers.Get("X-Checksum") != "sha256=abc" {
			t.Errorf("%s: trailers %v, want X-Checksum with the upstream's value", path, trailers)
		}
		for _, name := range []string{proxy.HeaderViolations, "Upgrade", "X-Hop"} {
			if v := trailers.Values(name); len(v) > 0 {
				t.Errorf("%s: the trailer %s: %v reached the client", path, name, v)
			}
		}
		if v := trailers.Values("X-RateLimit-Remaining"); len(v) > 0 && slices.Contains(v, "59") {
			t.Errorf("%s: the trailers carry the header's X-RateLimit-Remaining again: %v", path, v)
		}
		if v := header.Values("X-RateLimit-Remaining"); !slices.Equal(v, []string{"59"}) {
			t.Errorf("%s: the header's X-RateLimit-Remaining is %v, want [59] as the upstream sent it", path, v)
		}
	}
}
