package mockserver

import (
	"testing"
	"time"
)

// A clock that has run into its end stops for what the mock stamps, but a rate-limit window
// spent there still ends: Retry-After is not a promise that never
// comes true (D63).
func TestWindowsEndAtTheClocksEnd(t *testing.T) {
	clock := NewClock(LatestClock.Add(-time.Second))
	wait := func(d time.Duration) { // real time passing, without the test waiting for it
		clock.mu.Lock()
		clock.since = clock.since.Add(-d)
		clock.mu.Unlock()
	}
	wait(5 * time.Second)
	if got := clock.Now(); !got.Equal(LatestClock) {
		t.Fatalf("the clock reads %s after running past its end, want it stopped at %s", got, LatestClock)
	}

	limiter := newRateLimiter(1, clock.WindowNow)
	if v := limiter.take("u"); !v.allowed {
		t.Fatal("the first request of a window was refused")
	}
	v := limiter.take("u")
	if v.allowed || v.retryAfter <= 0 {
		t.Fatalf("the second request of a one-request window: %+v, want refused with a Retry-After", v)
	}
	wait(v.retryAfter)
	if v := limiter.take("u"); !v.allowed {
		t.Errorf("after Retry-After (%s) at the clock's end the window is still spent: %+v", v.retryAfter, v)
	}

}

// A frozen clock stamps one instant, but a window spent while it is frozen still ends when its
// Retry-After says (D104): a client honouring Retry-After is not kept waiting for ever.
func TestWindowsEndOnAFrozenClock(t *testing.T) {
	clock := NewClock(time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC))
	clock.Freeze(true)
	frozenAt := clock.Now()
	limiter := newRateLimiter(1, clock.WindowNow)
	limiter.take("u")
	v := limiter.take("u")
	if v.allowed {
		t.Fatal("the second request of a one-request window was allowed")
	}
	clock.mu.Lock()
	clock.since = clock.since.Add(-v.retryAfter) // Retry-After of real time passes
	clock.mu.Unlock()
	if got := clock.Now(); !got.Equal(frozenAt) {
		t.Errorf("the frozen clock moved to %s", got)
	}
	if v := limiter.take("u"); !v.allowed {
		t.Errorf("after Retry-After (%s) on a frozen clock the window is still spent", v.retryAfter)
	}
}
