package mockserver

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/opsapi/mocktoolkit/reference"
)

// Authenticate throttling (D71): failed logins are counted per e-mail and per client address
// in fixed one-minute windows on the mock's clock; once either count is spent, authenticate
// answers 429 shape (b) with Retry-After before looking at the password.
const (
	loginFailuresPerEmail  = 5
	loginFailuresPerClient = 50
	loginWindow            = time.Minute
)

// loginThrottle counts failed logins.
type loginThrottle struct {
	now func() time.Time

	mu       sync.Mutex
	failures map[string]window // "email:..." and "addr:..." → failures in the window
}

func newLoginThrottle(now func() time.Time) *loginThrottle {
	return &loginThrottle{now: now, failures: map[string]window{}}
}

// clear forgets every failure (reset).
func (t *loginThrottle) clear() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.failures = map[string]window{}
}

// blocked returns how long until the first spent key's window ends, or 0.
func (t *loginThrottle) blocked(email, addr string) time.Duration {
	now := t.now()
	t.mu.Lock()
	defer t.mu.Unlock()
	for key, limit := range map[string]int{"email:" + email: loginFailuresPerEmail, "addr:" + addr: loginFailuresPerClient} {
		w, ok := t.failures[key]
		if ok && now.Sub(w.start) < loginWindow && !now.Before(w.start) && w.count >= limit {
			return w.start.Add(loginWindow).Sub(now)
		}
	}
	return 0
}

// failed counts one failed login for the e-mail and the address.
func (t *loginThrottle) failed(email, addr string) {
	now := t.now()
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.failures) > 10000 {
		for k, w := range t.failures {
			if now.Sub(w.start) >= loginWindow {
				delete(t.failures, k)
			}
		}
	}
	for _, key := range []string{"email:" + email, "addr:" + addr} {
		w, ok := t.failures[key]
		if !ok || now.Sub(w.start) >= loginWindow || now.Before(w.start) {
			w = window{start: now}
		}
		w.count++
		t.failures[key] = w
	}
}

// succeeded forgets the e-mail's failures.
func (t *loginThrottle) succeeded(email string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.failures, "email:"+email)
}

// serveLogin is authenticate behind the throttle: 429 while the e-mail or the client is
// blocked, otherwise the operation, whose 401 counts as a failure.
func (s *server) serveLogin(w http.ResponseWriter, r *http.Request, body []byte) {
	var in struct {
		Email string `json:"email"`
	}
	_ = json.Unmarshal(body, &in) // validated already; an odd body only counts under ""
	email, addr := strings.ToLower(strings.TrimSpace(in.Email)), clientAddr(r)
	if after := s.logins.blocked(email, addr); after > 0 {
		writeRateLimited(w, "Too many failed login attempts. Please try again later.", after)
		return
	}
	rec := &statusRecorder{ResponseWriter: w}
	serveAuthenticate(rec, s.store(), 0, body)
	switch rec.status {
	case http.StatusUnauthorized:
		s.logins.failed(email, addr)
	case http.StatusOK:
		s.logins.succeeded(email)
	}
}

// storeOptions are the options of every store the mock loads: its clock and the record cap.
func (s *server) storeOptions() []reference.Option {
	return []reference.Option{reference.WithClock(s.clock), reference.WithMaxRecordsPerProject(s.cfg.MaxRecords)}
}
