package conformance_test

import (
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/opsapi/mocktoolkit/conformance"
)

// exhaust spends the rate-limit window of a fresh token on op until a 429 answers. It reads the
// limit from X-RateLimit-Limit, skips when that is more than the suite may send, and sends at
// most twice the limit (a window may reset once on the way) within 90 seconds. It returns the
// 429, or the last answer when none came, and the number of answers before it.
func exhaust(op Operation, tok string) (*Exchange, int) {
	GinkgoHelper()
	req := Request{Op: op, As: "a member with a token just issued", Token: tok, NoRetry: true}
	first := send(req)
	limit, _ := first.HeaderInt("X-RateLimit-Limit")
	if limit > int64(cfg.RateLimitMax) {
		Skip(fmt.Sprintf("X-RateLimit-Limit is %d, more than the %d requests this suite may send to spend a window (set %s to allow more)", limit, cfg.RateLimitMax, EnvRateLimitMax))
	}
	deadline := time.Now().Add(90 * time.Second)
	last, n := first, 1
	for last.Status != 429 && int64(n) <= 2*limit+1 && time.Now().Before(deadline) {
		last = send(req)
		n++
	}
	return last, n - 1
}

func rateLimitSpecs(op Operation) {
	// MUST: "X-RateLimit-Remaining is the number left in the current window" — interface §Limits.
	// Two answers in a row on a token just issued count down (a window that resets between them
	// is retried once).
	It("counts X-RateLimit-Remaining down on consecutive answers", Contract(op, AspectRateLimit), func() {
		tok := login(member)
		req := Request{Op: op, As: "a member with a token just issued", Token: tok}
		for attempt := 0; ; attempt++ {
			a, b := send(req), send(req)
			ra, _ := a.HeaderInt("X-RateLimit-Remaining")
			rb, _ := b.HeaderInt("X-RateLimit-Remaining")
			if rb < ra || (ra == 0 && rb == 0) {
				return
			}
			if attempt == 1 {
				Fail(fmt.Sprintf("%s: X-RateLimit-Remaining went from %d to %d on two answers in a row\n\n%s\n%s", RuleRemaining, ra, rb, a.Describe(), b.Describe()))
			}
		}
	})

	// MUST: "429 Rate limit exceeded, shape (b) with Retry-After" — interface §Errors; "X-RateLimit-
	// Limit is the maximum requests per minute" — §Limits. Spent on a token just issued.
	It("answers 429 with body shape (b) and Retry-After once X-RateLimit-Limit is spent", Serial, Contract(op, AspectRateLimit), func() {
		ex, n := exhaust(op, login(member))
		Expect(ex).To(HaveStatus(429), fmt.Sprintf("%s (after %d answers)", RuleLimit429, n))
		Expect(ex).To(HaveEnvelopeB(), RuleLimit429)
		Expect(ex).To(HaveRetryAfter(), RuleRetryAfter)
		Expect(ex).To(HaveRateLimitHeaders(), RuleHeaders)
		remaining, _ := ex.HeaderInt("X-RateLimit-Remaining")
		Expect(remaining).To(BeZero(), "%s: none is left once a 429 answers\n\n%s", RuleRemaining, ex.Describe())
	})

	// D14: one window per user, so logging in again does not start a new one; Retry-After is
	// whole seconds until the reset (1..60); a 429 does not spend more; another user is not
	// affected.
	It("keeps one window per user with Retry-After of at most 60 seconds", Serial, Reference(op, AspectRateLimit), func() {
		ex, _ := exhaust(op, login(member))
		Expect(ex).To(HaveStatus(429), "D14")
		wait, _ := RetryAfter(ex.Header)
		Expect(wait).To(And(BeNumerically(">=", time.Second), BeNumerically("<=", time.Minute)), "D14: Retry-After\n\n%s", ex.Describe())
		again := send(Request{Op: op, As: "the same member with a token just issued", Token: login(member), NoRetry: true})
		Expect(again).To(HaveStatus(429), "D14: the window is per user, not per token")
		other := send(Request{Op: op, As: "another user", Token: login(outsider), NoRetry: true})
		Expect(other).To(HaveStatus(200), "D14: another user has a window of its own")
	})
}
