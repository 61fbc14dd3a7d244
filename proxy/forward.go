package proxy

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/opsapi/mocktoolkit/conformance/rules"
	"github.com/opsapi/mocktoolkit/internal/answerbound"
	"github.com/opsapi/mocktoolkit/internal/certerr"
	"github.com/opsapi/mocktoolkit/internal/inflight"
	"github.com/opsapi/mocktoolkit/internal/jsonnest"
	"github.com/opsapi/mocktoolkit/internal/redact"
	"github.com/opsapi/mocktoolkit/spec"
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

// maxBodiesHeld bounds the request bytes the proxy reads ahead for checking at once, over every
// exchange (D216), as maxHeldAnswers bounds the answers'.
const maxBodiesHeld = 64 << 20

// maxHeldAnswers bounds the answer bytes the proxy holds for checking at once, over every
// exchange: past it an answer streams through unjudged (counted in bodies_unjudged), so a burst
// of large answers to slow clients cannot take the proxy to gigabytes.
const maxHeldAnswers = 64 << 20

// largeAnswer is the size past which an answer is judged one at a time (Proxy.largeChecks): the
// size past which the proxy's own pages count against the bytes being written, one "large"
// for the whole proxy.
const largeAnswer = answerbound.Large

// reserveAnswer takes n bytes of the budget of answers held for checking, or reports false,
// taking nothing, when they would pass maxHeldAnswers: reserved before the read, so that many
// answers arriving at once cannot each see room and all be read.
func (p *Proxy) reserveAnswer(n int64) bool {
	for {
		held := p.heldAnswers.Load()
		if held+n > maxHeldAnswers {
			return false
		}
		if p.heldAnswers.CompareAndSwap(held, held+n) {
			return true
		}
	}
}

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
			w.Header().Set("Connection", "close") // the body is still on the connection
			writeJSON(w, http.StatusServiceUnavailable, map[string]any{"error": true, "message": fmt.Sprintf("The proxy is receiving more request bodies at once than it holds (%d MiB in all); try again in a moment. The request was not forwarded.", maxBodiesHeld>>20), "data": []any{}})
			return
		}
		defer held.Release()
		ex.reqBody, r.Body, ex.reqWhole, err = readAhead(r.Body, p.maxBody, r.ContentLength)
		if errors.Is(err, inflight.ErrGaveWay) { // cut short for another client (D216)
			w.Header().Set("Connection", "close")
			writeJSON(w, http.StatusRequestTimeout, map[string]any{"error": true, "message": "The request body arrived too slowly while other requests waited for room, and was not read whole; the request was not forwarded. Send it again.", "data": []any{}})
			return
		}
		if err != nil {
			ex.note("the request body could not be read: " + err.Error())
		}
	}
	ctx, cancel := context.WithCancelCause(context.WithValue(r.Context(), exchangeKey{}, ex))
	defer cancel(nil)
	ex.abort = cancel
	// Deferred: ReverseProxy panics (http.ErrAbortHandler) when the client went away mid-copy,
	// and the bytes it held must be given back then too.
	defer func() { p.heldAnswers.Add(-ex.held) }()
	p.rp.ServeHTTP(ownInterim{w}, r.WithContext(ctx))
}

// ownInterim keeps an upstream's X-Contract-Violations and hop-by-hop headers out of the 1xx
// answers (103 Early Hints) ReverseProxy relays: the verdict is the proxy's own (D140).
type ownInterim struct{ http.ResponseWriter }

