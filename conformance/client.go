package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/opsapi/mocktoolkit/conformance/check"
	"github.com/opsapi/mocktoolkit/conformance/rules"
	"github.com/opsapi/mocktoolkit/internal/jsonone"
	"github.com/opsapi/mocktoolkit/proxy"
	"github.com/opsapi/mocktoolkit/spec"
)

// Intent says what the suite means a request to be, so the client can check that the request it
// sends is that: a valid request must pass the spec's request validation, an invalid one must fail
// it. Raw requests (malformed JSON, say) are not checked.
type Intent int

const (
	// Valid requests pass the spec's request validation.
	Valid Intent = iota
	// Invalid requests break one field constraint on purpose.
	Invalid
	// Raw requests are sent as they are, unchecked.
	Raw
)

// BadToken is the bearer token the auth specs send as an invalid one.
const BadToken = "conformance-invalid-token-0000000000000000000000000000000000000000"

// Request is one call the suite means to make.
type Request struct {
	Op Operation
	// As names who calls (member, superadmin, outsider, fresh member, ...) for the failure
	// message; the token itself is never printed.
	As string
	// Token is sent as `Authorization: Bearer <Token>` when not empty.
	Token string
	// Authorization, when not empty, is sent as the Authorization header as it is, instead of
	// Token (the auth-form probes: a token without its scheme, another scheme).
	Authorization string
	// Body is encoded as the JSON body; nil sends {}.
	Body any
	// RawBody, when not nil, is sent as is instead of Body.
	RawBody []byte
	// Intent says whether the request is meant to pass the spec's request validation.
	Intent Intent
	// NoRetry hands a 429 to the spec instead of waiting Retry-After and retrying (rate-limit
	// specs, where the 429 is the answer under test).
	NoRetry bool
	// Constraint names the field constraint the request breaks (Intent Invalid) or probes at its
	// bound (e.g. "title maxLength"), for the report's coverage; "" for none.
	Constraint string
	// Header replaces the default Content-Type and Accept when set (a replayed flow's, D171);
	// one set to "" is not sent.
	Header http.Header
}

// Exchange is a request sent and the answer received, kept for assertions and failure messages.
type Exchange struct {
	Op        Operation
	As        string
	URL       string
	ReqHeader http.Header
	ReqBody   []byte
	Status    int
	Header    http.Header
	Body      []byte
	// BodyPartial says Body is only the first maxAnswer bytes of a larger answer: its shape is
	// not judged, as the proxy leaves an answer past its own bound unjudged.
	BodyPartial bool
	undecoded   string         // the Content-Encoding the body came in, when the suite cannot decode it (BodyPartial too)
	pruned      bool           // Body nested past what JSON readers read: what lies deep is null (check.Readable)
	JSON        map[string]any // nil unless the body is a JSON object
	JSONErr     error          // why JSON is nil
	RequestErr  error          // the request is not what the suite meant to send (a suite bug)
	// Violations are the rules the answer breaks as the one contract checker judges it
	// (package conformance/check): the deployment's only, since the suite breaks field rules
	// on purpose.
	Violations []check.Violation
	Retries    int // 429 answers waited out before this one
	// LongRetry is set when a 429 asked to wait longer than the client's bound, or when the
	// waits of its retries (Waited) would pass it: the last Retry-After asked.
	LongRetry time.Duration
	// Waited is how long the client waited out 429s before this answer.
	Waited time.Duration
	// Latency is how long the last attempt took, from sending to the end of the answer.
	Latency time.Duration
}

// Resend is the request ex answered, to send once more as it was sent: its operation, caller,
// Authorization header and body (an explore regression reads a list again until it shows a
// write).
func (ex *Exchange) Resend() Request {
	return Request{Op: ex.Op, As: ex.As, Authorization: ex.ReqHeader.Get("Authorization"), RawBody: ex.ReqBody}
}

// StatusListed reports whether the answer's status is one the operation lists (STATUS-1, as
// the checker judges it).
func (ex *Exchange) StatusListed() bool { return len(ex.Broken(rules.STATUS1)) == 0 }

