package conformance_test

import (
	"fmt"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/nearmiss"
	"github.com/opsapi/mocktoolkit/conformance/rules"
)

var rulePublicAuth = Cite(rules.AUTH7)

// The auth-form matrix: every operation that needs a token is sent the member's token in each
// wrong form; every public operation is sent a stray Authorization header, which must not
// change its answer.
var _ = Describe("Probes: authentication forms", func() {
	for _, op := range Operations {
		probeContext(op, func() {
			if op.Access == Public {
				publicAuthSpecs(op)
				return
			}
			for _, form := range slices.Concat(nearmiss.WrongAuthForms, nearmiss.AlteredTokens) {
				// Rule AUTH-6 (a wrong form) or AUTH-2 (a token the deployment did not issue,
				// however close to one it did), and ENV-3. The body names no record the
				// operation acts on, so a token wrongly let through changes nothing.
				It("answers 401 with body shape (b) to "+form.What, authFormEffect(op, Probed(Contract(op, AspectAuth, string(form.Rule), "ENV-3"), ProbeAuthForm)), func(ctx SpecContext) {
					tok := token(member, op)
					ex := sendCtx(ctx, Request{Op: op, As: form.What, Authorization: form.Header(tok), Body: harmless(op)})
					Expect(ex).To(HaveStatus(401), Cite(form.Rule))
					Expect(ex).To(HaveEnvelopeB(), Cite(form.Rule))
				})
			}
		})
	}
})

// authFormEffect labels an auth-form probe of op: a read (the body names no record op acts
// on), but on a create effect:write, as a target that wrongly accepts the token creates (D130).
func authFormEffect(op Operation, l Labels) Labels {
	if op.Change() == "creates" {
		return l
	}
	return WithoutCredential(l)
}

// publicProbe is a request to a public operation that changes nothing, and what it is.
func publicProbe(op Operation) (Request, string) {
	GinkgoHelper()
	switch op.ID {
	case OpAuthenticate.ID:
		return Request{Op: op, Body: map[string]any{"email": "not an address"}, Intent: Invalid}, "a login without a password"
	case OpDomainCartRemove.ID:
		body, ok := requiredBody(op)
		if !ok {
			Skip("the manifest names no cart")
		}
		body["cart_item_id"] = missingID
		return Request{Op: op, Body: body}, "a removal of an item no cart holds"
	}
	Fail(fmt.Sprintf("suite bug: no probe for the public operation %s", op.ID))
	return Request{}, ""
}

func publicAuthSpecs(op Operation) {
	// Authenticate's codes are not shown, and Authentication (2) gives an invalid token 401
	// without naming the operations: there the rule is the reference's choice (D215), on cart
	// removal, whose listed codes have no 401, the contract's.
	contract, rule := op.ID != OpAuthenticate.ID, rulePublicAuth
	if !contract {
		rule = choiceStrayAuth + "; " + rulePublicAuth
	}
	for _, stray := range nearmiss.StrayAuthForms {
		// Rule AUTH-7: the answer with the header is the answer without it.
		It("answers as without it when sent "+stray.What, Probed(Profile(contract, op, AspectAuth, "AUTH-7"), ProbeAuthForm), func(ctx SpecContext) {
			req, what := publicProbe(op)
			req.As = "nobody (" + what + ")"
			plain := sendCtx(ctx, req)
			req.As = "a caller sending " + stray.What + " (" + what + ")"
			req.Authorization = stray.Header(token(member, OpCardsList))
			with := sendCtx(ctx, req)
			Expect(with).NotTo(HaveStatus(401), "%s\n\n%s", rule, with.Describe())
			Expect(with.Status).To(Equal(plain.Status), "%s: %d without the header, %d with it\n\n%s\n%s", rule, plain.Status, with.Status, plain.Describe(), with.Describe())
		})
	}
}
