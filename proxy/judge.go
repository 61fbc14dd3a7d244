package proxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/opsapi/mocktoolkit/conformance/check"
	"github.com/opsapi/mocktoolkit/conformance/rules"
	"github.com/opsapi/mocktoolkit/internal/prefer"
	"github.com/opsapi/mocktoolkit/spec"
)

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
	if resp.StatusCode != http.StatusSwitchingProtocols { // its body is the switched connection
		resp.Body = &longTrailers{ReadCloser: resp.Body, ex: ex}
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
	if len(ex.hopDropped) > 0 {
		maps.Copy(ex.respHeader, ex.hopDropped)
		ex.note(fmt.Sprintf("the upstream named %s in its Connection header, so the proxy did not forward them (headers of one connection); the answer is judged as the upstream sent it", strings.Join(slices.Sorted(maps.Keys(ex.hopDropped)), ", ")))
	}
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
		if resetsCounts(ex.method, ex.path, resp) {
			p.forgetCounts()
			ex.note("a mock's control that replaces its records or moves its clock: what the proxy counted of each caller's lists and rate windows is forgotten")
		}
		p.record(ex)
		return nil
	}
	return p.judgeAnswer(resp, ex)
}

// judgeAnswer reads an operation's answer ahead, as far as the proxy's bounds let it, judges
// it, and sets the verdict; the rest of a body past the bounds streams through.
func (p *Proxy) judgeAnswer(resp *http.Response, ex *exchange) error {
	late := time.AfterFunc(p.bodyTimeout, func() { ex.abort(slowAnswer{p.bodyTimeout}) })
	full := false // the held answers had no room for the rest of this one
	grant := func(n int64) bool {
		if !p.reserveAnswer(n) {
			full = true
			return false
		}
		ex.held += n // given back when the exchange is over (forward)
		return true
	}
	raw, body, whole, err := readAhead(resp.Body, p.maxAnswer, resp.ContentLength, grant)
	resp.Body = body
	if !late.Stop() { // the answer is cut off: the client gets the 502 of upstreamFailed
		return context.Cause(resp.Request.Context())
	}
	cutShort, fail := p.readOutcome(resp.Request.Context(), ex, len(raw), whole, full, err)
	if fail != nil {
		return fail
	}
	ex.respBody = raw
	if whole {
		if broken := ex.decodeAnswer(ex.respHeader, raw, p.maxAnswer); broken != nil {
			cutShort = broken
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

// readOutcome words how reading n bytes of an answer ahead ended (err, whole): a failure the
// client gets as a 502 (fail), or the UP-1 of a body that broke off, or only a note.
func (p *Proxy) readOutcome(ctx context.Context, ex *exchange, n int, whole, full bool, err error) (cutShort []Violation, fail error) {
	switch {
	case err != nil && errors.Is(context.Cause(ctx), ErrStopping):
		// The proxy stopped while the body came in, its verdict header not yet written: the
		// client gets the 502 saying so (upstreamFailed), not a truncated answer with no verdict.
		return nil, ErrStopping
	case err != nil && ctx.Err() == nil && n == 0:
		// Not a byte of the body came: the client would get an empty reply, neither status nor
		// verdict, so it gets the 502 of UP-1 that a missing answer gets (upstreamFailed).
		return nil, fmt.Errorf("the answer's body broke off before its first byte: %s", transferProblem(err))
	case err != nil && ctx.Err() == nil:
		// The deployment's answer is not whole; the client gets the same broken transfer, its
		// status line and verdict first (each chunk is flushed as it is written).
		why := fmt.Sprintf("the answer body broke off after %d bytes: %s", n, transferProblem(err))
		ex.note(why)
		ex.noWholeAnswer = true
		return []Violation{violation(rules.UP1, why)}, nil
	case err != nil: // the client went away: nobody reads this answer
		ex.note("the answer body was not read to its end: the client went away")
	case !whole && full:
		ex.note(fmt.Sprintf("answer body passed through unjudged after %d bytes: the answers being checked at once already hold the proxy's %d MiB for them", n, maxHeldAnswers>>20))
	case !whole:
		ex.note(fmt.Sprintf("answer body over %d bytes: passed through, its fields unchecked", p.maxAnswer))
	}
	return nil, nil
}

// decodeAnswer decodes a whole answer body for judging (gzip) into ex.respBody: kept as it came
// when it cannot be decoded (UP-1, returned, when it breaks the encoding it claims), and pruned
// when its JSON nests past what any reader reads.
func (ex *exchange) decodeAnswer(header http.Header, raw []byte, maxAnswer int64) []Violation {
	decoded, why, broken := decodeBody(header, raw, maxAnswer)
	ex.respBody, ex.respWhole = decoded, why == ""
	switch {
	case broken:
		ex.respBody, ex.noWholeAnswer = raw, true
		return []Violation{violation(rules.UP1, why)}
	case why != "":
		ex.respBody = raw
		ex.note(why)
	default:
		// The client gets the body as it came; the journal and the checks keep what the
		// checker reads.
		if readable, cut := check.Readable(decoded); cut {
			ex.respBody = readable
			ex.note(fmt.Sprintf("answer body nests deeper than %d levels: judged with what lies below %d levels read as null", spec.MaxDepth, check.PrunedDepth))
		}
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

// resetsCounts tells whether a forwarded request is a mock's control, answered with success,
// that replaced its records (a reset, a loaded snapshot, a deleted world) or moved its clock
// (and with it the rate windows): the counts the tracker keeps for LIST-1, COMMENT-1 and
// LIMIT-1 no longer hold (D123). The answer must carry the mark the mock sets on those
// controls (prefer.WorldBuild): a deployment answering 2xx to every path is not reset.
func resetsCounts(method, path string, resp *http.Response) bool {
	what, _ := rebuildingControl(method, path)
	return what != "" && resp.StatusCode >= 200 && resp.StatusCode <= 299 && resp.Header.Get(prefer.WorldBuild) != ""
}

// rebuildingControl names the mock's control a request is when it replaces a world's records
// (records is set: a reset, a loaded snapshot, a deleted world) or moves its clock, in any
// world; "" for any other request.
func rebuildingControl(method, path string) (what string, records bool) {
	switch {
	case !strings.Contains(path, "/__mock/"):
		return "", false
	case method == http.MethodPost && strings.HasSuffix(path, "/__mock/reset"):
		return "a reset", true
	case method == http.MethodPut && strings.HasSuffix(path, "/__mock/state"):
		return "a snapshot loaded", true
	case method == http.MethodDelete && strings.HasSuffix(path, "/__mock/worlds"):
		return "the world deleted", true
	case (method == http.MethodPost || method == http.MethodDelete) && strings.HasSuffix(path, "/__mock/clock"):
		return "the clock moved", false
	}
	return "", false
}
