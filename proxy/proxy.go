package proxy

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/opsapi/mocktoolkit/conformance/check"
	"github.com/opsapi/mocktoolkit/internal/answerbound"
	"github.com/opsapi/mocktoolkit/internal/hostguard"
	"github.com/opsapi/mocktoolkit/internal/inflight"
	"github.com/opsapi/mocktoolkit/internal/text"
	"github.com/opsapi/mocktoolkit/internal/wireerr"
	"github.com/opsapi/mocktoolkit/spec"
)

// DefaultMaxBody (D95) is how much of each body the proxy keeps for checking when Config.MaxBody is
// zero: 1 MiB, the mock's own bound on request bodies. Answers are read ahead to answerBound
// times that: the interface bounds no answer, and an unpaginated list of a realistic project
// (2000 cards, the mock's busy scenario) is past 1 MiB.
const DefaultMaxBody = 1 << 20

// answerBound is how many times MaxBody of an answer the proxy reads ahead.
const answerBound = 8

// DefaultMaxAnswer is how much of an answer the proxy reads ahead when Config.MaxBody is zero.
const DefaultMaxAnswer = answerBound * DefaultMaxBody

// DefaultJournalSize is how many exchanges the journal keeps when Config.JournalSize is zero.
const DefaultJournalSize = 200

// HeaderViolations is the header the proxy adds to an answer that breaks a rule: the rule ids,
// comma-separated. The proxy owns it: an upstream's own is dropped (D140).
const HeaderViolations = "X-Contract-Violations"

// Config configures a Proxy.
type Config struct {
	// Upstream is the deployment every request is forwarded to: scheme, host and an optional
	// base path ("https://staging.example.com/api").
	Upstream *url.URL
	// Transport sends requests upstream. Nil: a clone of http.DefaultTransport that never asks
	// for compression itself, so answers pass through as the upstream encoded them.
	Transport http.RoundTripper
	// MaxBody is how many bytes of each body are kept for checking (DefaultMaxBody when zero);
	// a larger body passes through unchecked, with a note in the journal.
	MaxBody int64
	// JournalSize is how many exchanges GET /__proxy/exchanges keeps (DefaultJournalSize when
	// zero).
	JournalSize int
	// AllowedHosts are the Host names, besides IP addresses and reserved names such as
	// localhost, the proxy answers ("*": any), as the mock's --allowed-hosts (D140).
	AllowedHosts []string
	// Logger receives one line per exchange with a deployment's violation, one per rule the
	// clients break (the first time), and one per upstream failure (discarded when nil).
	Logger *slog.Logger
	// ListLag is how long after a create a list may still not show it (LIST-1, COMMENT-1): a
	// deployment may read lists from a replica behind the writes (D123). Zero:
	// check.ListSettle, as the suite waits; negative: no lag.
	ListLag time.Duration
}

// Proxy is a validating reverse proxy: an http.Handler that forwards every request to the
// upstream and checks each exchange of the 24 operations against the contract.
type Proxy struct {
	upstream *url.URL
	maxBody  int64
	// maxAnswer is how much of an answer is read ahead for checking (answerBound × maxBody).
	maxAnswer int64
	// heldAnswers is how many bytes of answers are read ahead now, over every exchange.
	heldAnswers atomic.Int64
	// largeChecks is the turn to judge an answer over largeAnswer bytes: one at a time.
	largeChecks chan struct{}
	// pages are the bytes of the proxy's own large pages being written (serveControl).
	pages *answerbound.Budget
	// pageBuilds is the turn to build one of the proxy's own pages: one at a time, as a
	// journal of large bodies encodes to tens of MB.
	pageBuilds *answerbound.Turn
	// bodies are the request bytes read ahead now, over every exchange (D216).
	bodies  *inflight.Budget
	logger  *slog.Logger
	hosts   hostguard.Policy
	via     string                    // this proxy's name in Via headers, to detect loops (D140)
	ops     map[string]spec.Operation // by exact path
	rp      *httputil.ReverseProxy
	journal *journal
	stats   *stats
	tracker *check.Tracker
	listLag time.Duration // Config.ListLag, for the worlds' trackers
	// worlds are the trackers of the mock worlds a client names with X-Mock-World: each world
	// has its own carts, records and windows, so one world's removal is no repeat of another's.
	worldsMu sync.Mutex
	worlds   map[string]*check.Tracker
	started  time.Time
	// bodyTimeout bounds the read-ahead of an answer body (upstreamTimeout; tests shorten it).
	bodyTimeout time.Duration
	// clientRules holds the rules of client violations already logged (logViolations).
	clientRules sync.Map
}

