package conformance_test

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"syscall"
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

// exhaust spends the rate-limit window req counts against: it reads the limit from a first answer,
// then sends rounds of concurrent requests until one answer is a 429 or 2×limit+1 requests have
// been answered. Nothing here depends on how fast the deployment answers, nor on how many
// requests it serves at once: a round is twice the last, up to CONFORMANCE_RATE_SENDERS, while
// the last was answered within a quarter of CONFORMANCE_TIMEOUT (nextRound), and each round waits
// for all its answers, so a deployment that serves one request at a time is never left a queue
// that outlasts the spec. When the rounds show that 2×limit+1 requests cannot be answered within
// a minute, were every later round answered as fast as the last, the spec skips and says why and which variable raises the budget. It returns the 429 (nil when
// none came), the number of answers, and whether they all fell within one minute.
func exhaust(req Request) (*Exchange, int, bool) {
	GinkgoHelper()
	hit, n, inAMinute, _, _, _ := exhaustCounting(req, 0)
	return hit, n, inAMinute
}

// exhaustCounting is exhaust that also says when it began, how many requests succeeded and
// what the successes said of X-RateLimit-Remaining (remainders); known is the window's
// X-RateLimit-Limit when req's answers may leave it out (0: read it from the first answer).
func exhaustCounting(req Request, known int64) (hit *Exchange, n int, inAMinute bool, start time.Time, succeeded int, said remainders) {
	GinkgoHelper()
	op := req.Op
	start, said = time.Now(), remainders{lowest: -1}
	first := send(req)
	if first.Status == 429 {
		return first, 1, true, start, 0, said
	}
	if first.Status >= 200 && first.Status < 300 {
		succeeded++
		said.add(first)
	}
	limit, ok := first.HeaderInt("X-RateLimit-Limit")
	if known > 0 {
		limit, ok = known, true
	}
	if !ok || limit < 1 {
		Skip(fmt.Sprintf("%s answered %d without X-RateLimit-Limit, so the window to spend is not known", op.ID, first.Status))
	}
	if limit > int64(cfg.RateLimitMax) {
		Skip(fmt.Sprintf("X-RateLimit-Limit is %d, more than the %d requests this suite may send to spend a window (set %s to allow more)", limit, cfg.RateLimitMax, EnvRateLimitMax))
	}
	need := int(2*limit + 1)
	n = 1
	for k := 1; n < need; {
		k = min(k, need-n)
		began := time.Now()
		var ok int
		var err error
		var round remainders
		hit, ok, round, err = countRound(req, k, time.Time{})
		n += k
		succeeded += ok
		said.merge(round)
		took := time.Since(began)
		switch {
		case hit != nil:
			// The 429 passes the checks every answer gets.
			Expect(hit.StatusListed()).To(BeTrue(), "%s\n\n%s", Cite(rules.STATUS1), hit.Describe())
			Expect(hit).To(ConformToSpec())
			return hit, n, time.Since(start) <= rateWindow, start, succeeded, said
		case err != nil:
			// The interface bounds neither the requests in flight nor their time: a deployment that
			// refuses connections or keeps a request past CONFORMANCE_TIMEOUT breaks no rule it states.
			advice := fmt.Sprintf("lower %s, or raise %s", EnvRateSenders, EnvTimeout)
			if errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				// A POST is not sent again on another connection: whether it was counted is unknown.
				advice = fmt.Sprintf("the deployment closed a kept-alive connection under a request, as a limit of requests per connection or a short idle timeout does; lower %s, or let connections serve more requests", EnvRateSenders)
			}
			Skip(fmt.Sprintf("%s: a request failed while %d were sent at once to spend the rate-limit window (%s); the interface sets no bound on concurrent requests or their time, so this proves nothing (%s)",
				op.ID, k, err, advice))
		}
		if projected := time.Since(start) + spendTime(need-n, nextRound(k, took), took); projected > rateWindow*3/4 {
			Skip(fmt.Sprintf("spending a window of X-RateLimit-Limit %d takes %d requests; %d were answered in %s (the last %d at once in %s), so all of them would take about %s, too close to the minute the limit is counted in to judge (raise %s, or %s)",
				limit, need, n, time.Since(start).Round(time.Millisecond), k, took.Round(time.Millisecond), projected.Round(time.Second), EnvRateSenders, EnvTimeout))
		}
		k = nextRound(k, took)
	}
	return nil, n, time.Since(start) <= rateWindow, start, succeeded, said
}

