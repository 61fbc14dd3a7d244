package proxy

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/opsapi/mocktoolkit/conformance/check"
	"github.com/opsapi/mocktoolkit/conformance/rules"
	"github.com/opsapi/mocktoolkit/internal/prefer"
	"github.com/opsapi/mocktoolkit/internal/text"
	"github.com/opsapi/mocktoolkit/spec"
)

// check judges one exchange of an operation through the one contract checker (package
// conformance/check), as the suite and explore mode do, and with the caller's earlier
// exchanges through the checker's tracker; it returns the violations in the registry's order.
func (p *Proxy) check(ctx context.Context, ex *exchange) []Violation {
	if ex.op == nil {
		return nil
	}
	if !ex.reqWhole {
		ex.note(fmt.Sprintf("request body over %d bytes: its fields were not checked", p.maxBody))
	}
	reqBody, reqWhole := ex.reqBody, ex.reqWhole
	if reqWhole { // a compressed request is judged by the JSON it carries, as an answer is
		decoded, why, _ := decodeBody(ex.reqHeader, reqBody, p.maxBody)
		if why != "" {
			// decodeBody words it for an answer: the same reasons, said of the request
			ex.note("request body not checked: " + strings.Replace(why, "answer", "request", 1))
			reqWhole = false
		} else {
			reqBody = decoded
			if codings(ex.reqHeader.Get("Content-Encoding")) != "" {
				ex.reqPlain = decoded
			}
		}
	}
	ex.reqJudged = reqWhole
	one := check.Exchange{
		Op: *ex.op, ReqHeader: ex.reqHeader, ReqBody: reqBody, ReqPartial: !reqWhole,
		Status: ex.status, Header: ex.respHeader, Body: ex.respBody, BodyPartial: !ex.respWhole,
	}
	vs := check.Judge(ctx, one)
	if why := notJSON(ex.reqHeader, ex.reqBody); why != "" {
		vs = append(vs, check.Violation{Rule: rules.REQ1, Detail: why})
	}
	// Rules that span a caller's exchanges (LIMIT-1, LIST-1, COMMENT-1), by its bearer token.
	tr := p.trackerOf(ex.reqHeader)
	if tr != p.tracker || p.upstreamWorld() { // a mock's world named by X-Mock-World or by --upstream: the mock says when it rebuilt it
		tr.Rebuilt(ex.respHeader.Get(prefer.WorldBuild))
	}
	vs = check.Ordered(append(vs, tr.Judge(check.CallerKey(ex.reqHeader), one, ex.start, time.Now())...))
	out := make([]Violation, len(vs))
	for i, v := range vs {
		out[i] = violation(v.Rule, v.Detail)
		out[i].Operation = v.Op
	}
	return out
}

// notJSON says why a request with a body is not sent as JSON, or "": the interface's operations
// take JSON bodies, and a client that sends one as text/plain (fetch with a string body and no
// headers does) is refused by a deployment that reads the header, the mock among them (D6).
// The fields are still judged as JSON (D91).
func notJSON(h http.Header, body []byte) string {
	if len(bytes.TrimSpace(body)) == 0 {
		return ""
	}
	ct := h.Get("Content-Type")
	switch t, charset := spec.RequestBodyType(h); t {
	case spec.BodyUntyped:
		return "the request has a body but no Content-Type: send it as application/json"
	case spec.BodyTwoTypes:
		return "the request carries more than one Content-Type header: servers disagree on which counts; send one, application/json"
	case spec.BodyNotJSON:
		return fmt.Sprintf("the request's Content-Type is %q, not application/json", text.Clip(ct, 80))
	case spec.BodyOtherCharset:
		return fmt.Sprintf("the request's Content-Type names the charset %q: a JSON body is sent in UTF-8", text.Clip(charset, 40))
	}
	return ""
}

// ruleIDs lists the distinct rule ids of vs, in order: the value of X-Contract-Violations.
func ruleIDs(vs []Violation) []string {
	var ids []string
	seen := map[rules.ID]bool{}
	for _, v := range vs {
		if !seen[v.Rule] {
			seen[v.Rule] = true
			ids = append(ids, string(v.Rule))
		}
	}
	return ids
}

// upstreamWorld tells an --upstream that names a mock's world (http://mock/__worlds/<name>):
// its answers are a mock's, and their X-Mock-World-Build is taken as a world's named by
// X-Mock-World is (D123).
func (p *Proxy) upstreamWorld() bool {
	return strings.HasPrefix(p.upstream.Path, "/__worlds/")
}

// maxTrackedWorlds bounds the mock worlds tracked apart; past it they are all forgotten (a
// client naming thousands of worlds costs the checks of spanning rules, not memory).
const maxTrackedWorlds = 256

// trackerOf is the tracker of the world the request names: the deployment's own, or one per
// mock world named by X-Mock-World.
func (p *Proxy) trackerOf(h http.Header) *check.Tracker {
	name := h.Get(check.WorldHeader)
	if name == "" {
		return p.tracker
	}
	p.worldsMu.Lock()
	defer p.worldsMu.Unlock()
	t, ok := p.worlds[name]
	if !ok {
		if len(p.worlds) >= maxTrackedWorlds {
			clear(p.worlds)
		}
		t = check.NewTrackerLag(p.listLag)
		p.worlds[name] = t
	}
	return t
}

// listLag is the lag Config.ListLag sets: check.ListSettle for zero, none for a negative one.
func listLag(d time.Duration) time.Duration {
	switch {
	case d == 0:
		return check.ListSettle
	case d < 0:
		return 0
	}
	return d
}

// forgetCounts forgets what every tracker counted: a mock's control replaced records or moved
// a clock (D123).
func (p *Proxy) forgetCounts() {
	p.tracker.Forget()
	p.worldsMu.Lock()
	clear(p.worlds)
	p.worldsMu.Unlock()
}
