package conformance_test

import (
	"fmt"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/rules"
)

var rulePublicAuth = Cite(rules.AUTH7)

// An authForm is a wrong way to send the member's bearer token, and the rule that refuses it.
type authForm struct {
	what   string
	header func(tok string) string
	rule   rules.ID
}

// authForms send the member's token in a form other than `Bearer <token>` (AUTH-6).
var authForms = []authForm{
	{"the member's token without the Bearer scheme", func(tok string) string { return tok }, rules.AUTH6},
	{"the member's token under the Basic scheme", func(tok string) string { return "Basic " + tok }, rules.AUTH6},
	{"the member's token under the Token scheme", func(tok string) string { return "Token " + tok }, rules.AUTH6},
	{"the Bearer scheme with no token", func(string) string { return "Bearer" }, rules.AUTH6},
	{"the member's token after the scheme twice", func(tok string) string { return "Bearer Bearer " + tok }, rules.AUTH6},
}

// alteredTokens are bearer tokens the deployment did not issue, made from the member's: one a
// deployment that compares only a token's start (a column that truncates, bcrypt's 72 bytes,
// a LIKE 'prefix%' lookup) would take. Two characters are changed, not one: the last character
// of a base64 segment may differ in bits a decoder ignores (AUTH-2).
var alteredTokens = []authForm{
	{"the member's token cut to its first half", func(tok string) string { return "Bearer " + tok[:len(tok)/2] }, rules.AUTH2},
	{"the member's token with characters added", func(tok string) string { return "Bearer " + tok + "x0" }, rules.AUTH2},
	{"the member's token with two characters in its middle changed", func(tok string) string { return "Bearer " + changeMiddle(tok) }, rules.AUTH2},
}

// changeMiddle changes the two characters in the middle of tok (the one, in a token of one)
// to characters of another kind: a letter for a digit, a digit for any other.
func changeMiddle(tok string) string {
	b := []byte(tok)
	for i := len(b) / 2; i < min(len(b), len(b)/2+2); i++ {
		if b[i] >= '0' && b[i] <= '9' {
			b[i] = 'Q'
		} else {
			b[i] = '7'
		}
	}
	return string(b)
}

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
			for _, form := range slices.Concat(authForms, alteredTokens) {
				// Rule AUTH-6 (a wrong form) or AUTH-2 (a token the deployment did not issue,
				// however close to one it did), and ENV-3. The body names no record the
				// operation acts on, so a token wrongly let through changes nothing.
				It("answers 401 with body shape (b) to "+form.what, authFormEffect(op, Probed(Contract(op, AspectAuth, string(form.rule), "ENV-3"), ProbeAuthForm)), func(ctx SpecContext) {
					tok := token(member, op)
					ex := sendCtx(ctx, Request{Op: op, As: form.what, Authorization: form.header(tok), Body: harmless(op)})
					Expect(ex).To(HaveStatus(401), Cite(form.rule))
					Expect(ex).To(HaveEnvelopeB(), Cite(form.rule))
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
	strays := []authForm{
		{"an unknown bearer token", func(string) string { return "Bearer " + BadToken }, rules.AUTH7},
		{"the member's bearer token", func(tok string) string { return "Bearer " + tok }, rules.AUTH7},
		{"a malformed Authorization header", func(string) string { return "Basic x" }, rules.AUTH7},
	}
	// Authenticate's codes are not shown, and Authentication (2) gives an invalid token 401
	// without naming the operations: there the rule is the reference's choice (D215), on cart
	// removal, whose listed codes have no 401, the contract's.
	contract, rule := op.ID != OpAuthenticate.ID, rulePublicAuth
	if !contract {
		rule = choiceStrayAuth + "; " + rulePublicAuth
	}
	for _, stray := range strays {
		// Rule AUTH-7: the answer with the header is the answer without it.
		It("answers as without it when sent "+stray.what, Probed(Profile(contract, op, AspectAuth, "AUTH-7"), ProbeAuthForm), func(ctx SpecContext) {
			req, what := publicProbe(op)
			req.As = "nobody (" + what + ")"
			plain := sendCtx(ctx, req)
			req.As = "a caller sending " + stray.what + " (" + what + ")"
			req.Authorization = stray.header(token(member, OpCardsList))
			with := sendCtx(ctx, req)
			Expect(with).NotTo(HaveStatus(401), "%s\n\n%s", rule, with.Describe())
			Expect(with.Status).To(Equal(plain.Status), "%s: %d without the header, %d with it\n\n%s\n%s", rule, plain.Status, with.Status, plain.Describe(), with.Describe())
		})
	}
}
