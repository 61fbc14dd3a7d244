package conformance_test

import (
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/opsapi/mocktoolkit/conformance"
	mf "github.com/opsapi/mocktoolkit/conformance/manifest"
	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// operation declares the Context of one operation: the specs every operation shares (auth,
// rate-limit headers, malformed body, field constraints) and then its own.
func operation(op Operation, fr fieldRules, own func()) {
	Context(fmt.Sprintf("%s (%d, POST %s)", op.ID, op.N, op.Path), func() {
		BeforeEach(func() {
			if need := mf.MissingFor(op.ID, missing); len(need) > 0 {
				Skip(fmt.Sprintf("the manifest lacks %s, which the specs of %s use", strings.Join(need, ", "), op.ID))
			}
		})
		authSpecs(op, fr)
		headerSpecs(op, fr)
		malformedSpec(op)
		validationSpecs(op, fr)
		if own != nil {
			own()
		}
	})
}

// probe is a valid body of op that changes nothing worth keeping when it is (wrongly) carried
// out: the operation's base body.
func probe(fr fieldRules) map[string]any {
	if fr.base == nil {
		return map[string]any{}
	}
	return fr.base()
}

func authSpecs(op Operation, fr fieldRules) {
	if op.Access == Public {
		return
	}
	// Rules AUTH-1, ENV-3 (conformance/rules.md).
	It("answers 401 with body shape (b) to a request without a bearer token", WithoutCredential(Contract(op, AspectAuth, "AUTH-1", "ENV-3")), func() {
		ex := send(Request{Op: op, As: "nobody (no Authorization header)", Body: probe(fr)})
		Expect(ex).To(HaveStatus(401), Cite(rules.AUTH2))
		Expect(ex).To(HaveEnvelopeB())
	})

	// Rules AUTH-2, ENV-3 (conformance/rules.md).
	It("answers 401 with body shape (b) to an invalid bearer token", WithoutCredential(Contract(op, AspectAuth, "AUTH-2", "ENV-3")), func() {
		ex := send(Request{Op: op, As: "a caller with an invalid token", Token: BadToken, Body: probe(fr)})
		Expect(ex).To(HaveStatus(401), Cite(rules.AUTH2))
		Expect(ex).To(HaveEnvelopeB())
	})

	if op.Access != Superadmin {
		return
	}
	// Rule AUTH-3 (conformance/rules.md).
	It("answers 403 with body shape (a) or (b) to a member who is not a superadmin", Contract(op, AspectAuth, "AUTH-3"), func() {
		ex := call(member, op, probe(fr))
		Expect(ex).To(HaveStatus(403), Cite(rules.AUTH3))
		Expect(ex).To(HaveEnvelopeAOrB())
	})

	// D4: superadmin refusals answer shape (b).
	It("answers a non-superadmin's 403 with body shape (b)", Reference(op, AspectAuth), func() {
		ex := call(member, op, probe(fr))
		Expect(ex).To(HaveStatus(403), choice403Shape)
		Expect(ex).To(HaveEnvelopeB(), choice403Shape)
	})
}

func headerSpecs(op Operation, fr fieldRules) {
	// Rule HDR-1 (conformance/rules.md).
	It("carries integer X-RateLimit-Limit and X-RateLimit-Remaining headers", Contract(op, AspectRateLimit, "HDR-1"), func() {
		ex := call(caller(op), op, probe(fr))
		Expect(ex).To(HaveRateLimitHeaders())
	})

	if op.Access == Public {
		return
	}
	// Rules HDR-1, AUTH-1 (conformance/rules.md).
	It("carries the rate-limit headers on its 401 answer", WithoutCredential(Contract(op, AspectRateLimit, "HDR-1", "AUTH-1")), func() {
		ex := send(Request{Op: op, As: "nobody (no Authorization header)", Body: probe(fr)})
		Expect(ex).To(HaveStatus(401), Cite(rules.AUTH2))
		Expect(ex).To(HaveRateLimitHeaders())
	})
}

func malformedSpec(op Operation) {
	if op.CodesShown() && !op.Listed(400) {
		// D2: where the interface lists no 400 for the operation, a body that is not JSON answers
		// 422 shape (c), keyed by the fields the operation requires, as if the body were empty
		// (checked after auth: the caller has a valid token).
		It("answers 422 with body shape (c) keyed by its required fields to a body that is not JSON", Reference(op, AspectEnvelope), func() {
			ex := send(Request{Op: op, As: caller(op).String(), Token: token(caller(op), op), RawBody: []byte(`{"oops":`), Intent: Raw})
			Expect(ex).To(HaveStatus(422), choiceBody)
			Expect(ex).To(HaveJSON("errors", "an object keyed by request fields, not \"body\"", func(v any, _ bool) bool {
				errs, ok := v.(map[string]any)
				_, body := errs["body"]
				return ok && len(errs) > 0 && !body
			}), choiceBody)
		})
		return
	}
	// D2: a body that is not JSON answers 400 shape (a) (checked after auth: the caller has a
	// valid token).
	It("answers 400 with body shape (a) to a body that is not JSON", Reference(op, AspectEnvelope), func() {
		ex := send(Request{Op: op, As: caller(op).String(), Token: token(caller(op), op), RawBody: []byte(`{"oops":`), Intent: Raw})
		Expect(ex).To(HaveStatus(400), choiceBody)
		Expect(ex).To(HaveEnvelopeA(), choiceBody)
	})
}

// isolationSpec declares rule ISO-1 for op: the outsider, a user of another project, sending
// body (which names a record of the member's project) is refused with an error status. Which
// one (403, 404, 422) is not shown; that it is one op lists is checked on every answer.
func isolationSpec(op Operation, what string, body func() map[string]any) {
	It("refuses an outsider acting on "+what, Contract(op, AspectIsolation, "ISO-1"), func() {
		ex := call(outsider, op, body())
		Expect(ex).To(HaveErrorStatus(), Cite(rules.ISO1))
	})
}
