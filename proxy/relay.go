package proxy

import (
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"

	"golang.org/x/net/http/httpguts"
)

// ownInterim keeps an upstream's X-Contract-Violations and hop-by-hop headers out of the 1xx
// answers (103 Early Hints) ReverseProxy relays: the verdict is the proxy's own (D140). It also
// bounds them (D222): ReverseProxy relays every one the upstream sends, of any size, so an
// upstream could send the client thousands, or megabytes of header fields, before its answer.
// ReverseProxy calls WriteHeader for a 1xx under its own lock, never after RoundTrip returned,
// and the exchange is journaled after the last one, so the counts and notes need no lock.
type ownInterim struct {
	http.ResponseWriter
	ex      *exchange
	relayed int // interim answers passed on
	many    int // not passed on: past maxInterim
	large   int // not passed on: header fields past maxInterimHeader
	noteAt  int // the index of the exchange's note about them, -1 before one
}

// maxInterim is how many interim answers an exchange passes on; maxInterimHeader how many
// bytes of header fields each may hold (names, values, ": " and CRLF). Early Hints carries a
// few Link fields; the rest are not passed on, and the final answer still is (D222).
const (
	maxInterim       = 8
	maxInterimHeader = 16 << 10
)

func newOwnInterim(w http.ResponseWriter, ex *exchange) *ownInterim {
	return &ownInterim{ResponseWriter: w, ex: ex, noteAt: -1}
}

func (w *ownInterim) WriteHeader(code int) {
	if code < 200 && code != http.StatusSwitchingProtocols {
		h := w.Header()
		h.Del(HeaderViolations)
		for _, v := range h.Values("Connection") { // hop-by-hop in an interim answer too (D140)
			for name := range strings.SplitSeq(v, ",") {
				h.Del(strings.TrimSpace(name))
			}
		}
		for _, name := range hopByHop {
			h.Del(name)
		}
		switch {
		case headerBytes(h) > maxInterimHeader:
			w.large++
		case w.relayed >= maxInterim:
			w.many++
		default:
			w.relayed++
			w.ResponseWriter.WriteHeader(code)
			return
		}
		// Not passed on: its fields leave the header map as ReverseProxy clears them after a
		// relayed one, so none reaches the final answer.
		clear(h)
		w.noteDropped()
		return
	}
	h := w.Header()
	if code >= 200 && h["Content-Type"] == nil {
		h["Content-Type"] = nil // an answer without one is relayed without one: net/http would sniff one in
	}
	w.ResponseWriter.WriteHeader(code)
	if code >= 200 {
		// The header section is written: a declared trailer that repeats a header now holds the
		// trailer's own values alone, which ReverseProxy adds after the body (D222); left in,
		// net/http sent the header's value again among the trailers.
		for _, v := range h.Values("Trailer") {
			for name := range strings.SplitSeq(v, ",") {
				h.Del(strings.TrimSpace(name))
			}
		}
	}
}

// noteDropped says in the exchange's journal how many interim answers were not passed on, in
// one note kept up to date: the exchange is journaled once its final answer has come.
func (w *ownInterim) noteDropped() {
	if w.ex == nil {
		return
	}
	var why []string
	if w.many > 0 {
		why = append(why, fmt.Sprintf("%d past the first %d", w.many, maxInterim))
	}
	if w.large > 0 {
		why = append(why, fmt.Sprintf("%d with header fields past %d KiB", w.large, maxInterimHeader>>10))
	}
	msg := fmt.Sprintf("the upstream sent %d interim (1xx) answers before its answer; %s were not passed on to the client", w.relayed+w.many+w.large, strings.Join(why, " and "))
	if w.noteAt < 0 {
		w.noteAt = len(w.ex.notes)
		w.ex.note(msg)
		return
	}
	w.ex.notes[w.noteAt] = msg
}

// headerBytes is the size of h's fields as written: each name, value, ": " and CRLF.
func headerBytes(h http.Header) int {
	n := 0
	for name, values := range h {
		for _, v := range values {
			n += len(name) + len(v) + 4
		}
	}
	return n
}