// New returns a Proxy of cfg.Upstream.
func New(cfg Config) (*Proxy, error) {
	if cfg.Upstream == nil {
		return nil, errors.New("new proxy: the upstream must be an http or https URL with a host")
	}
	if _, err := ParseUpstream(cfg.Upstream.String()); err != nil {
		return nil, fmt.Errorf("new proxy: the upstream: %w", err)
	}
	ops, err := loadOperations(context.Background())
	if err != nil {
		return nil, err
	}
	p := &Proxy{
		upstream:    cfg.Upstream,
		maxBody:     cfg.MaxBody,
		largeChecks: make(chan struct{}, 1),
		pages:       answerbound.New(maxPagesInFlight),
		pageBuilds:  answerbound.NewTurn(),
		logger:      cfg.Logger,
		hosts:       hostguard.New(cfg.AllowedHosts),
		ops:         ops,
		journal:     newJournal(cfg.JournalSize),
		stats:       newStats(),
		listLag:     listLag(cfg.ListLag),
		worlds:      map[string]*check.Tracker{},
		bodies:      inflight.New(maxBodiesHeld),
		started:     time.Now(),

		bodyTimeout: upstreamTimeout,
	}
	p.tracker = check.NewTrackerLag(p.listLag)
	if p.maxBody <= 0 {
		p.maxBody = DefaultMaxBody
	}
	p.maxAnswer = answerBound * p.maxBody
	if p.logger == nil {
		p.logger = slog.New(slog.DiscardHandler)
	}
	p.via = newVia()
	p.rp = p.reverseProxy(cfg.Transport)
	return p, nil
}

// redactedURL is raw with its password and query values masked, for the messages of
// ParseUpstream.
func redactedURL(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil { // as given, but what may be a user and password before an @, and the query
		raw, _, _ = strings.Cut(raw, "?")
		if at := strings.LastIndex(raw, "@"); at >= 0 {
			raw = "xxxxx" + raw[at:]
		}
		return text.Clip(strings.TrimSpace(raw), 200)
	}
	q := u.Query()
	for k := range q {
		q.Set(k, "xxxxx")
	}
	u.RawQuery = q.Encode()
	if u.Fragment != "" {
		u.Fragment = "xxxxx"
	}
	return u.Redacted()
}

// ParseUpstream parses and checks an upstream URL for Config.Upstream.
func ParseUpstream(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("want an http or https URL such as https://staging.example.com, got %q", redactedURL(raw))
	}
	// A user name, password, query or fragment would be shown on the dashboard and in every 502,
	// and credentials in a URL are not sent as Authorization: clients send their own headers,
	// which the proxy forwards as they came (D94).
	if u.Port() == "" && strings.HasSuffix(u.Host, ":") {
		return nil, fmt.Errorf("%q: a ':' with no port after it; give the port, or leave out the ':' for the scheme's own (80, 443)", redactedURL(raw))
	}
	if port := u.Port(); port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("%q: the port %s is not one TCP has (1 to 65535)", redactedURL(raw), port)
		}
	}
	switch {
	case u.User != nil:
		return nil, fmt.Errorf("%q holds a user name or password: give the upstream's scheme, host and base path only; clients send their own Authorization header, which the proxy forwards", redactedURL(raw))
	case u.RawQuery != "" || u.ForceQuery:
		return nil, fmt.Errorf("%q holds a query: give the upstream's scheme, host and base path only; a key the upstream needs goes in a header the clients send, which the proxy forwards", redactedURL(raw))
	case u.Fragment != "" || strings.Contains(raw, "#"):
		return nil, fmt.Errorf("%q holds a fragment (#...): give the upstream's scheme, host and base path only", redactedURL(raw))
	}
	if why := pathProblem(u.EscapedPath()); why != "" { // as a client's path is refused for them (D140)
		return nil, fmt.Errorf("%q: its base path has %s; give the path as the upstream serves it, without them", redactedURL(raw), why)
	}
	return u, nil
}

// ServeHTTP serves the proxy's own pages under /__proxy/ and forwards everything else.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !p.admit(w, r) {
		return
	}
	if r.URL.Path == controlPrefix[:len(controlPrefix)-1] || strings.HasPrefix(r.URL.Path, controlPrefix) {
		p.serveControl(w, r)
		return
	}
	p.forward(w, r)
}

// Upstream is the URL requests are forwarded to.
func (p *Proxy) Upstream() *url.URL { u := *p.upstream; return &u }

// Listener returns ln with the answers net/http writes by itself, before any handler runs (a
// request it cannot parse, headers past its limit, an unknown transfer coding, an HTTP version
// it does not speak), put into shape (a) as the mock's are (D79, D183). The proxy has no
// rate-limit window of its own, so they carry no rate-limit headers. Serve the proxy on it.
func (p *Proxy) Listener(ln net.Listener) net.Listener {
	return wireerr.Listener(ln, func(status int, detail string, _ net.Addr) []byte {
		return wireerr.Answer(status, wireerr.Message(status, detail, "the proxy"))
	})
}
