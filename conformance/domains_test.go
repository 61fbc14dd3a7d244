package conformance_test

import (
	"math"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/opsapi/mocktoolkit/conformance"
)

var _ = Describe("Domain registration area", func() {
	op := OpDomainCartRemove
	remove := func(token string, item int64) *Exchange {
		GinkgoHelper()
		return send(Request{Op: op, As: "an anonymous cart holder", Body: map[string]any{"session_token": token, "cart_item_id": item}})
	}
	// removeFirst removes the first item of the manifest's open carts still there, and skips the
	// spec when none is left (the suite may run twice against the same deployment).
	removeFirst := func(carts []int) (*Exchange, string, int64) {
		GinkgoHelper()
		for _, i := range carts {
			cart := manifest.Domains.Carts[i]
			for _, item := range cart.ItemIDs {
				if ex := remove(cart.SessionToken, item); ex.Status == 200 {
					return ex, cart.SessionToken, item
				}
			}
		}
		Skip("manifest carts exhausted; reset the mock")
		return nil, "", 0
	}
	operation(op, fieldRules{
		base: func() map[string]any { return map[string]any{"session_token": missingToken, "cart_item_id": missingID} },
		constraints: []constraint{
			required("session_token"), typed("session_token", "string"), maxLen("session_token", 64),
			required("cart_item_id"), typed("cart_item_id", "integer"),
		},
	}, func() {
		// MUST: "Removes one item from a cart"; "Response 200: data.cart"; each cart item has an
		// `id` used as cart_item_id — interface §Endpoints 22, §Resources Cart. A removed item does
		// not exist any more: removing it again is 404 — §Errors rule 2.
		It("removes an item: it leaves data.cart.items and a second removal is 404", Contract(op, AspectTransition), func() {
			ex, tok, item := removeFirst([]int{0, 1})
			expectSuccess(ex)
			Expect(ex).To(HaveKind("data.cart", "an object"), RuleCart22)
			Expect(ex).To(HaveKind("data.cart.items", "an array"), RuleCart22)
			Expect(idsOf(ex.Objects("data.cart.items"))).NotTo(ContainElement(item), "%s\n\n%s", RuleCart22, ex.Describe())
			expectNotFound(remove(tok, item), RuleErrors2)
		})

		// MUST: "409 means the cart is locked for checkout"; "404 and 409 are distinct from 422" —
		// interface §Endpoints 22, §Errors rule 3.
		It("answers 409 with body shape (a) for a cart locked for checkout", Contract(op, AspectConflict), func() {
			ex := remove(manifest.Domains.LockedCart.SessionToken, manifest.Domains.LockedCart.ItemID)
			Expect(ex).To(HaveStatus(409), RuleErrors3)
			Expect(ex).To(HaveEnvelopeA(), RuleErrors3)
		})

		// MUST: 404 for a record that does not exist — interface §Errors rule 2 (a cart no
		// session_token names).
		It("answers 404 with body shape (a) for a cart that does not exist", Contract(op, AspectNotFound), func() {
			expectNotFound(remove(missingToken, manifest.Domains.Carts[0].ItemIDs[0]), RuleErrors2)
		})

		// MUST: "The session_token proves that the item belongs to the cart being changed" —
		// interface §Endpoints 22: another cart's token is refused.
		It("refuses an item of one cart with the session token of another", Contract(op, AspectIsolation), func() {
			other := manifest.Domains.Carts[1].SessionToken
			for _, item := range manifest.Domains.Carts[0].ItemIDs {
				Expect(remove(other, item)).To(HaveErrorStatus(), RuleCart22)
			}
		})

		// D35: the wrong token answers 404 and the item stays in its cart (it can still be removed
		// with the right token).
		It("answers 404 to the wrong token and leaves the item in its cart", Reference(op, AspectIsolation), func() {
			right, wrong := manifest.Domains.Carts[0], manifest.Domains.Carts[1].SessionToken
			for _, item := range right.ItemIDs {
				expectNotFound(remove(wrong, item), "D35")
				if ex := remove(right.SessionToken, item); ex.Status == 200 {
					return
				}
			}
			Skip("manifest carts exhausted; reset the mock")
		})

		// D34: item_count is the number of items, total_price the sum of their prices.
		It("recomputes item_count and total_price after a removal", Reference(op, AspectTransition), func() {
			ex, _, _ := removeFirst([]int{1, 0})
			items := ex.Objects("data.cart.items")
			Expect(ex).To(HaveJSON("data.cart.item_count", "the number of items", eqNum(int64(len(items)))), "D34")
			var sum float64
			for _, it := range items {
				p, _ := it["price"].(float64)
				sum += p
			}
			Expect(ex).To(HaveJSON("data.cart.total_price", "the sum of the item prices", func(v any, _ bool) bool {
				f, _ := v.(float64)
				return math.Abs(f-math.Round(sum*100)/100) < 0.005
			}), "D34")
		})

		// D35: a locked cart answers 409 whatever the item.
		It("answers 409 for a locked cart whatever the item", Reference(op, AspectConflict), func() {
			Expect(remove(manifest.Domains.LockedCart.SessionToken, missingID)).To(HaveStatus(409), "D35")
		})
	})
})