func (w ownInterim) WriteHeader(code int) {
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

// hopByHop are the headers of one connection (RFC 9110 7.6.1), never relayed in an interim
// answer; ReverseProxy drops them from final answers itself.
var hopByHop = []string{"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate", "Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade"}

// Unwrap lets http.ResponseController reach the connection (flushes, protocol switches).
func (w ownInterim) Unwrap() http.ResponseWriter { return w.ResponseWriter }

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

// inspect is ModifyResponse: it judges the answer (judge), then settles which of the upstream's
// trailers the client gets (relayTrailers).
func (p *Proxy) inspect(resp *http.Response) error {
	declared := slices.Collect(maps.Keys(resp.Trailer)) // the upstream's Trailer header, no value in yet
	if err := p.judge(resp); err != nil {
		return err
	}
	if resp.StatusCode != http.StatusSwitchingProtocols { // its body is the switched connection
		relayTrailers(resp, declared)
	}
	return nil
}

// judge reads ahead up to maxAnswer bytes of the answer, checks the exchange and adds
// X-Contract-Violations; the body then streams on unchanged.
func (p *Proxy) judge(resp *http.Response) error {
	ex, _ := resp.Request.Context().Value(exchangeKey{}).(*exchange)
	if ex == nil {
		return nil
	}
	ex.body.closeUnlessWhole(ex.answerHeader)
	if resp.StatusCode < 100 { // Go's transport reads "099"; net/http cannot write it (it panics)
		return fmt.Errorf("it answered status %03d, which HTTP does not have", resp.StatusCode)
	}
	resp.Header.Del(HeaderViolations) // the proxy's own verdict only (D140), in trailers too (relayTrailers)
	if resp.StatusCode == http.StatusSwitchingProtocols {
		// An operation's request never asks for a switch (its Upgrade is not forwarded);
		// ReverseProxy refuses a switch nobody asked for after this hook, so it is refused here,
		// once, as the failed exchange it is.
		asked := resp.Request.Header.Get("Upgrade")
		if got := resp.Header.Get("Upgrade"); asked == "" || !strings.EqualFold(asked, got) {
			if asked == "" && ex.op != nil {
				return fmt.Errorf("it switched protocols to %q, which the request it was sent did not ask for (the proxy forwards no Upgrade on the API's operations, which are plain JSON over HTTP)", clipText(got, 100))
			}
			return fmt.Errorf("it switched protocols to %q, which the request did not ask for", clipText(got, 100))
		}
	}
	ex.status, ex.respHeader = resp.StatusCode, resp.Header.Clone()
	if loopRefusal(resp) {
		// Another proxy of this toolkit refused the request as looped (A → B → A): the answer
		// is that proxy's, not the deployment's, and is passed on unjudged (D140).
		ex.note("the upstream is a proxy that refused the request as looped back to it: its answer is passed on unjudged")
		p.record(ex)
		return nil
	}
	if ex.op == nil {
		why := "not a POST of one of the 24 operations"
		switch {
		case resp.StatusCode == http.StatusSwitchingProtocols:
			why = "a protocol switch"
		case strings.HasPrefix(ex.path, "/__worlds/"):
			why += " (a mock world's prefix: name the world in --upstream, or send X-Mock-World, to have its exchanges checked)"
		}
		ex.note(why + ": forwarded unchecked, bodies not kept")
		if resetsCounts(ex.method, ex.path, resp.StatusCode) {
			p.forgetCounts()
			ex.note("a mock's control that replaces its records or moves its clock: what the proxy counted of each caller's lists and rate windows is forgotten")
		}
		p.record(ex)
		return nil
	}
	want := p.maxAnswer + 1 // what readAhead may hold: reserved before a byte is read
	if resp.ContentLength >= 0 {
		want = min(want, resp.ContentLength+1)
	}
	if !p.reserveAnswer(want) {
		ex.note(fmt.Sprintf("answer body passed through unjudged: the answers being checked already hold the proxy's %d MiB for them", maxHeldAnswers>>20))
		ex.violations = p.check(resp.Request.Context(), ex) // status and headers: the body is not whole
		setVerdict(resp.Header, ex.violations)
		resp.Body = p.streamOn(resp, ex, p.record(ex), 0)
		return nil
	}
	late := time.AfterFunc(p.bodyTimeout, func() { ex.abort(slowAnswer{p.bodyTimeout}) })
	ex.held = want // given back when the exchange is over (forward)
	raw, body, whole, err := readAhead(resp.Body, p.maxAnswer, resp.ContentLength)
	p.heldAnswers.Add(int64(cap(raw)) - want)
	ex.held = int64(cap(raw))
	resp.Body = body
	if !late.Stop() { // the answer is cut off: the client gets the 502 of upstreamFailed
		return context.Cause(resp.Request.Context())
	}
	var cutShort []Violation
	switch {
	case err != nil && errors.Is(context.Cause(resp.Request.Context()), ErrStopping):
		// The proxy stopped while the body came in, its verdict header not yet written: the
		// client gets the 502 saying so (upstreamFailed), not a truncated answer with no verdict.
		return ErrStopping
	case err != nil && resp.Request.Context().Err() == nil && len(raw) == 0:
		// Not a byte of the body came: the client would get an empty reply, neither status nor
		// verdict, so it gets the 502 of UP-1 that a missing answer gets (upstreamFailed).
		return fmt.Errorf("the answer's body broke off before its first byte: %s", transferProblem(err))
	case err != nil && resp.Request.Context().Err() == nil:
		// The deployment's answer is not whole; the client gets the same broken transfer, its
		// status line and verdict first (each chunk is flushed as it is written).
		why := fmt.Sprintf("the answer body broke off after %d bytes: %s", len(raw), transferProblem(err))
		ex.note(why)
		cutShort, ex.noWholeAnswer = []Violation{violation(rules.UP1, why)}, true
	case err != nil: // the client went away: nobody reads this answer
		ex.note("the answer body was not read to its end: the client went away")
	case !whole:
		ex.note(fmt.Sprintf("answer body over %d bytes: passed through, its fields unchecked", p.maxAnswer))
	}
	ex.respBody = raw
	if whole {
		decoded, why, broken := decodeBody(resp.Header, raw, p.maxAnswer)
		ex.respBody, ex.respWhole = decoded, why == ""
		switch {
		case broken:
			ex.respBody = raw
			cutShort, ex.noWholeAnswer = []Violation{violation(rules.UP1, why)}, true
		case why != "":
			ex.respBody = raw
			ex.note(why)
		case len(decoded) > 2*spec.MaxDepth && jsonnest.Nesting(decoded) > spec.MaxDepth:
			// Valid JSON, perhaps, but past what any JSON reader reads: judged by its upper
			// levels, where every field of the interface lies, so that nesting cannot hide a
			// wrong answer; the client gets the body as it came.
			ex.respBody = jsonnest.Prune(decoded, prunedDepth)
			ex.note(fmt.Sprintf("answer body nests deeper than %d levels: judged with what lies below %d levels read as null", spec.MaxDepth, prunedDepth))
		}
	}
	switch {
	case ex.routed && notRouted(resp.StatusCode):
		ex.note(fmt.Sprintf("the upstream answered %d: it does not route this path to the operation, so the answer is not judged as the operation's", resp.StatusCode))
		ex.violations, ex.unrouted = cutShort, len(cutShort) == 0
	case len(ex.respBody) > largeAnswer:
		// Judging a large answer takes several times its size in decoded values: one at a time.
		select {
		case p.largeChecks <- struct{}{}:
			ex.violations = append(p.check(resp.Request.Context(), ex), cutShort...)
			<-p.largeChecks
		case <-resp.Request.Context().Done(): // the client went away: nobody reads the verdict
			ex.note("the client went away before its answer was judged: not judged")
			ex.respWhole = false
		}
	default:
		ex.violations = append(p.check(resp.Request.Context(), ex), cutShort...)
	}
	setVerdict(resp.Header, ex.violations)
	id := p.record(ex)
	if !whole && err == nil { // the rest streams through
		resp.Body = p.streamOn(resp, ex, id, int64(len(raw)))
	}
	return nil
}

// streamOn is resp's body, which streams to the client past what the proxy read ahead (read
// bytes) after the exchange was journaled as id: a body that then breaks off is the
// deployment's UP-1 as a shorter one is, in the journal and the reports, though the verdict
// header went out before it (D95).
func (p *Proxy) streamOn(resp *http.Response, ex *exchange, id, read int64) io.ReadCloser {
	return &streamedBody{ReadCloser: resp.Body, read: read, broke: func(err error, read int64) {
		if resp.Request.Context().Err() != nil {
			return // the client went away: nobody reads this answer
		}
		p.brokeLate(id, ex, fmt.Sprintf("the answer body broke off after %d bytes: %s", read, transferProblem(err)))
	}}
}

// streamedBody calls broke once, with the bytes read, when a read fails other than at the
// body's end.
type streamedBody struct {
	io.ReadCloser
	read  int64
	once  sync.Once
	broke func(err error, read int64)
}

func (b *streamedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.read += int64(n)
	if err != nil && !errors.Is(err, io.EOF) {
		b.once.Do(func() { b.broke(err, b.read) })
	}
	return n, err
}

// setVerdict puts the rule ids of vs in the answer's X-Contract-Violations. When the upstream
// answers a browser's cross-origin request (Access-Control-Allow-Origin), the header is added to
// Access-Control-Expose-Headers too: a page's script could not read the verdict otherwise (D94).
func setVerdict(h http.Header, vs []Violation) {
	ids := ruleIDs(vs)
	if len(ids) == 0 {
		return
	}
	h.Set(HeaderViolations, strings.Join(ids, ","))
	if h.Get("Access-Control-Allow-Origin") == "" {
		return
	}
	for _, v := range h.Values("Access-Control-Expose-Headers") {
		for _, name := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(name), HeaderViolations) {
				return
			}
		}
	}
	h.Add("Access-Control-Expose-Headers", HeaderViolations)
}