// heldAtZero fails the spec when the window's limit was not held once spent (LIMIT-4): after
// an answer says none is left, more successes come only as the window frees room, a reset
// (Remaining then rises, and those answers do not say 0) or a bucket's refill, at most Limit a
// minute. Many more successes that each say 0 mean the limit is not held. ex is the first 429.
func heldAtZero(ex *Exchange, said remainders) {
	GinkgoHelper()
	if limit, ok := ex.HeaderInt("X-RateLimit-Limit"); ok && said.zeros > 0 {
		if allowed := 2 + int(float64(limit)*time.Since(said.firstZero).Minutes()); said.zeros > allowed {
			Fail(fmt.Sprintf("%s: %d requests succeeded saying X-RateLimit-Remaining 0 within %s before the first 429; a window refilling Limit %d a minute frees at most %d in that time: the limit was not held at 0\n\n%s", Cite(rules.LIMIT4), said.zeros, time.Since(said.firstZero).Round(time.Millisecond), limit, allowed, ex.Describe()))
		}
	}
}

// remainders is what successes said of X-RateLimit-Remaining: the lowest (-1: none said it),
// how many said 0 and when the first of those was answered.
type remainders struct {
	lowest    int64
	zeros     int
	firstZero time.Time
}

func (r *remainders) add(ex *Exchange) {
	v, ok := ex.HeaderInt("X-RateLimit-Remaining")
	if !ok {
		return
	}
	if r.lowest < 0 || v < r.lowest {
		r.lowest = v
	}
	if v == 0 {
		if r.zeros == 0 {
			r.firstZero = time.Now()
		}
		r.zeros++
	}
}

func (r *remainders) merge(o remainders) {
	if o.lowest >= 0 && (r.lowest < 0 || o.lowest < r.lowest) {
		r.lowest = o.lowest
	}
	if o.zeros > 0 && (r.zeros == 0 || o.firstZero.Before(r.firstZero)) {
		r.firstZero = o.firstZero
	}
	r.zeros += o.zeros
}

// spendRequest is op's request (no body) with tok, never retried on a 429.
func spendRequest(op Operation, tok string) Request {
	return Request{Op: op, As: "a user with a token just issued", Token: tok, NoRetry: true}
}

// nextRound sizes the round after one of k requests that took took: it doubles (up to
// CONFORMANCE_RATE_SENDERS) while a round is answered within a quarter of the timeout, so even a
// deployment serving one request at a time answers the doubled round within half of it; it
// halves past half the timeout. A deployment serving requests at once, however slowly, soon
// gets the widest rounds.
func nextRound(k int, took time.Duration) int {
	switch {
	case took <= cfg.Timeout/4:
		return min(2*k, cfg.RateSenders)
	case took > cfg.Timeout/2:
		return max(1, k/2)
	}
	return k
}

// spendTime is how long the left requests take in rounds from k on, were every round answered
// in took, as the last was.
func spendTime(left, k int, took time.Duration) time.Duration {
	var d time.Duration
	for ; left > 0; k = nextRound(k, took) {
		d += took
		left -= k
	}
	return d
}

// countRound sends k copies of req at once and waits for every answer; it returns the first
// 429, how many were successes answered before by (any time, when by is zero), what they said
// of X-RateLimit-Remaining and the first error of a request that got no answer. Every answer
// is judged as any spec's is (KeepTheContract): an answer breaking a rule of every answer (an
// unlisted 502, a 200 without the rate-limit headers) fails the spec, as it fails in the proxy.
func countRound(req Request, k int, by time.Time) (*Exchange, int, remainders, error) {
	GinkgoHelper()
	var (
		mu      sync.Mutex
		hit     *Exchange
		broken  *Exchange
		ok      int
		said    = remainders{lowest: -1}
		sendErr error
		wg      sync.WaitGroup
	)
	for range k {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ex, err := client.Send(bg, req) // the proxy's own 502 for no answer is an error too (proxyGotNoAnswer)
			mu.Lock()
			defer mu.Unlock()
			if err == nil && !ex.BodyPartial && len(ex.Violations) > 0 && broken == nil {
				broken = ex
			}
			switch {
			case err != nil && sendErr == nil:
				sendErr = err
			case err == nil && ex.Status == 429 && hit == nil:
				hit = ex
			case err == nil && ex.Status >= 200 && ex.Status < 300 && (by.IsZero() || time.Now().Before(by)):
				ok++
				said.add(ex)
			}
		}()
	}
	wg.Wait()
	if broken != nil {
		Expect(broken).To(KeepTheContract())
	}
	return hit, ok, said, sendErr
}

