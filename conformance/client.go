package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"

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
	// Body is encoded as the JSON body; nil sends {}.
	Body any
	// RawBody, when not nil, is sent as is instead of Body.
	RawBody []byte
	// Intent says whether the request is meant to pass the spec's request validation.
	Intent Intent
	// NoRetry hands a 429 to the spec instead of waiting Retry-After and retrying (rate-limit
	// specs, where the 429 is the answer under test).
	NoRetry bool
}

// Exchange is a request sent and the answer received, kept for assertions and failure messages.
type Exchange struct {
	Op         Operation
	As         string
	URL        string
	ReqHeader  http.Header
	ReqBody    []byte
	Status     int
	Header     http.Header
	Body       []byte
	JSON       map[string]any // nil unless the body is a JSON object
	JSONErr    error          // why JSON is nil
	SpecErr    error          // the answer does not match the OpenAPI document
	RequestErr error          // the request is not what the suite meant to send (a suite bug)
	Retries    int            // 429 answers waited out before this one
	// LongRetry is set when a 429 asked to wait longer than the client's bound.
	LongRetry time.Duration
	// Listed are the statuses the OpenAPI document lists for the operation, sorted.
	Listed []int
	// Latency is how long the last attempt took, from sending to the end of the answer.
	Latency time.Duration
}

// StatusListed reports whether the answer's status is one the operation lists (rule STATUS-1):
// always true where the interface does not show the operation's codes; 413 (a body too large)
// is allowed everywhere.
func (ex *Exchange) StatusListed() bool {
	if !ex.Op.CodesShown() || ex.Status == http.StatusRequestEntityTooLarge {
		return true
	}
	for _, c := range ex.Listed {
		if c == ex.Status {
			return true
		}
	}
	return false
}

// listedStatuses returns the numeric statuses the document lists for the route's operation.
func listedStatuses(route *routers.Route) []int {
	var out []int
	if route.Operation == nil || route.Operation.Responses == nil {
		return out
	}
	for k := range route.Operation.Responses.Map() {
		if n, err := strconv.Atoi(k); err == nil {
			out = append(out, n)
		}
	}
	sort.Ints(out)
	return out
}

// Client sends requests to the deployment under test and validates each request it sends and
// each answer it gets against the OpenAPI document of package spec.
type Client struct {
	base     string
	hc       *http.Client
	doc      *openapi3.T
	retryMax time.Duration
	// Logf, when set, receives one line per 429 waited out.
	Logf func(format string, args ...any)
}

// NewClient returns a client of the deployment at base.
func NewClient(ctx context.Context, base string, cfg Config) (*Client, error) {
	doc, err := spec.Load(ctx)
	if err != nil {
		return nil, fmt.Errorf("new client: %w", err)
	}
	return &Client{
		base:     strings.TrimRight(base, "/"),
		hc:       &http.Client{Timeout: cfg.Timeout},
		doc:      doc,
		retryMax: cfg.RetryMax,
	}, nil
}

// Send makes the call r describes. On a 429 it waits Retry-After and tries again (three times at
// most) unless r.NoRetry is set or the wait is longer than the client's bound (then the 429 is
// returned with LongRetry set). The error is a transport failure or a suite bug; answers of any
// status are returned as an Exchange.
func (c *Client) Send(ctx context.Context, r Request) (*Exchange, error) {
	body := r.RawBody
	if body == nil {
		v := r.Body
		if v == nil {
			v = map[string]any{}
		}
		var err error
		if body, err = json.Marshal(v); err != nil {
			return nil, fmt.Errorf("encode request of %s: %w", r.Op.ID, err)
		}
	}
	route, ok := spec.Route(c.doc, r.Op.Path)
	if !ok {
		return nil, fmt.Errorf("spec has no route for %s (%s)", r.Op.ID, r.Op.Path)
	}
	ex := &Exchange{Op: r.Op, As: r.As, URL: c.base + r.Op.Path, ReqBody: body, Listed: listedStatuses(route)}
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, ex.URL, bytes.NewReader(body))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.Op.ID, err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json")
		if r.Token != "" {
			req.Header.Set("Authorization", "Bearer "+r.Token)
		}
		ex.ReqHeader = req.Header.Clone()
		if attempt == 0 {
			ex.RequestErr = c.checkRequest(ctx, req.Header, body, route, r.Intent)
		}
		started := time.Now()
		resp, err := c.hc.Do(req)
		if err != nil {
			return ex, fmt.Errorf("%s: POST %s: %w", r.Op.ID, ex.URL, err)
		}
		ex.Status, ex.Header = resp.StatusCode, resp.Header
		ex.Body, err = io.ReadAll(io.LimitReader(resp.Body, 8<<20))
		_ = resp.Body.Close()
		ex.Latency = time.Since(started)
		if err != nil {
			return ex, fmt.Errorf("%s: read answer: %w", r.Op.ID, err)
		}
		if ex.Status != http.StatusTooManyRequests || r.NoRetry {
			break
		}
		wait, ok := RetryAfter(ex.Header)
		if !ok {
			break // a 429 without Retry-After: the specs judge it
		}
		if wait > c.retryMax || attempt >= 3 {
			ex.LongRetry = wait
			break
		}
		if c.Logf != nil {
			c.Logf("%s: 429, waiting Retry-After %s before trying again", r.Op.ID, wait)
		}
		ex.Retries++
		select {
		case <-ctx.Done():
			return ex, ctx.Err()
		case <-time.After(wait):
		}
	}
	ex.decode()
	ex.SpecErr = c.checkResponse(ctx, ex, route)
	return ex, nil
}

// RetryAfter reads a Retry-After header given in seconds.
func RetryAfter(h http.Header) (time.Duration, bool) {
	n, err := strconv.Atoi(strings.TrimSpace(h.Get("Retry-After")))
	if err != nil || n < 0 {
		return 0, false
	}
	return time.Duration(n) * time.Second, true
}

func (ex *Exchange) decode() {
	var v any
	if err := json.Unmarshal(ex.Body, &v); err != nil {
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

func (c *Client) validationInput(ctx context.Context, h http.Header, body []byte, route *routers.Route) (*openapi3filter.RequestValidationInput, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://conformance.invalid"+route.Path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header = h.Clone()
	return &openapi3filter.RequestValidationInput{
		Request: req,
		Route:   route,
		Options: &openapi3filter.Options{
			AuthenticationFunc: openapi3filter.NoopAuthenticationFunc,
			MultiError:         true,
		},
	}, nil
}

func (c *Client) checkRequest(ctx context.Context, h http.Header, body []byte, route *routers.Route, intent Intent) error {
	if intent == Raw {
		return nil
	}
	in, err := c.validationInput(ctx, h, body, route)
	if err != nil {
		return err
	}
	verr := openapi3filter.ValidateRequest(ctx, in)
	switch {
	case intent == Valid && verr != nil:
		return fmt.Errorf("the suite meant a valid request, but the spec rejects it: %w", verr)
	case intent == Invalid && verr == nil:
		return errors.New("the suite meant an invalid request, but the spec accepts it")
	}
	return nil
}

func (c *Client) checkResponse(ctx context.Context, ex *Exchange, route *routers.Route) error {
	in, err := c.validationInput(ctx, ex.ReqHeader, ex.ReqBody, route)
	if err != nil {
		return err
	}
	rin := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 ex.Status,
		Header:                 ex.Header,
		Options:                &openapi3filter.Options{MultiError: true},
	}
	rin.SetBodyBytes(ex.Body)
	return openapi3filter.ValidateResponse(ctx, rin)
}
