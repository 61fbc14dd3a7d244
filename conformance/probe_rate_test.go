package conformance_test

import (
	"context"
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/check"
	"github.com/opsapi/mocktoolkit/conformance/rules"
)

var (
	ruleCountDown   = Cite(rules.LIMIT4)
	ruleRefFresh    = Cite(rules.REFLIMITFRESH)
	ruleThumbWindow = Cite(rules.LIMIT5)
)

// rateRun is the number of answers in a row the rate arithmetic reads.
const rateRun = check.RateRun

// rateSteps sends op's required body rateRun times in a row and returns the answers and when
// each came, or skips when one is a 429 (the window is spent: nothing to count).
func rateSteps(ctx context.Context, op Operation) ([]*Exchange, []time.Time) {
	GinkgoHelper()
	body, ok := requiredBody(op)
	if !ok {
		Skip(fmt.Sprintf("the manifest names no record for a required id of %s", op.ID))
	}
	out, answered := make([]*Exchange, 0, rateRun), make([]time.Time, 0, rateRun)
	for range rateRun {
		ex := sendCtx(ctx, Request{Op: op, As: caller(op).String(), Token: token(caller(op), op), Body: body, NoRetry: true})
		if ex.Status == 429 {
			Skip(fmt.Sprintf("%s answered 429: the window is spent, there is nothing to count", op.ID))
		}
		out, answered = append(out, ex), append(answered, time.Now())
	}
	return out, answered
}

// stuckCountDown is LIMIT-1 over the run, judged by the checker's tracker as the proxy judges
// it: three answers in a row, asked for within one request's share of the minute, that leave
// X-RateLimit-Remaining at the same non-zero value, when the tracker has seen every request
// since since (check.Tracker.Watching) and none was sent a minute before the run. The suite
// judged it on tags/list alone, and a deployment whose every other operation never counted
// down passed (LIMIT-4 skipped it as windows ending) where the proxy failed it.
func stuckCountDown(steps []*Exchange, answered []time.Time, since time.Time) []check.Violation {
	tr := check.NewTracker()
	tr.Watching(since)
	var out []check.Violation
	for i, ex := range steps {
		for _, v := range tr.Judge("rate run", ex.Checked(), answered[i].Add(-ex.Latency), answered[i]) {
			if v.Rule == rules.LIMIT1 {
				out = append(out, v)
			}
		}
	}
	return out
}

// quietPause is the last pause of the LIMIT-1 specs: a time in which this process sent
// nothing, and, the specs being Serial (run alone, once every other process is done), nobody
// did; sent is the client's count of requests when it ended.
var quietPause struct {
	start, end time.Time
	sent       int64
}

// slidingQuiet is how long a pause must be for a run after it to be judged: the two minutes a
// sliding-window counter looks back and the checker's slack (check.SlidingQuiet), and a second.
const slidingQuiet = check.SlidingQuiet + time.Second

// judgeStuck is LIMIT-1 over the runs of answers in a row run sends. A rate limiter may forget
// the requests of the minutes before a run quickly enough to keep X-RateLimit-Remaining (a
// sliding log lets those of a minute ago go at once, a sliding-window counter weighs the last
// minute down), so a run keeping it is judged only when the suite knows those minutes held too
// few requests (D123): when it does not (its own specs sent them), the spec pauses, sending
// nothing, and runs again. Only a run that keeps Remaining pauses: a deployment counting down
// costs no wait, a rate limiter's chance run one pause, and the pause then serves the runs
// soon after it. Serial specs only.
func judgeStuck(ctx context.Context, run func() ([]*Exchange, []time.Time)) []check.Violation {
	GinkgoHelper()
	steps, answered := run()
	if len(steps) == 0 || len(stuckCountDown(steps, answered, time.Time{})) == 0 {
		return nil // Remaining moved, whatever the traffic before
	}
	if vs := stuckCountDown(steps, answered, quietSince(steps, answered)); len(vs) > 0 {
		return vs
	}
	By(fmt.Sprintf("answers in a row kept X-RateLimit-Remaining, but a rate limiter may have been forgetting the suite's earlier requests meanwhile: sending nothing for %s, then running again", slidingQuiet))
	quietPause.start = time.Now()
	select {
	case <-ctx.Done():
		Fail("interrupted while pausing for quiet minutes")
	case <-time.After(slidingQuiet):
	}
	quietPause.end, quietPause.sent = time.Now(), client.Sent()
	steps, answered = run()
	return stuckCountDown(steps, answered, quietSince(steps, answered))
}

// quietSince is when the suite's watch of a run begins: the start of the last pause, when the
// run began after it, was answered within the minute after it (the seconds a minute before
// the run lie in the pause) and the suite sent fewer requests since than X-RateLimit-Limit
// less the run's own (the two minutes before it hold no more); else now (nothing known, so
// nothing judged).
func quietSince(steps []*Exchange, answered []time.Time) time.Time {
	first := answered[0].Add(-steps[0].Latency)
	last := answered[len(answered)-1]
	limit, _ := steps[0].HeaderInt("X-RateLimit-Limit")
	since := client.Sent() - quietPause.sent
	if !quietPause.end.IsZero() && !first.Before(quietPause.end) && last.Sub(quietPause.end) < time.Minute-5*time.Second && since+int64(len(steps)) < limit {
		return quietPause.start
	}
	return time.Now()
}

