package conformance_test

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/opsapi/mocktoolkit/conformance"

	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// rateWindow is the span in which rule LIMIT-2 must hold: X-RateLimit-Limit counts requests a
// minute, so more than twice the limit within one minute meets a 429 whatever the window's
// alignment (fixed or sliding).
const rateWindow = time.Minute

// exhaust spends the rate-limit window of tok on op: it reads the limit from a first answer,
// then sends from cfg.RateSenders concurrent senders until one answer is a 429 or 2×limit+1
// requests have been answered. Nothing here depends on how fast the deployment answers: when the
// observed latency means 2×limit+1 requests cannot be sent within a minute, the spec skips and
// says why and which variable raises the budget. It returns the 429 (nil when none came), the
// number of answers, and whether they all fell within one minute.
func exhaust(op Operation, tok string) (*Exchange, int, bool) {
	GinkgoHelper()
	req := Request{Op: op, As: "a user with a token just issued", Token: tok, NoRetry: true}
	first := send(req)
	if first.Status == 429 {
		return first, 1, true
	}
	limit, _ := first.HeaderInt("X-RateLimit-Limit")
	if limit > int64(cfg.RateLimitMax) {
		Skip(fmt.Sprintf("X-RateLimit-Limit is %d, more than the %d requests this suite may send to spend a window (set %s to allow more)", limit, cfg.RateLimitMax, EnvRateLimitMax))
	}
	need := 2*limit + 1
	senders := int64(cfg.RateSenders)
	estimate := time.Duration(need/senders+1) * first.Latency
	if estimate > rateWindow*3/4 {
		Skip(fmt.Sprintf("spending a window of X-RateLimit-Limit %d takes up to %d requests; at the observed latency of %s with %d concurrent senders that is about %s, too close to the minute the limit is counted in to judge (raise %s)",
			limit, need, first.Latency.Round(time.Millisecond), senders, estimate.Round(time.Second), EnvRateSenders))
	}
	var (
		sent     atomic.Int64
		answered atomic.Int64
		mu       sync.Mutex
		hit      *Exchange
		sendErr  error
		wg       sync.WaitGroup
	)
	start := time.Now()
	for range senders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for sent.Add(1) < need {
				mu.Lock()
				done := hit != nil || sendErr != nil
				mu.Unlock()
				if done {
					return
				}
				ex, err := client.Send(bg, req)
				answered.Add(1)
				mu.Lock()
				switch {
				case err != nil && sendErr == nil:
					sendErr = err
				case err == nil && ex.Status == 429 && hit == nil:
					hit = ex
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if sendErr != nil && hit == nil {
		// The interface bounds no number of requests in flight nor their time: a deployment that
		// queues them past CONFORMANCE_TIMEOUT, or refuses connections, breaks no rule it states.
		Skip(fmt.Sprintf("%s: a request failed while %d were sent at once to spend the rate-limit window (%s); the interface sets no bound on concurrent requests or their time, so this proves nothing (lower %s, or raise %s)",
			op.ID, senders, sendErr, EnvRateSenders, EnvTimeout))
	}
	n := int(answered.Load()) + 1
	if hit != nil {
		// The 429 passes the checks every answer gets.
		Expect(hit.StatusListed()).To(BeTrue(), "%s\n\n%s", Cite(rules.STATUS1), hit.Describe())
		Expect(hit).To(ConformToSpec())
	}
	return hit, n, elapsed <= rateWindow
}

func rateLimitSpecs(op Operation) {
	// Rule LIMIT-1. Two answers in a row on a token just issued count down (a window that resets
	// between them is retried once).
	It("counts X-RateLimit-Remaining down on consecutive answers", Contract(op, AspectRateLimit, "LIMIT-1", "HDR-1"), func() {
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
				Fail(fmt.Sprintf("%s: X-RateLimit-Remaining went from %d to %d on two answers in a row\n\n%s\n%s", Cite(rules.LIMIT1), ra, rb, a.Describe(), b.Describe()))
			}
		}
	})

	// Rule LIMIT-2, spent on a token just issued by concurrent senders; skipped (never failed)
	// when the deployment's latency keeps the suite from sending 2×limit+1 requests in a minute.
	It("answers 429 with body shape (b) and Retry-After once X-RateLimit-Limit is spent", Serial, SpendsRateLimit(Contract(op, AspectRateLimit, "LIMIT-2")), func() {
		ex, n, inAMinute := exhaust(op, login(superadmin)) // a window no other spec uses, so none waits for it
		if ex == nil {
			if !inAMinute {
				Skip(fmt.Sprintf("%d requests took more than a minute without a 429: the limit is per minute, so this proves nothing (raise %s)", n, EnvRateSenders))
			}
			Fail(fmt.Sprintf("%s\n%d requests on one token were answered within a minute, none with 429", Cite(rules.LIMIT2), n))
		}
		Expect(ex).To(HaveEnvelopeB())
		Expect(ex).To(HaveRetryAfter())
		Expect(ex).To(HaveRateLimitHeaders())
		remaining, _ := ex.HeaderInt("X-RateLimit-Remaining")
		Expect(remaining).To(BeZero(), "%s: none is left once a 429 answers\n\n%s", Cite(rules.LIMIT1), ex.Describe())
	})

	// D14: one window per user, so logging in again does not start a new one; Retry-After is
	// whole seconds until the reset (1..60); a 429 does not spend more; another user is not
	// affected.
	It("keeps one window per user with Retry-After of at most 60 seconds", Serial, SpendsRateLimit(Reference(op, AspectRateLimit, "REF-LIMIT")), func() {
		ex, _, _ := exhaust(op, login(superadmin))
		Expect(ex).NotTo(BeNil(), choiceRateWindow+": the window is spent")
		wait, _ := RetryAfter(ex.Header)
		Expect(wait).To(And(BeNumerically(">=", time.Second), BeNumerically("<=", time.Minute)), choiceRateWindow+": Retry-After\n\n%s", ex.Describe())
		again := send(Request{Op: op, As: "the same superadmin with a token just issued", Token: login(superadmin), NoRetry: true})
		Expect(again).To(HaveStatus(429), choiceRateWindow+": the window is per user, not per token")
		other := send(Request{Op: op, As: "another user", Token: login(member), NoRetry: true})
		Expect(other).To(HaveStatus(200), choiceRateWindow+": another user has a window of its own")
	})
}
