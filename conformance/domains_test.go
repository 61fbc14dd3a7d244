package conformance_test

import (
	"fmt"
	"math"
	"sort"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/fixtures"

	"github.com/opsapi/mocktoolkit/conformance/check"
	"github.com/opsapi/mocktoolkit/conformance/rules"
)

var _ = Describe("Domain registration area", func() {
	op := OpDomainCartRemove
	remove := func(token string, item int64) *Exchange {
		GinkgoHelper()
		return send(Request{Op: op, As: "an anonymous cart holder", Body: map[string]any{"session_token": token, "cart_item_id": item}})
	}
	// takeRun removes, with its own token, the first item of a manifest cart still there, in a
	// cart whose manifest lists at least n items from that one on, and returns the answer, the
	// cart and the index of the removed item. Cart specs are Serial and take items in manifest
	// order, so every item after the one removed is still in its cart (an earlier run of the
	// suite took items in the same order). Skips when no cart has n items left.
	takeRun := func(n int, largestFirst bool) (*Exchange, fixtures.ManifestCart, int) {
		GinkgoHelper()
		order := make([]int, len(manifest.Domains.Carts))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool {
			la, lb := len(manifest.Domains.Carts[order[a]].ItemIDs), len(manifest.Domains.Carts[order[b]].ItemIDs)
			if largestFirst {
				return la > lb
			}
			return la < lb
		})
		for _, c := range order {
			cart := manifest.Domains.Carts[c]
			for i, item := range cart.ItemIDs {
				if len(cart.ItemIDs)-i < n {
					break
				}
				if ex := remove(cart.SessionToken, item); ex.Status == 200 {
					return ex, cart, i
				}
			}
		}
		Skip(fmt.Sprintf("no manifest cart has %d items left (earlier runs removed them); reset the deployment's carts", n))
		return nil, fixtures.ManifestCart{}, 0
	}
	removeFirst := func() (*Exchange, string, int64) {
		GinkgoHelper()
		ex, cart, i := takeRun(1, false)
		return ex, cart.SessionToken, cart.ItemIDs[i]
	}
	otherToken := func(cart fixtures.ManifestCart) string {
		for _, c := range manifest.Domains.Carts {
			if c.SessionToken != cart.SessionToken {
				return c.SessionToken
			}
		}
		return missingToken
	}
	operation(op, fieldRules{
		base: func() map[string]any { return map[string]any{"session_token": missingToken, "cart_item_id": missingID} },
		constraints: []constraint{
			required("session_token"), typed("session_token", "string"), maxLen("session_token", 64),
			required("cart_item_id"), typed("cart_item_id", "integer"),
		},
	}, func() {
		// Rule CART-1 (conformance/rules.md).
		It("removes an item: it leaves data.cart.items and a second removal is 404", Serial, Contract(op, AspectTransition, "CART-1"), func() {
			ex, tok, item := removeFirst()
			expectSuccess(ex)
			Expect(ex).To(HaveKind("data.cart", "an object"), Cite(rules.CART1))
			Expect(ex).To(HaveKind("data.cart.items", "an array"), Cite(rules.CART1))
			Expect(ex).To(KeepTheContract(), "%s: item %d is no longer in data.cart.items", Cite(rules.CART1), item)
			expectNotFound(remove(tok, item), Cite(rules.ERR4))
		})

		// Rules CART-4, ENV-2 (conformance/rules.md).
		It("answers 409 with body shape (a) for a cart locked for checkout", Contract(op, AspectConflict, "CART-4", "ENV-2"), func() {
			ex := remove(manifest.Domains.LockedCart.SessionToken, manifest.Domains.LockedCart.ItemID)
			Expect(ex).To(HaveStatus(409), Cite(rules.CART4))
			Expect(ex).To(HaveEnvelopeA())
		})

		// Rules ERR-4, ENV-2 (conformance/rules.md).
		It("answers 404 with body shape (a) for a cart that does not exist", Contract(op, AspectNotFound, "ERR-4", "ENV-2"), func() {
			expectNotFound(remove(missingToken, manifest.Domains.Carts[0].ItemIDs[0]), Cite(rules.ERR4))
		})

		// Rule CART-2: two removals in a row from one cart each lower item_count. What item_count
		// counts is not shown (a cart item's shape is not either: lines or units of them), so not
		// by how much; that it is the number of entries of items, and total_price the sum of
		// their prices, is the reference's choice (D34, REF-COUNTS). How a cart prices its items
		// is not shown, so total_price is not judged here.
		It("lowers item_count with each removal", Serial, Contract(op, AspectTransition, "CART-2"), func() {
			first, cart, i := takeRun(2, true)
			second := remove(cart.SessionToken, cart.ItemIDs[i+1])
			Expect(second).To(HaveStatus(200), "%s: the next item of the cart (manifest order) is still there", Cite(rules.CART1))
			before, _ := check.ReadCart(first.Body)
			after, _ := check.ReadCart(second.Body)
			failOn(check.CartLowered(before, after), rules.CART2, second)
		})

		// Rule CART-3: a removal with another cart's token, or with a token that is only like the
		// cart's own (its first half, or its last character changed), is refused, and the item
		// stays in its cart: its own token then removes it. (Not its case or trailing blanks:
		// a database may compare text without them.)
		It("refuses an item with another cart's session token and leaves it in its cart", Serial, Contract(op, AspectIsolation, "CART-3"), func() {
			_, cart, i := takeRun(2, true)
			item := cart.ItemIDs[i+1]
			By("removing the next item with the session token of another cart")
			Expect(remove(otherToken(cart), item)).To(HaveErrorStatus(), Cite(rules.CART3))
			own := cart.SessionToken
			// Of another kind, never the same letter in another case, which a database's
			// comparison may ignore.
			last := "7"
			if c := own[len(own)-1]; c >= '0' && c <= '9' {
				last = "x"
			}
			for what, tok := range map[string]string{"its first half": own[:max(len(own)/2, 1)], "its last character changed": own[:len(own)-1] + last} {
				By("removing it with the cart's own token, " + what)
				Expect(remove(tok, item)).To(HaveErrorStatus(), "%s: a token that is only like the cart's (%s) proves nothing", Cite(rules.CART3), what)
			}
			By("removing it with its own cart's token")
			Expect(remove(cart.SessionToken, item)).To(HaveStatus(200), "%s: the refused removal must leave the item in its cart", Cite(rules.CART3))
		})

		// Rule CART-4: a locked cart refuses removal, again and again (the item stays).
		It("answers 409 again to a second removal from a locked cart", Contract(op, AspectConflict, "CART-4"), func() {
			for range 2 {
				ex := remove(manifest.Domains.LockedCart.SessionToken, manifest.Domains.LockedCart.ItemID)
				Expect(ex).To(HaveStatus(409), Cite(rules.CART4))
				Expect(ex).To(HaveEnvelopeA())
			}
		})

		// D35: the wrong token answers 404 and the item stays in its cart (it can still be removed
		// with the right token).
		It("answers 404 to the wrong token and leaves the item in its cart", Serial, Reference(op, AspectIsolation, "REF-CART"), func() {
			_, cart, i := takeRun(2, true)
			item := cart.ItemIDs[i+1]
			expectNotFound(remove(otherToken(cart), item), choiceCartChecks)
			Expect(remove(cart.SessionToken, item)).To(HaveStatus(200), choiceCartChecks+": the item stays in its cart")
		})

		// D34: item_count is the number of items, total_price the sum of their prices.
		It("recomputes item_count and total_price after a removal", Serial, Reference(op, AspectTransition, "REF-COUNTS"), func() {
			ex, _, _ := removeFirst()
			items := ex.Objects("data.cart.items")
			Expect(ex).To(HaveJSON("data.cart.item_count", "the number of items", eqNum(int64(len(items)))), choiceCarts)
			var sum float64
			for _, it := range items {
				p, _ := Number(it["price"])
				sum += p
			}
			Expect(ex).To(HaveJSON("data.cart.total_price", "the sum of the item prices", func(v any, _ bool) bool {
				f, _ := Number(v)
				return math.Abs(f-math.Round(sum*100)/100) < 0.005
			}), choiceCarts)
		})

		// D35: a locked cart answers 409 whatever the item.
		It("answers 409 for a locked cart whatever the item", Reference(op, AspectConflict, "REF-CART"), func() {
			Expect(remove(manifest.Domains.LockedCart.SessionToken, missingID)).To(HaveStatus(409), choiceCartChecks)
		})
	})
})
