package mockserver

import (
	"sync"
	"time"

	"github.com/opsapi/mocktoolkit/reference"
)

// loginFailuresPerClient is how many failed logins one client address may make in a window
// (D71). The per-e-mail count is the store's (reference.LoginFailuresPerEmail); this one needs
// the address, which only the HTTP layer knows.
const loginFailuresPerClient = 50

// loginThrottle counts failed logins per client address in fixed windows on the mock's clock.
type loginThrottle struct {
	now func() time.Time

	mu       sync.Mutex
	failures map[string]reference.Window // client address → failed logins in the window
}

func newLoginThrottle(now func() time.Time) *loginThrottle {
	return &loginThrottle{now: now, failures: map[string]reference.Window{}}
}

// clear forgets every failure (reset).
func (t *loginThrottle) clear() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.failures = map[string]reference.Window{}
}

// blocked returns how long until the address's spent window ends, or 0.
func (t *loginThrottle) blocked(addr string) time.Duration {
	now := t.now()
	t.mu.Lock()
	defer t.mu.Unlock()
	w := t.failures[addr]
	if !w.Spent(now, reference.LoginWindow, loginFailuresPerClient) {
		return 0
	}
	return w.Until(now, reference.LoginWindow)
}

// failed counts one failed login from the address.
func (t *loginThrottle) failed(addr string) {
	now := t.now()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.failures[addr] = t.failures[addr].Add(now, reference.LoginWindow)
	if len(t.failures) > maxWindows {
		reference.SweepWindows(t.failures, now, reference.LoginWindow)
	}
}
