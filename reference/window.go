package reference

import "time"

// Login throttling (D71): failed logins are counted per e-mail in fixed windows on the store's
// clock; once the count is spent, authenticate refuses before it looks at the password. The
// HTTP adapter counts failures per client address the same way (it knows addresses; the store
// does not).
const (
	LoginFailuresPerEmail = 5
	LoginWindow           = time.Minute
	// LoginThrottledMessage is the message of a throttled login, per e-mail or per client.
	LoginThrottledMessage = "Too many failed login attempts. Please try again later."
	maxTrackedLogins      = 10000 // past this many e-mails, ended windows are swept
)

// Window is a fixed window of counted events: the rate limits of the mock (D14) and the login
// throttle (D71) keep one per key.
type Window struct {
	Start time.Time
	Count int
}

// current is w if it is still open at now, else an empty window starting at now. A window
// whose start is after now (the clock was set back) is over too.
func (w Window) current(now time.Time, length time.Duration) Window {
	if w.Start.IsZero() || now.Sub(w.Start) >= length || now.Before(w.Start) {
		return Window{Start: now}
	}
	return w
}

// Spent reports whether the window open at now has counted limit events already.
func (w Window) Spent(now time.Time, length time.Duration, limit int) bool {
	return w.current(now, length).Count >= limit
}

// Add counts one event in the window open at now.
func (w Window) Add(now time.Time, length time.Duration) Window {
	w = w.current(now, length)
	w.Count++
	return w
}

// Until is how long until the window open at now ends.
func (w Window) Until(now time.Time, length time.Duration) time.Duration {
	return w.current(now, length).Start.Add(length).Sub(now)
}

// SweepWindows forgets the windows of m that have ended at now, so a map keyed by callers stays
// bounded by the callers of the last window.
func SweepWindows[K comparable](m map[K]Window, now time.Time, length time.Duration) {
	for k, w := range m {
		if w.current(now, length) != w {
			delete(m, k)
		}
	}
}