// pastTheFirst429 goes on past the first 429 for the rest of the minute begun at start (rule
// LIMIT-2): a window shorter than a minute shows when, once its Retry-After has passed, more
// than twice X-RateLimit-Limit requests have succeeded within the minute. Successes are
// counted only when answered a margin before the minute ends, so each arrived within it; a
// fixed window lets at most twice the limit through in a minute, a sliding one or a token
// bucket no more. It waits only for a Retry-After that ends within the first half of the
// minute: a minute's window reset later leaves nothing to see.
func pastTheFirst429(req Request, hit *Exchange, start time.Time, succeeded int, limit int64) {
	GinkgoHelper()
	by := start.Add(rateWindow - 2*time.Second)
	for {
		wait, ok := RetryAfter(hit.Header)
		if !ok || time.Now().Add(wait).After(start.Add(rateWindow/2)) {
			return
		}
		By(fmt.Sprintf("waiting out Retry-After %s within the minute; %d requests have succeeded in it", wait, succeeded))
		time.Sleep(wait + time.Second) // a second more: Retry-After counts whole seconds
		for first := true; hit == nil || first; first = false {
			if time.Now().After(by) {
				return
			}
			var n int
			var err error
			hit, n, _, err = countRound(req, cfg.RateSenders, by)
			if err != nil {
				return // no verdict: the interface bounds no concurrency
			}
			if first && n == 0 && hit != nil {
				Fail(fmt.Sprintf("%s\nafter waiting the %s Retry-After said, and a second more, %d requests at once were all refused again: Retry-After did not count the seconds to the reset\n\n%s", Cite(rules.LIMIT6), wait, cfg.RateSenders, hit.Describe()))
			}
			succeeded += n
			if int64(succeeded) > 2*limit {
				Fail(fmt.Sprintf("%s\n%d requests succeeded within one minute, more than twice X-RateLimit-Limit %d: the window is shorter than the minute the limit is counted in", Cite(rules.LIMIT2), succeeded, limit))
			}
		}
	}
}