// Broken returns the violations of rule id.
func (ex *Exchange) Broken(id rules.ID) []check.Violation {
	var out []check.Violation
	for _, v := range ex.Violations {
		if v.Rule == id {
			out = append(out, v)
		}
	}
	return out
}

// Client sends requests to the deployment under test and validates each request it sends and
// each answer it gets against the OpenAPI document of package spec.
type Client struct {
	base     string
	hc       *http.Client
	retryMax time.Duration
	// Retrying, when set, is told of each 429 waited out: the operation and the wait.
	Retrying func(op string, wait time.Duration)
	// Recorder counts every exchange the client makes (each attempt of a retried request).
	Recorder Recorder
	// unanswered counts the requests in a row that got no answer: none within the timeout, or
	// the connection refused.
	unanswered atomic.Int64
	// sent counts every request sent to the deployment (each attempt).
	sent atomic.Int64
	// refused follows whether the deployment answered anything but 429 (refusals.go).
	refused refusals
	// logins are the login leases of a one-process run; loginHost, when set, is the parallel
	// run's coordinator that holds them instead (logins.go).
	logins    loginTable
	loginHost string
}

// Unanswered is how many requests in a row got no answer within the client's timeout or had
// their connection refused (any answer starts the count again): a deployment whose operations
// hang would otherwise cost every spec the whole timeout, and one that went down would fail
// every spec left with "connection refused".
func (c *Client) Unanswered() int64 { return c.unanswered.Load() }

// Sent is how many requests the client has sent to the deployment, each attempt of a retried
// one counted: the suite's LIMIT-1 specs bound what a rate limiter may have counted since a
// pause by it.
func (c *Client) Sent() int64 { return c.sent.Load() }

// NewClient returns a client of the deployment at base.
func NewClient(ctx context.Context, base string, cfg Config) (*Client, error) {
	if _, err := spec.Load(ctx); err != nil {
		return nil, fmt.Errorf("new client: %w", err)
	}
	return &Client{
		base:     strings.TrimRight(base, "/"),
		hc:       &http.Client{Timeout: cfg.Timeout, Transport: keepAlive(cfg.RateSenders), CheckRedirect: keepRedirect},
		retryMax: cfg.RetryMax,
	}, nil
}

// BaseURL is the base URL of the deployment under test.
func (c *Client) BaseURL() string { return c.base }

