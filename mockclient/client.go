// Package mockclient is a Go client of the mock server's own endpoints (README, "Steering the
// mock"): worlds, reset and scenarios, the clock, fault rules, the request journal and its
// counts, the fixture manifest, snapshots, and a login helper that returns a bearer token.
//
// A Client addresses one world: the default one, or the one named by WithWorld or World, whose
// requests go to /__worlds/<name>/ (D100). Every method takes a context; errors from the mock
// are *Error, with the status, message and field errors of its envelope. A success that is not
// the mock's (a page, or JSON lacking a member the mock always sends in that answer: answers.go)
// is an error naming the control and the member, asking whether the base URL is the mock's.
//
// It imports only the standard library and the toolkit's data packages (fixtures, reference);
// it must not import mockserver, so a test can drive a mock in a container or another process.
package mockclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Client calls the mock's controls for one world. It is safe for concurrent use.
type Client struct {
	base  string // as given to New, without a trailing slash
	world string
	admin string
	hc    *http.Client
	// mock and urlWorld split a base URL that ends in a world's prefix (http://h/__worlds/w1):
	// the mock's own URL, and the world the base URL names.
	mock, urlWorld string
	// unnamed is set by WithWorld("") or World(""): an empty name is most often a worker's
	// name left unset, and the default world it would mean is every worker's.
	unnamed bool
}

// Option configures a Client.
type Option func(*Client)

// WithWorld makes the client address the world name (created by the mock on first use). An
// empty name is refused by every call: leave WithWorld out to address the default world.
func WithWorld(name string) Option {
	return func(c *Client) { c.world, c.unnamed = name, name == "" }
}

// WithAdminToken sends the mock's admin token (--admin-token) in X-Mock-Admin-Token.
func WithAdminToken(token string) Option { return func(c *Client) { c.admin = token } }

// WithHTTPClient sets the HTTP client (when not set, or nil, one whose calls give up after
// DefaultTimeout).
func WithHTTPClient(hc *http.Client) Option {
	return func(c *Client) {
		if hc == nil { // nil is the default client, as leaving the option out: it was dereferenced
			hc = defaultHTTPClient()
		}
		c.hc = sameHostOnly(hc)
	}
}

// defaultHTTPClient is the client of a Client made without WithHTTPClient.
func defaultHTTPClient() *http.Client { return &http.Client{Timeout: DefaultTimeout} }

// sameHostOnly is a copy of hc that follows a redirect only to the host it was sent to: the
// admin token goes with every call, and a base URL that redirects elsewhere (a proxy, a typo)
// would hand it to that host. A redirect elsewhere fails the call, naming where it led.
func sameHostOnly(hc *http.Client) *http.Client {
	cp := *hc
	next := hc.CheckRedirect
	cp.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) > 0 && !strings.EqualFold(req.URL.Host, via[0].URL.Host) {
			return fmt.Errorf("mockclient: the mock's URL redirected to another host (%s); no call, and no admin token, is sent there: give the mock's own URL", req.URL.Redacted())
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 {
			return errors.New("mockclient: stopped after 10 redirects")
		}
		return nil
	}
	return &cp
}

// DefaultTimeout bounds each call of a Client made without WithHTTPClient, the answer read
// whole: a base URL that accepts the connection and never answers fails the test instead of
// hanging the CI job. The slowest control, loading a snapshot of the largest size the mock
// takes, needs well under it.
const DefaultTimeout = 3 * time.Minute

// maxAnswer bounds what a call reads of an answer, and maxSnapshotAnswer that of a snapshot or
// a flow: the mock's answers are far smaller (a snapshot PUT takes up to 256 MiB), so a larger
// one is not the mock's (a base URL pointing at a stream) and is refused before it fills memory.
const (
	maxAnswer         = 64 << 20
	maxSnapshotAnswer = 1 << 30
)

// New returns a client of the mock at baseURL, such as http://127.0.0.1:4010.
func New(baseURL string, opts ...Option) *Client {
	c := &Client{base: strings.TrimRight(baseURL, "/"), hc: sameHostOnly(defaultHTTPClient())}
	if checkBase(c.base) == nil { // else every call says why, and the URL names no world
		c.mock, c.urlWorld = splitWorld(c.base)
	}
	c.world = c.urlWorld
	for _, o := range opts {
		o(c)
	}
	return c
}

