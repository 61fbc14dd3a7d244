package proxy

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/opsapi/mocktoolkit/conformance/check"
	"github.com/opsapi/mocktoolkit/conformance/rules"
	"github.com/opsapi/mocktoolkit/internal/certerr"
	"github.com/opsapi/mocktoolkit/internal/inflight"
	"github.com/opsapi/mocktoolkit/internal/redact"
	"golang.org/x/net/http/httpguts"
)

// upstreamTimeout bounds each wait on the upstream before the client has a status: for the
// upstream's status and headers (the transport's), then for the part of its answer body the
// proxy reads ahead to check (D95). After it the client gets the 502 of UP-1, not a header
// held back while a body trickles in.
const upstreamTimeout = 2 * time.Minute

// slowAnswer is the cause an exchange's context is cancelled with when the upstream's answer
// body does not arrive within the proxy's bodyTimeout.
type slowAnswer struct{ after time.Duration }

func (e slowAnswer) Error() string {
	return fmt.Sprintf("its answer body did not arrive within %s of its header", e.after)
}

// exchangeKey carries the *exchange of a request through the ReverseProxy's hooks.
type exchangeKey struct{}

// forwardedHeaders are the headers ReverseProxy's Rewrite mode drops from the outbound
// request; the proxy puts the client's back, so they pass through unchanged (D94).
var forwardedHeaders = []string{"Forwarded", "X-Forwarded", "X-Forwarded-For", "X-Forwarded-Host", "X-Forwarded-Proto"}

// reverseProxy builds the forwarder: Host becomes the upstream's, the client's headers and
// body go as they came, and the answer is checked before its header is written.
func (p *Proxy) reverseProxy(transport http.RoundTripper) *httputil.ReverseProxy {
	if transport == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.DisableCompression = true
		t.ResponseHeaderTimeout = upstreamTimeout
		// An answer's headers are read up to 1 MiB, as a client's are (net/http's server
		// default): the transport's own 10 MiB let headers of megabytes through unjudged, each
		// held while written to a client that did not read (D95).
		t.MaxResponseHeaderBytes = maxAnswerHeader
		// An answer's trailer section is read within the connection's read buffer: net/http's
		// 4 KiB failed a whole answer with a trailer past it (D222; longTrailers past this).
		t.ReadBufferSize = maxTrailers
		transport = newTapTransport(t)
	}
	return &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(p.upstream) // also sets Host to the upstream's
			// The query as the client sent it (D94): ReverseProxy drops the parameters it cannot
			// parse (a ';', a bad escape), and the proxy reads no parameter to route by.
			pr.Out.URL.RawQuery = joinQuery(p.upstream.RawQuery, pr.In.URL.RawQuery)
			for _, name := range forwardedHeaders {
				if v, ok := pr.In.Header[name]; ok {
					pr.Out.Header[name] = v
				}
			}
			pr.Out.Header.Add("Via", "1.1 "+p.via) // a request that comes back is a loop (D140)
			// Expect: 100-continue is the client's and the proxy's business: net/http answers it
			// once the body is read, and the upstream's own 100 would reach the client twice.
			pr.Out.Header.Del("Expect")
			// A client's request trailers are not forwarded (D94): the journal does not show
			// them, and one the transport refuses (a Content-Length trailer) would be blamed on
			// the upstream as UP-1.
			pr.Out.Trailer = nil
			if ex, _ := pr.In.Context().Value(exchangeKey{}).(*exchange); ex != nil && ex.op != nil {
				// The 24 operations have no protocol switch: an exchange of one is not turned
				// into an unchecked tunnel (a 101 then answers 502 with UP-1).
				pr.Out.Header.Del("Upgrade")
				pr.Out.Header.Del("Connection")
			}
		},
		Transport:      transport,
		FlushInterval:  -1, // write each chunk as it arrives: bodies stream
		ModifyResponse: p.inspect,
		ErrorHandler:   p.upstreamFailed,
		// Its own lines ("read error during body copy: unexpected EOF") say in Go's words what
		// the journal and the reports say in ours (UP-1): kept for debugging only.
		ErrorLog: slog.NewLogLogger(p.logger.Handler(), slog.LevelDebug),
	}
}

// joinQuery puts the client's query, as written, after the upstream URL's own.
func joinQuery(upstream, client string) string {
	if upstream == "" || client == "" {
		return upstream + client
	}
	return upstream + "&" + client
}