// Send makes the call r describes. On a 429 it waits Retry-After and tries again (while the waits at
// most) unless r.NoRetry is set or the wait is longer than the client's bound (then the 429 is
// returned with LongRetry set). The error is a transport failure or a suite bug; answers of any
// status are returned as an Exchange.
func (c *Client) Send(ctx context.Context, r Request) (*Exchange, error) {
	body, err := r.encoded()
	if err != nil {
		return nil, err
	}
	ex := &Exchange{Op: r.Op, As: r.As, URL: c.base + r.Op.Path, ReqBody: body}
	// A token sent is a credential the reports scrub wherever an answer quotes it: a
	// deployment echoing the Authorization header in a message put live tokens in the JUnit
	// and JSON reports.
	reportSecrets.Note(r.Token)
	for attempt := 0; ; attempt++ {
		req, err := r.httpRequest(ctx, ex.URL, body)
		if err != nil {
			return nil, err
		}
		ex.ReqHeader = req.Header.Clone()
		if attempt == 0 {
			ex.RequestErr = checkRequest(ctx, r.Op, req.Header, body, r.Intent)
		}
		started := time.Now()
		c.sent.Add(1)
		resp, err := c.hc.Do(req)
		if ue, ok := err.(*url.Error); ok && ctx.Err() == nil && (ue.Timeout() || errors.Is(err, syscall.ECONNREFUSED)) {
			c.unanswered.Add(1) // a deployment that stopped: hanging, or gone (nothing listens)
		}
		record := ExchangeRecord{Op: r.Op.ID, Credential: credentialOf(r.Token, r.Authorization), Intent: r.Intent.String(), Constraint: r.Constraint, NoRetry: r.NoRetry}
		if err != nil {
			c.Recorder.add(record)
			return ex, fmt.Errorf("%s: POST %s: %w", r.Op.ID, ex.URL, err)
		}
		record.Status = resp.StatusCode
		ex.Status, ex.Header = resp.StatusCode, resp.Header
		ex.Body, err = io.ReadAll(io.LimitReader(resp.Body, maxAnswer+1))
		if len(ex.Body) > maxAnswer {
			ex.Body, ex.BodyPartial = ex.Body[:maxAnswer], true
		}
		if enc := undecoded(ex.Header); enc != "" {
			// Go's transport decodes the gzip it asks for; any other coding is bytes the suite
			// cannot read, as the proxy cannot: unjudged, as there (they were judged as JSON).
			ex.BodyPartial, ex.undecoded = true, enc
		}
		if !ex.BodyPartial {
			// Read, judged and shown as the one checker reads it (as the proxy does).
			ex.Body, ex.pruned = check.Readable(ex.Body)
		}
		_ = resp.Body.Close()
		ex.Latency = time.Since(started)
		if err == nil && proxyGotNoAnswer(ex.Status, ex.Header) {
			// The toolkit's proxy in front of the deployment answered for it: no answer came,
			// as a request sent directly would have found (one verdict with or without it).
			c.unanswered.Add(1)
			c.Recorder.add(record)
			var said struct{ Message string }
			_ = json.Unmarshal(ex.Body, &said)
			return ex, fmt.Errorf("%s: POST %s: the validating proxy in front of the deployment got no answer from it (%s)", r.Op.ID, ex.URL, said.Message)
		}
		c.unanswered.Store(0)
		if err != nil {
			c.Recorder.add(record)
			return ex, fmt.Errorf("%s: read answer: %w", r.Op.ID, err)
		}
		wait, ok := RetryAfter(ex.Header)
		// Short waits are retried until they add up to the bound: a token bucket refilling a
		// request a second, shared by four processes, may refuse a few times in a row.
		retry := ex.Status == http.StatusTooManyRequests && !r.NoRetry && ok // a 429 without Retry-After: the specs judge it
		if retry && (wait > c.retryMax || ex.Waited+wait > c.retryMax || attempt >= maxRetries) {
			ex.LongRetry, retry = wait, false
		}
		record.WaitedOut = retry // only a 429 the client waits out slows the run (ThrottleNote)
		c.Recorder.add(record)
		if !retry {
			break
		}
		ex.Waited += wait
		if c.Retrying != nil {
			c.Retrying(r.Op.ID, wait)
		}
		ex.Retries++
		select {
		case <-ctx.Done():
			return ex, ctx.Err()
		case <-time.After(wait):
		}
	}
	if !r.NoRetry {
		c.refused.note(ex)
	}
	ex.decode()
	ex.Violations = check.Deployment(check.Judge(ctx, ex.Checked()))
	return ex, nil
}

// encoded is the request's body as sent: RawBody as it is, else Body (an empty object when
// nil) in JSON.
func (r Request) encoded() ([]byte, error) {
	if r.RawBody != nil {
		return r.RawBody, nil
	}
	v := r.Body
	if v == nil {
		v = map[string]any{}
	}
	body, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode request of %s: %w", r.Op.ID, err)
	}
	return body, nil
}

// httpRequest is one attempt at r: a JSON POST with its credential and its own headers (one
// given as a single empty value is sent without it, as a flow's step may be).
func (r Request) httpRequest(ctx context.Context, target string, body []byte) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.Op.ID, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	switch {
	case r.Authorization != "":
		req.Header.Set("Authorization", r.Authorization)
	case r.Token != "":
		req.Header.Set("Authorization", "Bearer "+r.Token)
	}
	for k, v := range r.Header {
		if len(v) == 1 && v[0] == "" {
			req.Header.Del(k)
			continue
		}
		req.Header[http.CanonicalHeaderKey(k)] = v
	}
	return req, nil
}

