package mockserver

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/opsapi/mocktoolkit/reference"
)

// rateWindow is the length of a rate-limit window: the interface's limit is per minute.
const rateWindow = time.Minute

// maxWindows is how many callers' windows a limiter keeps before it sweeps the ended ones.
const maxWindows = 10000

// rateLimiter counts requests per caller in fixed one-minute windows (D14).
type rateLimiter struct {
	limit int
	now   func() time.Time

	mu      sync.Mutex
	windows map[string]reference.Window
}

// verdict is the outcome of one request against the limiter.
type verdict struct {
	limit      int
	remaining  int
	allowed    bool
	retryAfter time.Duration
}

func newRateLimiter(limit int, now func() time.Time) *rateLimiter {
	return &rateLimiter{limit: limit, now: now, windows: map[string]reference.Window{}}
}

// take spends one request of key's window, unless it is spent already (a 429 spends nothing).
func (l *rateLimiter) take(key string) verdict {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.windows[key]
	if w.Spent(now, rateWindow, l.limit) {
		return verdict{limit: l.limit, remaining: 0, retryAfter: w.Until(now, rateWindow)}
	}
	w = w.Add(now, rateWindow)
	l.windows[key] = w
	if w.Count == 1 && len(l.windows) > maxWindows {
		reference.SweepWindows(l.windows, now, rateWindow)
	}
	return verdict{limit: l.limit, remaining: l.limit - w.Count, allowed: true}
}

// peek is the verdict key's window would give now, without spending from it.
func (l *rateLimiter) peek(key string) verdict {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.windows[key]
	if w.Spent(now, rateWindow, l.limit) {
		return verdict{limit: l.limit, remaining: 0, retryAfter: w.Until(now, rateWindow)}
	}
	count := w.Add(now, rateWindow).Count - 1 // the count as it stands in the current window
	return verdict{limit: l.limit, remaining: l.limit - count, allowed: true}
}

// clear forgets every window (reset).
func (l *rateLimiter) clear() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.windows = map[string]reference.Window{}
}

// Failed logins a client may make in a window (D71, D144): loginFailuresPerClient from one
// address over any e-mails, loginFailuresPerClientEmail from one address for one e-mail. The
// per-e-mail count of any address is the store's (reference.LoginFailuresPerEmail, per world);
// these need the address, which only the HTTP layer knows.
const (
	loginFailuresPerClient      = 50
	loginFailuresPerClientEmail = reference.LoginFailuresPerEmail
)

// loginThrottle counts failed logins per client address, and per client address and e-mail,
// in fixed windows. The server holds one for every world (D144): every world has the same
// passwords, so guesses spread over worlds count together. Windows are read on the clock of
// the world the login is sent to.
type loginThrottle struct {
	mu       sync.Mutex
	failures map[string]reference.Window // addr, or addr + "\x00" + e-mail → failed logins in the window
}

func newLoginThrottle() *loginThrottle {
	return &loginThrottle{failures: map[string]reference.Window{}}
}

// throttleKeys are the windows a login from addr for email counts in.
func throttleKeys(addr, email string) (client, pair string) {
	return addr, addr + "\x00" + strings.ToLower(strings.TrimSpace(email))
}

// clearClient forgets the failures of one client address (a reset sent from it, D62, D144),
// or of every client when addr is "".
func (t *loginThrottle) clearClient(addr string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for k := range t.failures {
		if addr == "" || k == addr || strings.HasPrefix(k, addr+"\x00") {
			delete(t.failures, k)
		}
	}
}

// blocked returns how long until the spent window of addr, or of addr and email, ends, or 0.
func (t *loginThrottle) blocked(addr, email string, now time.Time) time.Duration {
	client, pair := throttleKeys(addr, email)
	t.mu.Lock()
	defer t.mu.Unlock()
	var wait time.Duration
	if w := t.failures[client]; w.Spent(now, reference.LoginWindow, loginFailuresPerClient) {
		wait = w.Until(now, reference.LoginWindow)
	}
	if w := t.failures[pair]; w.Spent(now, reference.LoginWindow, loginFailuresPerClientEmail) {
		wait = max(wait, w.Until(now, reference.LoginWindow))
	}
	return wait
}

// failed counts one failed login from addr for email.
func (t *loginThrottle) failed(addr, email string, now time.Time) {
	client, pair := throttleKeys(addr, email)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.failures[client] = t.failures[client].Add(now, reference.LoginWindow)
	t.failures[pair] = t.failures[pair].Add(now, reference.LoginWindow)
	if len(t.failures) > maxWindows {
		reference.SweepWindows(t.failures, now, reference.LoginWindow)
	}
}

// rateLimit spends one request of the caller's window for the operation (D14): per user on
// authenticated operations, so logging in again does not start a new window; per client
// address otherwise. It sets the headers and answers 429 when spent.
func (s *Server) rateLimit(w http.ResponseWriter, wl *world, rt *route, addr string, user reference.User, authed bool) bool {
	return s.spend(w, wl, rateKey(rt, addr, user, authed))
}

// rateKey is the window a request to rt spends from (D14).
func rateKey(rt *route, addr string, user reference.User, authed bool) string {
	if authed && rt.access != accessPublic {
		return rt.id + " user:" + strconv.FormatInt(user.ID, 10)
	}
	return rt.id + " addr:" + addr
}

// peekRate sets the rate-limit headers of r's window without spending from it, for a request of
// the API's paths refused before the pipeline reads it (the bodies held at once, D216): every
// answer of the API's paths carries them (D3).
func (s *Server) peekRate(w http.ResponseWriter, r *http.Request) {
	wl, addr := s.worldOf(r), clientAddr(r)
	key := "addr:" + addr
	if rt, ok := s.ops[r.URL.Path]; ok {
		user, authed := wl.state().identify(r)
		key = rateKey(rt, addr, user, authed)
	}
	setRateHeaders(w.Header(), wl.limiter.peek(key))
}

// spend takes one request of key's window in wl, sets the rate-limit headers and answers 429
// once the window is spent.
func (s *Server) spend(w http.ResponseWriter, wl *world, key string) bool {
	return spendFrom(w, wl.limiter, key)
}

// spendFrom takes one request of key's window of l, sets the rate-limit headers and answers
// 429 once the window is spent.
func spendFrom(w http.ResponseWriter, l *rateLimiter, key string) bool {
	v := l.take(key)
	setRateHeaders(w.Header(), v)
	if !v.allowed {
		writeRateLimited(w, "Too many requests.", v.retryAfter)
		return false
	}
	return true
}

// spendUnbound spends, for a request that names no world the mock can serve, the client
// address's window of such requests, as an unknown path spends its world's: every answer but
// the mock's own endpoints' carries the rate-limit headers (D3), a refusal of its world too (an
// unknown path under /__mock/ lacked them). The window is the server's, not the default
// world's: a worker mistyping world names spent the default world's unknown-path window.
func (s *Server) spendUnbound(w http.ResponseWriter, r *http.Request) bool {
	if s.controlMethods(r.URL.Path) != "" {
		return true
	}
	return spendFrom(w, s.unbound, "addr:"+clientAddr(r))
}

// setRateHeaders sets X-RateLimit-Limit and X-RateLimit-Remaining of a verdict.
func setRateHeaders(h http.Header, v verdict) {
	h["X-Ratelimit-Limit"] = []string{strconv.Itoa(v.limit)}
	h["X-Ratelimit-Remaining"] = []string{strconv.Itoa(v.remaining)}
}