// checkBase refuses a base URL the client cannot join paths to: one that is not an absolute
// http(s) URL, or has a query or a fragment (paths went after them, and a reset was sent to the
// mock's root).
func checkBase(base string) error {
	u, err := url.Parse(base)
	switch {
	case err != nil, u.Scheme != "http" && u.Scheme != "https", u.Host == "":
		return fmt.Errorf("mockclient: the base URL %q is not the mock's URL: want one such as http://127.0.0.1:4010", base)
	case u.RawQuery != "" || u.Fragment != "" || strings.HasSuffix(base, "?") || strings.HasSuffix(base, "#"):
		return fmt.Errorf("mockclient: the base URL %q has a query or a fragment; give the mock's URL alone, such as http://127.0.0.1:4010 (a world is chosen with WithWorld)", base)
	}
	if why := basePathProblem(u.EscapedPath()); why != "" {
		return fmt.Errorf("mockclient: the base URL %q is not the mock's URL: %s; give the mock's URL, such as http://127.0.0.1:4010, or a world's, such as http://127.0.0.1:4010/__worlds/w1", base, why)
	}
	return nil
}

// basePathProblem says why the path of a base URL cannot be the mock's or one world's ("" when
// it can): the calls join /__mock/… to it, so a control's or the dashboard's URL, an empty
// segment, or a world's prefix that the mock would not route (two of them, %-escapes, more
// after the name) would reach no control, and WorldName would name a world no call reaches.
func basePathProblem(path string) string {
	path = strings.TrimSuffix(path, "/")
	if path == "" {
		return ""
	}
	segs := strings.Split(strings.TrimPrefix(path, "/"), "/")
	for i, seg := range segs {
		switch {
		case seg == "":
			return "its path has an empty segment (//)"
		case seg == "__mock":
			return "its path names the mock's controls or dashboard (/__mock); the client adds those itself"
		case seg == "__worlds" && i != len(segs)-2:
			return "its path names a world's prefix other than at its end, once (/__worlds/<name>)"
		case seg == "__worlds" && strings.Contains(segs[i+1], "%"):
			return "the world's name in it is %-escaped, which the mock does not take in a world's name"
		}
	}
	return ""
}

// splitWorld splits a base URL ending in a world's prefix into the mock's URL and the world's
// name; other base URLs give "", "".
func splitWorld(base string) (mock, world string) {
	i := strings.LastIndex(base, "/__worlds/")
	if i < 0 {
		return "", ""
	}
	rest := base[i+len("/__worlds/"):]
	name, err := url.PathUnescape(rest)
	if rest == "" || err != nil {
		return "", ""
	}
	return base[:i], name
}

// World returns a client of the same mock for the world name (from a client made with a
// world's URL too: the world is replaced, not nested).
func (c *Client) World(name string) *Client {
	cp := *c
	if cp.urlWorld != "" {
		cp.base, cp.mock, cp.urlWorld = cp.mock, "", ""
	}
	cp.world, cp.unnamed = name, name == ""
	return &cp
}

// clash tells whether the base URL names one world and WithWorld another.
func (c *Client) clash() bool { return c.urlWorld != "" && c.world != c.urlWorld }

// WorldName is the world the client addresses ("" for the default world, however named).
func (c *Client) WorldName() string {
	if c.world == "default" {
		return ""
	}
	return c.world
}

// BaseURL is the base URL of the client's world, to give an API client or a browser: the
// mock's URL, followed by /__worlds/<name> for a named world. A base URL given to New that
// names a world is the world's: it is returned as given (when WithWorld names another world,
// too: that client's calls fail, saying so).
func (c *Client) BaseURL() string {
	if c.urlWorld != "" || c.world == "" || c.world == "default" {
		return c.base
	}
	return c.base + "/__worlds/" + url.PathEscape(c.world)
}

// Error is an answer of the mock that is not a success: its status and the message and
// field errors of the interface's shapes.
type Error struct {
	Status  int                 `json:"-"`
	Message string              `json:"message"`
	Errors  map[string][]string `json:"errors,omitempty"`
}

func (e *Error) Error() string {
	msg := fmt.Sprintf("mock answered %d: %s", e.Status, e.Message)
	for field, list := range e.Errors {
		msg += fmt.Sprintf(" [%s: %s]", field, strings.Join(list, " "))
	}
	return msg
}