// Checked is the exchange as the one contract checker takes it.
func (ex *Exchange) Checked() check.Exchange {
	return check.Exchange{Op: ex.Op.Operation, ReqHeader: ex.ReqHeader, ReqBody: ex.ReqBody, Status: ex.Status, Header: ex.Header, Body: ex.Body, BodyPartial: ex.BodyPartial}
}

// maxAnswer is the most of an answer the client reads: a list of some 50,000 cards, far past
// the proxy's bound (which holds many answers at once; the client holds one per request).
const maxAnswer = 32 << 20

// maxRetries bounds the 429s one request waits out.
const maxRetries = 20

// maxRetryAfter is the longest wait RetryAfter reads: 2^31 seconds, which RFC 9111 (1.2.2) has
// a cache read any larger delta-seconds as. Read as it is, a larger value overflowed into a
// negative or short wait, and the suite retried at once.
const maxRetryAfter = time.Duration(1<<31) * time.Second

// RetryAfter reads a Retry-After header given in seconds.
func RetryAfter(h http.Header) (time.Duration, bool) {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if !check.Digits(v) {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n > int64(maxRetryAfter/time.Second) { // digits past int64 are a range error
		return maxRetryAfter, true
	}
	return time.Duration(n) * time.Second, true
}

// decode reads the answer's JSON, numbers as json.Number: an id past 2^53 keeps its digits
// (the interface bounds no id), so the suite sends back the very id it was given.
func (ex *Exchange) decode() {
	switch {
	case ex.undecoded != "":
		ex.JSONErr = fmt.Errorf("the answer is in Content-Encoding %q, which the suite did not ask for (it accepts gzip) and does not decode", ex.undecoded)
		return
	case ex.BodyPartial:
		ex.JSONErr = fmt.Errorf("the answer is over %d MiB: the suite read only its start", maxAnswer>>20)
		return
	}
	v, err := jsonone.Decode(ex.Body)
	if err != nil {
		ex.JSONErr = fmt.Errorf("the body is not JSON: %w", err)
		return
	}
	obj, ok := v.(map[string]any)
	if !ok {
		ex.JSONErr = errors.New("the body is not a JSON object")
		return
	}
	ex.JSON = obj
}

// checkRequest says whether the request is what the suite meant (Intent), as the checker's
// REQ-1 judges it.
func checkRequest(ctx context.Context, op Operation, h http.Header, body []byte, intent Intent) error {
	if intent == Raw {
		return nil
	}
	vs, _ := check.Request(ctx, op.Operation, h, body)
	switch {
	case intent == Valid && len(vs) > 0:
		return fmt.Errorf("the suite meant a valid request, but the spec rejects it: %s", vs[0].Detail)
	case intent == Invalid && len(vs) == 0:
		return errors.New("the suite meant an invalid request, but the spec accepts it")
	}
	return nil
}

// proxyGotNoAnswer tells the toolkit's proxy's own 502, sent when the deployment behind it gave
// no answer (rule UP-1 in its verdict header), from the deployment's answers: the suite takes it
// as the request that got no answer it is when sent directly, so a run through the proxy gives
// the verdict a run without it gives (it failed such specs for STATUS-1 and HDR-1, and a
// deployment gone down never ended the run).
func proxyGotNoAnswer(status int, h http.Header) bool {
	if status != http.StatusBadGateway {
		return false
	}
	for _, id := range strings.Split(h.Get(proxy.HeaderViolations), ",") {
		if strings.TrimSpace(id) == string(rules.UP1) {
			return true
		}
	}
	return false
}

// undecoded is the content coding of an answer the suite cannot read ("" for none): any but
// identity, since the transport decodes the gzip it asks for and drops the header.
func undecoded(h http.Header) string {
	var real []string
	for _, v := range h.Values("Content-Encoding") {
		for c := range strings.SplitSeq(v, ",") {
			if c = strings.TrimSpace(c); c != "" && !strings.EqualFold(c, "identity") {
				real = append(real, c)
			}
		}
	}
	return strings.Join(real, ", ")
}