func rateLimitSpecs(op Operation) {
	// Rule LIMIT-1, judged by the checker the proxy uses (check.Tracker, D123): answers in a row
	// are sent until one counts down or says 0. Three in a row asked for within one request's
	// share of the minute that all keep the same non-zero Remaining break the rule, when nothing
	// was sent a minute before them (judgeStuck: a sliding window lets the requests of a minute
	// ago go at once); a deployment too slow to send three in that share is not judged, since a
	// token bucket rightly refills one request's share meanwhile. Serial: the run's minute
	// before must hold no request of another spec.
	It("counts X-RateLimit-Remaining down on consecutive answers", Serial, Contract(op, AspectRateLimit, "LIMIT-1", "HDR-1"), func(ctx SpecContext) {
		tok := login(member)
		req := Request{Op: op, As: "a member with a token just issued", Token: tok}
		var countedDown bool
		var steps []*Exchange
		stuck := judgeStuck(ctx, func() ([]*Exchange, []time.Time) {
			var answered []time.Time
			countedDown, steps = false, nil
			for range 12 {
				ex := sendCtx(ctx, req)
				rem, ok := ex.HeaderInt("X-RateLimit-Remaining")
				if !ok || ex.Status < 200 || ex.Status > 299 {
					Skip(fmt.Sprintf("the answer was %d with X-RateLimit-Remaining %q: not a success to count down on", ex.Status, ex.Header.Get("X-RateLimit-Remaining")))
				}
				steps, answered = append(steps, ex), append(answered, time.Now())
				if rem == 0 || (len(steps) > 1 && ex.Retries == 0 && rem < remainingOf(steps[len(steps)-2])) {
					countedDown = true
					break
				}
			}
			return steps, answered
		})
		if len(stuck) > 0 {
			Fail(fmt.Sprintf("%s: %s\n\n%s", Cite(rules.LIMIT1), stuck[0].Detail, steps[len(steps)-1].Describe()))
		}
		if !countedDown {
			Skip("twelve answers in a row kept X-RateLimit-Remaining, never three of them within one request's share of the minute (60 seconds / X-RateLimit-Limit): a window refilling at X-RateLimit-Limit a minute may rightly keep it so")
		}
	})

	// Rule LIMIT-2, spent on a token just issued by concurrent senders; skipped (never failed)
	// when the deployment's latency keeps the suite from sending 2×limit+1 requests in a minute.
	It("answers 429 with body shape (b) and Retry-After once X-RateLimit-Limit is spent", Serial, SpendsRateLimit(Contract(op, AspectRateLimit, "LIMIT-2", "LIMIT-4", "LIMIT-6")), func() {
		spend := spendRequest(op, login(superadmin))
		ex, n, inAMinute, start, succeeded, said := exhaustCounting(spend, 0) // a window no other spec uses, so none waits for it
		if ex == nil {
			if succeeded == 0 {
				Skip(fmt.Sprintf("none of %d requests succeeded, so the window was not spent (the token was refused?)", n))
			}
			if !inAMinute {
				Skip(fmt.Sprintf("%d requests took more than a minute without a 429: the limit is per minute, so this proves nothing (raise %s)", n, EnvRateSenders))
			}
			if succeeded < n {
				// A deployment may check the token before it counts a request (a token ended by a
				// login elsewhere, D212): whether refused requests count is not shown.
				Skip(fmt.Sprintf("%d of %d requests were refused with another status than 429 (was the token ended meanwhile?); whether a refused request counts against the limit is not shown, so only %d successes within a minute would prove the limit not kept", n-succeeded, n, n))
			}
			Fail(fmt.Sprintf("%s\n%d requests on one token succeeded within a minute, none answered 429", Cite(rules.LIMIT2), n))
		}
		Expect(ex).To(HaveEnvelopeB())
		Expect(ex).To(HaveRetryAfter())
		Expect(ex).To(HaveRateLimitHeaders())
		Expect(ex).To(KeepTheContract()) // LIMIT-6 among them: a minute's window resets within one
		remaining, _ := ex.HeaderInt("X-RateLimit-Remaining")
		Expect(remaining).To(BeZero(), "%s: none is left once a 429 answers\n\n%s", Cite(rules.LIMIT1), ex.Describe())
		if said.lowest > 0 { // the last request the window allowed said some were left
			Fail(fmt.Sprintf("%s: %d requests succeeded before the first 429, the lowest X-RateLimit-Remaining they said being %d, never 0: what is left was overstated\n\n%s", Cite(rules.LIMIT4), succeeded, said.lowest, ex.Describe()))
		}
		heldAtZero(ex, said)
		limit, _ := ex.HeaderInt("X-RateLimit-Limit")
		pastTheFirst429(spend, ex, start, succeeded, limit)
	})

	// D14: one window per user, so logging in again does not start a new one; Retry-After is
	// whole seconds until the reset (1..60); a 429 does not spend more; another user is not
	// affected.
	It("keeps one window per user with Retry-After of at most 60 seconds", Serial, SpendsRateLimit(Reference(op, AspectRateLimit, "REF-LIMIT")), func() {
		ex, _, _ := exhaust(spendRequest(op, login(superadmin)))
		Expect(ex).NotTo(BeNil(), choiceRateWindow+": the window is spent")
		wait, _ := RetryAfter(ex.Header)
		Expect(wait).To(And(BeNumerically(">=", time.Second), BeNumerically("<=", time.Minute)), choiceRateWindow+": Retry-After\n\n%s", ex.Describe())
		again := send(Request{Op: op, As: "the same superadmin with a token just issued", Token: login(superadmin), NoRetry: true})
		Expect(again).To(HaveStatus(429), choiceRateWindow+": the window is per user, not per token")
		other := send(Request{Op: op, As: "another user", Token: login(member), NoRetry: true})
		Expect(other).To(HaveStatus(200), choiceRateWindow+": another user has a window of its own")
	})
}

// remainingOf is an answer's X-RateLimit-Remaining (0 when it has none).
func remainingOf(ex *Exchange) int64 {
	n, _ := ex.HeaderInt("X-RateLimit-Remaining")
	return n
}