// routedPath is path as many servers route it: ';' parameters of each segment dropped (Tomcat,
// Spring), empty segments merged (nginx), one trailing slash ignored and letters' case
// (Express, ASP.NET): a client whose
// base-URL join leaves such a path still reaches the operation, and its exchange is judged.
func routedPath(path string) string {
	segs := strings.Split(path, "/")
	kept := segs[:0]
	for _, seg := range segs {
		seg, _, _ = strings.Cut(seg, ";")
		if seg != "" {
			kept = append(kept, seg)
		}
	}
	return strings.ToLower("/" + strings.Join(kept, "/")) // Express and ASP.NET route case-insensitively
}

// maxAnswerHeader bounds the bytes of an answer's header section the proxy reads.
const maxAnswerHeader = 1 << 20

// maxBodiesHeld bounds the request bytes the proxy reads ahead for checking at once, over every
// exchange (D216), as maxHeldAnswers bounds the answers'.
const maxBodiesHeld = 64 << 20

// notRouted tells the statuses by which a server says a path is not the operation's route.
func notRouted(status int) bool {
	switch status {
	case http.StatusNotFound, http.StatusMethodNotAllowed, http.StatusMovedPermanently, http.StatusFound,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// forward reads ahead up to maxBody bytes of the request and forwards it. The exchange is
// recorded by inspect or upstreamFailed, before the answer's header is written, so the journal
// holds an exchange by the time its client reads the answer.
func (p *Proxy) forward(w http.ResponseWriter, r *http.Request) {
	// The answer's header may go to the client while the transport still reads the request
	// body: without full duplex net/http would then drain and close that body under the
	// transport, which closes the upstream connection mid-answer.
	_ = http.NewResponseController(w).EnableFullDuplex()
	body := newRequestBody(r)
	r.Body = body
	defer body.over() // runs once the answer is written: no read of the body outlives the exchange
	ex := &exchange{start: time.Now(), method: r.Method, target: r.URL.RequestURI(), path: r.URL.Path, reqHeader: r.Header.Clone(),
		body: body, answerHeader: w.Header()}
	if r.Method == http.MethodPost {
		path := r.URL.Path
		if esc := r.URL.EscapedPath(); strings.Contains(strings.ToUpper(esc), "%2F") {
			path = esc // an encoded '/' names no operation, as the mock routes it (D146)
		}
		if op, ok := p.ops[path]; ok {
			ex.op = &op
		} else if op, ok := p.ops[routedPath(path)]; ok {
			ex.op, ex.routed = &op, true
			ex.note(fmt.Sprintf("the path %q is not the operation's own %q; it is checked as that operation, since servers commonly route it there", clipText(redact.PathParams(path), 200), op.Path))
		}
	}
	if ex.op != nil { // anything else passes through untouched, however it streams
		held, err := p.bodies.Hold(w, r, p.maxBody+1) // the bodies read ahead at once stay under maxBodiesHeld (D216)
		if err != nil {
			w.Header().Set("Retry-After", "1")
			p.refuse(w, ex, http.StatusServiceUnavailable, fmt.Sprintf("The proxy is receiving more request bodies at once than it holds (%d MiB in all); try again in a moment. The request was not forwarded.", maxBodiesHeld>>20))
			return
		}
		defer held.Release()
		ex.reqBody, r.Body, ex.reqWhole, err = readAhead(r.Body, p.maxBody, r.ContentLength, anyGrowth)
		if errors.Is(err, inflight.ErrGaveWay) { // cut short for another client (D216)
			p.refuse(w, ex, http.StatusRequestTimeout, "The request body arrived too slowly while other requests waited for room, and was not read whole; the request was not forwarded. Send it again.")
			return
		}
		if err != nil {
			ex.note("the request body could not be read: " + err.Error())
		}
		if ex.reqWhole && check.MovesStatus(*ex.op) {
			// Known before the answer comes: an update overlapping it may be what another's
			// answer shows (TRANS-1).
			if body, why, _ := decodeBody(ex.reqHeader, ex.reqBody, p.maxBody); why == "" {
				answered := p.trackerOf(ex.reqHeader).StatusSent(check.Exchange{Op: *ex.op, ReqHeader: ex.reqHeader, ReqBody: body}, ex.start)
				defer func() {
					// An update the upstream never answered (its client left, a timeout) may
					// still be carried out at any time: it stays under way.
					if !ex.upstreamSilent {
						answered(time.Now())
					}
				}()
			}
		}
	}
	ctx, cancel := context.WithCancelCause(context.WithValue(r.Context(), exchangeKey{}, ex))
	defer cancel(nil)
	ex.abort = cancel
	// Deferred: ReverseProxy panics (http.ErrAbortHandler) when the client went away mid-copy,
	// and the bytes it held must be given back then too.
	defer func() { p.heldAnswers.Add(-ex.held) }()
	p.rp.ServeHTTP(newOwnInterim(w, ex), r.WithContext(ctx))
}

// refuse answers a request the proxy does not forward, for its own bounds, in shape (a) with
// Connection: close (the body is still on the connection), and journals it with a note: not
// the deployment's answer, so neither judged nor counted as checked, but seen (such refusals
// were in no journal, and a run's could not be told from its traffic).
func (p *Proxy) refuse(w http.ResponseWriter, ex *exchange, status int, msg string) {
	body, _ := json.Marshal(map[string]any{"error": true, "message": msg, "data": []any{}})
	h := w.Header()
	h.Set("Connection", "close")
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	ex.status, ex.respHeader, ex.respBody, ex.respWhole, ex.unanswered = status, h.Clone(), body, true, true
	ex.note(fmt.Sprintf("answered %d by the proxy itself, not forwarded: %s", status, msg))
	p.record(ex)
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// ErrStopping is the cause a server cancels its requests' context with when the proxy stops
// with exchanges still waiting for the upstream: each is answered 502 saying so, and is not
// the upstream's violation.
var ErrStopping = errors.New("the proxy is stopping")

// upstreamFailed answers 502 in shape (a) when no answer came from the upstream.
func (p *Proxy) upstreamFailed(w http.ResponseWriter, r *http.Request, err error) {
	ex, _ := r.Context().Value(exchangeKey{}).(*exchange)
	msg := fmt.Sprintf("The proxy could not get an answer from the upstream %s: %s.", p.upstream.Redacted(), upstreamProblem(err))
	status := http.StatusBadGateway
	stopping := errors.Is(context.Cause(r.Context()), ErrStopping)
	var slow slowAnswer
	switch {
	case errors.As(err, &slow): // the proxy gave up on the upstream, not the client
	case stopping:
		msg = fmt.Sprintf("The proxy stopped before the upstream %s answered; the request may have reached it.", p.upstream.Redacted())
	case ex != nil && ex.body.readError() != nil: // the client's request broke, not the upstream (a client that cut its body off went away too)
		status = http.StatusBadRequest
		msg = fmt.Sprintf("The proxy could not read the request's body (%s), so it did not reach the upstream whole; the client sent it malformed or cut it off.", bodyProblem(ex.body.readError()))
	case r.Context().Err() != nil && ex != nil && !ex.body.whole(): // gone mid-body (a half-close races the read's error)
		status = http.StatusBadRequest
		msg = "The client closed its connection before its request body was forwarded whole, so the request did not reach the upstream whole; the upstream is not at fault."
	case r.Context().Err() != nil: // the client went away: nobody reads this answer
		msg = "The client closed the request before the upstream answered."
	case certerr.Untrusted(err):
		msg = fmt.Sprintf("The proxy does not trust the certificate of the upstream %s: %s. %s", p.upstream.Redacted(), certerr.Reason(err), certerr.Advice(err))
	default:
		msg += connectHint(err, p.upstream)
	}
	clientStayed := r.Context().Err() == nil || errors.As(err, &slow)
	// UP-1 is a rule of the operations' requests: a path that is none is forwarded unchecked,
	// and its 502 names no violation the reports would not count.
	noAnswer := clientStayed && status == http.StatusBadGateway
	upstreamsFault := noAnswer && ex != nil && ex.op != nil
	body, _ := json.Marshal(map[string]any{"error": true, "message": msg, "data": []any{}})
	if ex != nil {
		ex.upstreamSilent = true
		ex.status, ex.respBody, ex.respWhole, ex.noWholeAnswer = status, body, true, true
		ex.unanswered = !noAnswer
		ex.note(msg)
		if upstreamsFault {
			ex.violations = []Violation{violation(rules.UP1, msg)}
		}
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	if upstreamsFault {
		h.Set(HeaderViolations, string(rules.UP1))
	}
	if ex != nil {
		ex.body.closeUnlessWhole(h)
		ex.respHeader = h.Clone()
		p.record(ex)
	}
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// upstreamProblem words why no answer came from the upstream, for the people reading the
// verdict: the kind of failure, not Go's text (which names the proxy's own DNS resolver).
func upstreamProblem(err error) string {
	var dns *net.DNSError
	var op *net.OpError
	var record tls.RecordHeaderError
	var slow slowAnswer
	var cert *tls.CertificateVerificationError
	switch {
	case errors.As(err, &slow):
		return slow.Error()
	case errors.As(err, &dns):
		return "its host name does not resolve"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "the connection was refused"
	case errors.As(err, &record):
		return "it did not answer the TLS handshake (it speaks plain HTTP?)"
	case errors.As(err, &cert):
		return err.Error() // certerr words the advice below
	case strings.Contains(err.Error(), "timeout awaiting response headers"):
		return fmt.Sprintf("no answer header arrived within %s", upstreamTimeout)
	case strings.Contains(err.Error(), "multiple Content-Length"):
		return "its answer has more than one Content-Length header, so no client can tell where its body ends"
	case strings.Contains(err.Error(), "malformed HTTP status code"):
		return "its status line carries no three-digit status code"
	case strings.Contains(err.Error(), "malformed HTTP response"):
		return "its answer does not start with an HTTP status line"
	case strings.Contains(err.Error(), "bad Content-Length"):
		return "its answer's Content-Length is not a number of bytes"
	case strings.Contains(err.Error(), "missing colon"):
		return "its answer holds a header line without a colon"
	case strings.Contains(err.Error(), "response headers exceeded"):
		return fmt.Sprintf("its answer's headers are larger than the proxy reads (%d MiB)", maxAnswerHeader>>20)
	case strings.Contains(err.Error(), "chunk"):
		return "its answer's chunked transfer encoding is broken"
	case strings.Contains(err.Error(), "use of closed network connection"):
		return "the connection to it was closed while its answer was read"
	case strings.Contains(err.Error(), "malformed"):
		return malformedAnswer(err.Error())
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.ECONNRESET):
		return "it closed the connection without an answer"
	case errors.As(err, &op) && op.Timeout(), errors.Is(err, context.DeadlineExceeded):
		return "it did not answer in time"
	}
	return lastPart(err)
}

// malformedAnswer words an answer that is not well-formed HTTP without quoting what the upstream
// sent: the line Go's error quotes may hold a credential (a Set-Cookie with a stray CR, a token
// with a NUL), so only a header's name is named, when it is one.
func malformedAnswer(msg string) string {
	const line = "malformed MIME header line: "
	if i := strings.Index(msg, line); i >= 0 {
		text, err := strconv.Unquote(msg[i+len(line):])
		name, _, found := strings.Cut(text, ":")
		if err == nil && found && len(name) <= 64 && httpguts.ValidHeaderFieldName(name) {
			return "its answer's " + name + " header holds a character a header value may not (a bare CR, a NUL or another control character)"
		}
		return "its answer holds a header line that is not well-formed"
	}
	msg = lastPart(errors.New(msg))
	if i := strings.IndexByte(msg, '"'); i >= 0 {
		msg = strings.TrimSpace(msg[:i])
	}
	if msg == "" {
		return "its answer is not well-formed HTTP"
	}
	return "its answer is not well-formed HTTP (" + msg + ")"
}

// bodyProblem words why a client's request body could not be read.
func bodyProblem(err error) string {
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "it ended before the length it announced"
	case strings.Contains(err.Error(), "chunk"):
		return "its chunked transfer encoding is broken"
	}
	return lastPart(err)
}

// lastPart is the last clause of a wrapped error's text ("net/http: HTTP/1.x transport
// connection broken: malformed MIME header line" → "malformed MIME header line").
func lastPart(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		return msg[i+2:]
	}
	return msg
}

// connectHint says what to check when the upstream could not be reached at all, by the kind of
// failure ("" when it is none of these).
func connectHint(err error, upstream *url.URL) string {
	var dns *net.DNSError
	var record tls.RecordHeaderError
	switch {
	case errors.As(err, &dns):
		return fmt.Sprintf(" The host name %q does not resolve: check --upstream.", upstream.Hostname())
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Sprintf(" Nothing listens at %s: is the deployment running, and is the port in --upstream right?", upstream.Host)
	case errors.As(err, &record) && upstream.Scheme == "https":
		return " The upstream answers plain HTTP, not TLS: use http:// in --upstream."
	}
	return ""
}
