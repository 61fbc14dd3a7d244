package mockserver

import (
	"sync"
	"time"
)

// rateWindow is the length of a rate-limit window: the interface's limit is per minute.
const rateWindow = time.Minute

// rateLimiter counts requests per caller in fixed one-minute windows (D14).
type rateLimiter struct {
	limit int
	now   func() time.Time

	mu      sync.Mutex
	windows map[string]window
}

type window struct {
	start time.Time
	count int
}

// verdict is the outcome of one request against the limiter.
type verdict struct {
	limit      int
	remaining  int
	allowed    bool
	retryAfter time.Duration
}

func newRateLimiter(limit int, now func() time.Time) *rateLimiter {
	return &rateLimiter{limit: limit, now: now, windows: map[string]window{}}
}

// take spends one request of key's window, unless it is spent already.
func (l *rateLimiter) take(key string) verdict {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	w, ok := l.windows[key]
	if !ok || now.Sub(w.start) >= rateWindow || now.Before(w.start) {
		if len(l.windows) > 10000 {
			l.sweep(now)
		}
		w = window{start: now}
	}
	if w.count >= l.limit {
		return verdict{limit: l.limit, remaining: 0, retryAfter: w.start.Add(rateWindow).Sub(now)}
	}
	w.count++
	l.windows[key] = w
	return verdict{limit: l.limit, remaining: l.limit - w.count, allowed: true}
}

// sweep forgets windows that have ended; called with mu held.
func (l *rateLimiter) sweep(now time.Time) {
	for k, w := range l.windows {
		if now.Sub(w.start) >= rateWindow {
			delete(l.windows, k)
		}
	}
}