// do sends method path with body (JSON-encoded when not nil), checks that a 2xx answer holds
// what the mock always sends in it (want) and decodes it into out (when not nil); other
// statuses are *Error.
func (c *Client) do(ctx context.Context, method, path string, body any, want shape, out any) error {
	if c.unnamed {
		return errors.New("mockclient: the world's name is empty (WithWorld(\"\") or World(\"\")): name the world, or leave WithWorld out to address the default world, which every worker shares")
	}
	if err := checkBase(c.base); err != nil { // no request was made: not an answer of the mock
		return err
	}
	if c.clash() || c.urlWorld == "" && c.world != "" && c.world != "default" && strings.Contains(c.base, "/__worlds/") {
		return fmt.Errorf("mockclient: the base URL %q already names a world, and the client names the world %q too: give the mock's own URL with WithWorld, or the world's URL without it", c.base, c.world)
	}
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("%s %s: encode: %w", method, path, err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.BaseURL()+path, rd)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.admin != "" {
		req.Header.Set("X-Mock-Admin-Token", c.admin)
	}
	res, err := c.hc.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer res.Body.Close()
	limit := int64(maxAnswer)
	if path == "/__mock/state" || path == "/__mock/flow" {
		limit = maxSnapshotAnswer
	}
	raw, err := io.ReadAll(io.LimitReader(res.Body, limit+1))
	if err != nil {
		return fmt.Errorf("%s %s: read answer: %w", method, path, err)
	}
	if int64(len(raw)) > limit {
		return c.notTheMock(method, path, fmt.Errorf("the answer passed %d MiB, far more than the mock answers to it", limit>>20))
	}
	if res.StatusCode/100 != 2 {
		return refusal(res.StatusCode, raw, c.base)
	}
	if mt, _, _ := mime.ParseMediaType(res.Header.Get("Content-Type")); len(bytes.TrimSpace(raw)) > 0 && mt != "application/json" {
		// The mock answers its controls in JSON: a page (a dev server's index.html) is another server's.
		return c.notTheMock(method, path, fmt.Errorf("the answer is %q, not the mock's JSON", res.Header.Get("Content-Type")))
	}
	if err := want.check(raw); err != nil {
		// Another JSON service's null, {} or object read as a count of 0 or a world of no users.
		return c.notTheMock(method, path, err)
	}
	if out == nil {
		return nil
	}
	// Numbers as written: a journal's or a flow's request body holds what the client sent
	// (1.0000000000000000001, an id past 2^53), which a float64 would round.
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(out); err != nil {
		return c.notTheMock(method, path, fmt.Errorf("decode answer: %w", err))
	}
	return nil
}

// refusal is the *Error of an answer of status (not 2xx): its message, and its field errors
// when they are keyed by field (authenticate's are a list of sentences, which the message
// already says, or adds to).
func refusal(status int, raw []byte, base string) *Error {
	e := &Error{Status: status}
	var body struct {
		Message string          `json:"message"`
		Errors  json.RawMessage `json:"errors"`
	}
	if json.Unmarshal(raw, &body) != nil || body.Message == "" {
		e.Message = otherAnswer(raw, base)
		return e
	}
	e.Message = body.Message
	var list []string
	switch {
	case json.Unmarshal(body.Errors, &e.Errors) == nil:
	case json.Unmarshal(body.Errors, &list) == nil:
		for _, s := range list {
			if s != body.Message {
				e.Message += " " + s
			}
		}
	}
	return e
}

// otherAnswer words an error answer that is not the mock's JSON (another server's page, a
// proxy's text): its start quoted, control characters escaped, and its size. Whole, 50 MB of a
// wrong base URL's answer went into the error, and from t.Fatal into the CI log.
func otherAnswer(raw []byte, base string) string {
	text := strings.TrimSpace(string(raw))
	if len(text) <= maxQuoted && json.Valid(raw) {
		return text
	}
	if len(text) <= maxQuoted {
		return strconv.Quote(text)
	}
	cut := text[:maxQuoted]
	for !utf8.ValidString(cut) { // not in the middle of a character
		cut = cut[:len(cut)-1]
	}
	return fmt.Sprintf("%s… (%d bytes, not the mock's JSON: is %s the mock's base URL?)", strconv.Quote(cut), len(raw), base)
}

// maxQuoted is how much of an answer that is not the mock's an error quotes.
const maxQuoted = 200