// prunedDepth is how deep an answer nested past spec.MaxDepth is judged: far below every field
// the interface describes, far above what a decoder refuses.
const prunedDepth = 256

// resetsCounts tells whether a forwarded request is a mock's control, answered with success,
// that replaced its records (a reset, a loaded snapshot, a deleted world) or moved its clock
// (and with it the rate windows): the counts the tracker keeps for LIST-1, COMMENT-1 and
// LIMIT-1 no longer hold (D123).
func resetsCounts(method, path string, status int) bool {
	if status < 200 || status > 299 || !strings.Contains(path, "/__mock/") {
		return false
	}
	switch {
	case method == http.MethodPost && strings.HasSuffix(path, "/__mock/reset"),
		method == http.MethodPut && strings.HasSuffix(path, "/__mock/state"),
		method == http.MethodDelete && strings.HasSuffix(path, "/__mock/worlds"),
		method == http.MethodPost && strings.HasSuffix(path, "/__mock/clock"),
		method == http.MethodDelete && strings.HasSuffix(path, "/__mock/clock"):
		return true
	}
	return false
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
	upstreamsFault := clientStayed && status == http.StatusBadGateway
	body, _ := json.Marshal(map[string]any{"error": true, "message": msg, "data": []any{}})
	if ex != nil {
		ex.status, ex.respBody, ex.respWhole, ex.noWholeAnswer = status, body, true, true
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
		return "its answer's headers are larger than the proxy reads (1 MiB)"
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
