package conformance_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// The window of every operation: each operation's X-RateLimit-Limit is the most requests it
// answers in a minute (Limits), so each must answer 429, with Retry-After (HDR-2, judged on
// every answer), once its window is spent: an operation that only counts down, or whose 429
// lacks Retry-After, is caught on that operation, not only on tags/list (LIMIT-2's own spec).
//
// The requests change nothing (windowBody). They go last (SpecPriority -1, and Serial, so at
// the end of a parallel run too): a spent window would otherwise hold back the specs after it
// on the same operation by up to a minute. Skipped where the requests are not counted (the
// deployment's own Remaining does not go down on them: some deployments count only what passes
// validation, or lookups), and for thumbnails (whose ten-minute project window LIMIT-3 counts).
// Authenticate's window is spent with valid logins of the outsider (a deployment may throttle
// failed logins by a rule of its own, sooner): every login issues a token and changes nothing
// else the run reads, and the probes run last.
var _ = Describe("Probes: the rate-limit window of every operation", Serial, SpecPriority(-1), func() {
	for _, op := range Operations {
		if op.ID == OpThumbnailsRegenerate.ID || op.ID == OpTagsList.ID || op.ID == OpAuthenticate.ID {
			continue // tags/list: LIMIT-2's own spec; authenticate: below, last of all
		}
		windowProbe(op)
	}
})

// Authenticate's window goes last of all: once spent, it holds back every later login for up
// to a minute.
var _ = Describe("Probes: the rate-limit window of authenticate", Serial, SpecPriority(-2), func() {
	windowProbe(OpAuthenticate)
})

// windowProbe declares the probe of op's window (LIMIT-2, LIMIT-4, LIMIT-6).
func windowProbe(op Operation) {
	probeContext(op, func() {
		// Rule LIMIT-2, on this operation.
		It("answers 429 with body shape (b) and Retry-After once X-RateLimit-Limit is spent", SpendsRateLimit(Probed(Contract(op, AspectRateLimit, "LIMIT-2", "LIMIT-4", "LIMIT-6"), ProbeWindow)), func() {
			body, what, intent := windowBody(op)
			if body == nil {
				Skip(what)
			}
			tok := ""
			if op.Access != Public {
				tok = login(superadmin)
			}
			var limit int64 // known when the requests are answered without rate-limit headers
			By("checking that " + what + " count against the window")
			first := send(Request{Op: op, As: "a user with a token just issued", Token: tok, Body: body, Intent: intent, NoRetry: true})
			second := send(Request{Op: op, As: "the same user", Token: tok, Body: body, Intent: intent, NoRetry: true})
			if second.Status != 429 {
				a, okA := first.HeaderInt("X-RateLimit-Remaining")
				b, okB := second.HeaderInt("X-RateLimit-Remaining")
				switch {
				case !okA || !okB:
					if limit = countedBetween(op, tok, body, intent); limit == 0 {
						Skip(fmt.Sprintf("%s: %s are answered %d without X-RateLimit-Remaining, and the valid requests around two of them do not show them counted, so they cannot be seen to spend its window", op.ID, what, second.Status))
					}
				case b >= a:
					Skip(fmt.Sprintf("%s: %s do not count down X-RateLimit-Remaining (%d, then %d), so they cannot spend its window", op.ID, what, a, b))
				}
			}
			By("spending the window with " + what)
			ex, n, inAMinute, _, _, said := exhaustCounting(Request{Op: op, As: "a user with a token just issued", Token: tok, Body: body, Intent: intent, NoRetry: true}, limit)
			if ex == nil {
				if !inAMinute {
					Skip(fmt.Sprintf("%d requests took more than a minute without a 429: the limit is per minute, so this proves nothing (raise %s)", n, EnvRateSenders))
				}
				Fail(fmt.Sprintf("%s\n%s: %d requests (%s) were answered within a minute, none with 429", Cite(rules.LIMIT2), op.ID, n, what))
			}
			Expect(ex).To(HaveEnvelopeB())
			Expect(ex).To(HaveRetryAfter())
			Expect(ex).To(HaveRateLimitHeaders())
			Expect(ex).To(KeepTheContract()) // LIMIT-6 among them
			if intent == Valid {             // an invalid request may be refused before its window is read
				heldAtZero(ex, said)
			}
		})
	})

}

// countedBetween tells whether two requests of body, answered without rate-limit headers (a
// validation error may leave them out), spend op's window all the same: the valid requests
// sent before and after them (requiredBody: a create makes a record) must show X-RateLimit-
// Remaining three lower, not one. It returns the window's X-RateLimit-Limit when they count,
// else 0.
func countedBetween(op Operation, tok string, body map[string]any, intent Intent) int64 {
	GinkgoHelper()
	valid, ok := requiredBody(op)
	if !ok || intent != Invalid {
		return 0
	}
	By("sending valid requests around two invalid ones, to see whether those count")
	before := send(Request{Op: op, As: "the same user", Token: tok, Body: valid, NoRetry: true})
	for range 2 {
		send(Request{Op: op, As: "the same user", Token: tok, Body: body, Intent: intent, NoRetry: true})
	}
	valid, _ = requiredBody(op) // names and titles of its own: a deployment may keep them unique (D217)
	after := send(Request{Op: op, As: "the same user", Token: tok, Body: valid, NoRetry: true})
	a, okA := before.HeaderInt("X-RateLimit-Remaining")
	b, okB := after.HeaderInt("X-RateLimit-Remaining")
	limit, okL := after.HeaderInt("X-RateLimit-Limit")
	if !okA || !okB || !okL || a-b != 3 {
		return 0
	}
	return limit
}

// windowBody is a request of op that changes nothing, and what it is: a valid login for
// authenticate; a read as it is; an
// operation on a record with that record absent (its required fields, the record's id naming
// none: 404 where the operation lists it), or a create naming no record in a required id it must
// refuse (ID-1); else a create with its first required field left out (a validation error, sent
// as one). Nil when there is none.
func windowBody(op Operation) (map[string]any, string, Intent) {
	if op.ID == OpAuthenticate.ID {
		c := outsider.credentials()
		if c.Email == "" || c.Password == "" {
			return nil, "the manifest gives no credentials for the outsider, whose valid logins would spend authenticate's window", Valid
		}
		return map[string]any{"email": c.Email, "password": c.Password}, "valid logins of the outsider", Valid
	}
	body, ok := requiredBody(op)
	if !ok {
		return nil, fmt.Sprintf("the manifest names no record for a required id of %s", op.ID), Valid
	}
	if op.Change() == "" {
		return body, "reads", Valid
	}
	for _, f := range IDFields() {
		if f.Op.ID == op.ID && (stated404(f) || f.Required && f.MustRefuseAbsent()) {
			body[f.Name] = missingID
			return body, fmt.Sprintf("requests naming no record in %s", f.Name), Valid
		}
	}
	if op.Request != nil && len(op.Request.Required) > 0 {
		field := op.Request.Required[0]
		delete(body, field)
		return body, fmt.Sprintf("requests without the required %s", field), Invalid
	}
	return nil, fmt.Sprintf("%s has no request the suite can send that changes nothing", op.ID), Valid
}
