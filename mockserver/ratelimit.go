package mockserver

import (
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