// hopByHop are the headers of one connection (RFC 9110 7.6.1), never relayed in an interim
// answer; ReverseProxy drops them from final answers itself.
var hopByHop = []string{"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate", "Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade"}

// Unwrap lets http.ResponseController reach the connection (flushes, protocol switches).
func (w *ownInterim) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// relayTrailers passes the upstream's trailers on as it sent them (D222): the names it declared
// announced in the Trailer header, each value after the body, one it did not declare sent
// undeclared; relayedTrailer says which stay behind. ReverseProxy announces the names
// resp.Trailer holds when this hook returns; after the body it sends resp.Trailer's values
// under those names when it holds no other name, else each undeclared (http.TrailerPrefix).
// So resp.Trailer holds the announced names alone until the body's end, where trailerBody puts
// the values in: an answer read ahead whole to be judged has its trailers in already, and
// announcing them all declared names the upstream never declared.
func relayTrailers(resp *http.Response, declared []string) {
	announced := make(http.Header, len(declared))
	for _, name := range declared {
		if relayedTrailer(name) {
			announced[name] = nil
		}
	}
	early := resp.Trailer
	resp.Trailer = announced
	resp.Body = &trailerBody{ReadCloser: resp.Body, resp: resp, early: early, announced: slices.Collect(maps.Keys(announced))}
}

// relayedTrailer tells whether an upstream's trailer reaches the client. Not the proxy's own
// verdict (D140); not a field of one connection; not one a trailer may not carry (framing,
// routing, authentication: httpguts.ValidTrailerHeader, which net/http would not send either).
// A trailer repeating a header passes too, with its own values (the header section keeps the
// header's, which are the ones judged: ownInterim).
func relayedTrailer(name string) bool {
	name = http.CanonicalHeaderKey(name)
	return name != HeaderViolations && !slices.Contains(hopByHop, name) && httpguts.ValidTrailerHeader(name)
}

// trailerBody puts the trailers the client gets into resp.Trailer once the upstream's body has
// ended: the transport fills resp.Trailer at the body's end (hopTrailers then drops the fields
// the answer's Connection header named), and ReverseProxy reads it after that.
type trailerBody struct {
	io.ReadCloser
	resp      *http.Response
	early     http.Header // trailers in before the hook: an answer read ahead whole
	announced []string
	settled   bool
}

func (b *trailerBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && !b.settled {
		b.settled = true
		got := make(http.Header, len(b.announced))
		for _, name := range b.announced {
			got[name] = nil // announced whether sent or not: ReverseProxy then keeps the names
		}
		for _, h := range []http.Header{b.early, b.resp.Trailer} {
			for name, values := range h {
				if len(values) > 0 && relayedTrailer(name) {
					got[name] = values
				}
			}
		}
		b.resp.Trailer = got
	}
	return n, err
}

// maxTrailers is how large an upstream's trailer section the proxy reads (the read buffer of
// its connections to the upstream, net/http's bound on a trailer section): four times
// net/http's, and each connection holds it, 32 MiB over 2048 exchanges at once.
const maxTrailers = 16 << 10

// errLongTrailers is net/http's text for a trailer section past its connection's read buffer
// (unexported there, so matched by text).
const errLongTrailers = "http: suspiciously long trailer after chunked body"

// longTrailers ends a body whose trailer section runs past maxTrailers as a whole body without
// trailers, and notes it: the body arrived whole, and HTTP bounds no trailer, so it is no
// broken answer of the deployment's (D222).
type longTrailers struct {
	io.ReadCloser
	ex *exchange
}

func (b *longTrailers) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && err.Error() == errLongTrailers {
		b.ex.note(fmt.Sprintf("the answer's trailers run past the %d KiB the proxy reads of them: passed on without them", maxTrailers>>10))
		return n, io.EOF
	}
	return n, err
}