// The rate arithmetic, on every operation that only reads (the others would change the target
// on each request). Serial: another spec calling the same operation at the same time would
// spend the same window.
var _ = Describe("Probes: rate-limit arithmetic", func() {
	for _, op := range Operations {
		if op.Change() != "" || op.Access == Public {
			continue
		}
		probeContext(op, func() {
			// Rules LIMIT-4 and LIMIT-1. A window may end between two answers (Remaining goes
			// up, or, in a sliding window, stays): at most one such step is allowed for, more
			// skip, unless they came too quickly for any window to end (LIMIT-1).
			It("counts X-RateLimit-Remaining down by one per answer under a constant X-RateLimit-Limit", Serial, Probed(Contract(op, AspectRateLimit, "LIMIT-4", "LIMIT-1"), ProbeRate), func(ctx SpecContext) {
				var steps []*Exchange
				stuck := judgeStuck(ctx, func() ([]*Exchange, []time.Time) {
					var answered []time.Time
					steps, answered = rateSteps(ctx, op)
					return steps, answered
				})
				if len(stuck) > 0 {
					Fail(fmt.Sprintf("%s: %s\n\n%s", Cite(rules.LIMIT1), stuck[0].Detail, steps[len(steps)-1].Describe()))
				}
				vs, skip := RateCountDown(steps...)
				if skip != "" {
					Skip(skip)
				}
				Expect(vs).To(BeEmpty(), "%s", ruleCountDown)
			})

			// D14: one fixed window; when Remaining goes up a new window began, whose first
			// answer says Limit - 1.
			It("starts a new window at X-RateLimit-Limit minus one", Serial, Probed(Reference(op, AspectRateLimit, "REF-LIMIT-FRESH"), ProbeRate), func(ctx SpecContext) {
				steps, _ := rateSteps(ctx, op)
				for i := 1; i < len(steps); i++ {
					l, _ := steps[i].HeaderInt("X-RateLimit-Limit")
					a, _ := steps[i-1].HeaderInt("X-RateLimit-Remaining")
					b, _ := steps[i].HeaderInt("X-RateLimit-Remaining")
					if b >= a {
						Expect(b).To(Equal(l-1), "%s\n\n%s", ruleRefFresh, steps[i].Describe())
					}
				}
			})
		})
	}
})

// expectThumbRetryAfter checks rule LIMIT-5 on a thumbnail 429: Retry-After at most 600
// seconds; when it is a minute or less (a window about to end, or a count in minutes), the
// suite waits it out and the project may regenerate again, in a window that has just begun:
// once 5 regenerations succeed in it, the next 429 asks to wait more than a minute (a window of
// one minute answered the first 429 in under a minute, and its end was all the suite checked).
func expectThumbRetryAfter(ctx context.Context, ex *Exchange, retry Request) {
	GinkgoHelper()
	wait, ok := RetryAfter(ex.Header)
	Expect(ok).To(BeTrue(), "%s\n\n%s", ruleThumbWindow, ex.Describe())
	Expect(wait).To(BeNumerically("<=", 10*time.Minute), "%s\n\n%s", ruleThumbWindow, ex.Describe())
	if wait > time.Minute {
		return
	}
	By(fmt.Sprintf("waiting out Retry-After %s, then regenerating again", wait))
	select {
	case <-ctx.Done():
		Fail("interrupted while waiting out Retry-After")
	case <-time.After(wait + 2*time.Second):
	}
	began := time.Now()
	again := sendCtx(ctx, retry)
	Expect(again).NotTo(HaveStatus(429), "%s: Retry-After said %s, and once it passed the regeneration is still refused\n\n%s\n%s", ruleThumbWindow, wait, ex.Describe(), again.Describe())
	if again.Status != 200 {
		return
	}
	By("spending the window that has just begun: its refusal must ask to wait most of its 10 minutes")
	for successes := 1; successes < 5; successes++ {
		next := sendCtx(ctx, retry)
		if next.Status == 429 {
			return // refused before 5 succeeded: LIMIT-3 bounds successes from above only
		}
		Expect(next).To(HaveStatus(200), Cite(rules.DATA1))
	}
	sixth := sendCtx(ctx, retry)
	Expect(sixth).To(HaveStatus(429), "%s: 5 regenerations succeeded in the window that began %s ago", Cite(rules.LIMIT3), time.Since(began).Round(time.Second))
	Expect(sixth).To(HaveRetryAfter())
	left, _ := RetryAfter(sixth.Header)
	Expect(left).To(BeNumerically(">", time.Minute), "%s: the window began %s ago (the earlier refusal ended when its Retry-After said), 5 regenerations succeeded in it, and its refusal asks to wait only %s: a 10-minute window has most of its length left\n\n%s", ruleThumbWindow, time.Since(began).Round(time.Second), left, sixth.Describe())
}
