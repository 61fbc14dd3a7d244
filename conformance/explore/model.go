package explore

import (
	"fmt"
	"time"

	"pgregory.net/rapid"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/check"

	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// actCart removes cart items: every item of a cart in a row, from a drawn one on, and then
// that one again (CART-2, CART-1); one with the token of another cart (CART-3); one from the
// cart locked for checkout (CART-4). A cart's items are spent once, and CART-2 compares a
// removal's cart with the previous answer of the same case, so a case that spends a cart spends
// it whole: a deployment whose count stuck on one removal only (the cart's second) passed
// when the two removals fell in different cases.
func (r *runner) actCart(t *rapid.T) {
	carts := r.target.m.Domains.Carts
	if len(carts) == 0 {
		t.Skip("the manifest lists no cart")
	}
	i := rapid.IntRange(0, len(carts)-1).Draw(t, "cart")
	items := carts[i].ItemIDs
	if len(items) == 0 {
		t.Skip("the cart has no items")
	}
	j := rapid.IntRange(0, len(items)-1).Draw(t, "cart.item")
	mode := rapid.SampledFrom([]string{"remove", "again", "wrong-token", "locked"}).Draw(t, "cart.mode")
	// i and j are positions drawn in the target's manifest; each environment resolves them in
	// its own (cartAt), since the reference of differential mode may list other carts.
	r.both(t, "cart "+mode, func(e *env) string {
		_, item, _ := e.cartAt(i, j)
		switch mode {
		case "wrong-token":
			if len(e.m.Domains.Carts) < 2 {
				return "no second cart"
			}
			other, _, _ := e.cartAt(i+1, -1)
			ex, _, _ := r.send(t, e, request{op: conformance.OpDomainCartRemove, as: anonymous,
				body: map[string]any{"session_token": other, "cart_item_id": item}})
			if ex.Status >= 200 && ex.Status < 300 {
				r.check(t, e, &violation{Rule: rules.CART3, Reason: "domain-cart/remove removed an item with another cart's token",
					Go: "Expect(ex).To(HaveErrorStatus())", Sh: shRefused()})
			}
			return outcome(ex)
		case "locked":
			lc := e.m.Domains.LockedCart
			tok := secret{v: lc.SessionToken, goExpr: "manifest.Domains.LockedCart.SessionToken", shell: "LOCKED_CART_TOKEN"}
			ex, _, _ := r.send(t, e, request{op: conformance.OpDomainCartRemove, as: anonymous,
				body: map[string]any{"session_token": tok, "cart_item_id": lc.ItemID}})
			if ex.Status != 409 && ex.Status != 429 {
				r.check(t, e, &violation{Rule: rules.CART4, Reason: fmt.Sprintf("domain-cart/remove answered %d for a locked cart", ex.Status),
					Go: "Expect(ex).To(HaveStatus(409))", Sh: shStatus(409)})
			}
			return outcome(ex)
		}
		out := r.removeItem(t, e, i, item)
		for k := 1; k < len(e.m.Domains.Carts[i%len(e.m.Domains.Carts)].ItemIDs); k++ {
			_, next, _ := e.cartAt(i, j+k)
			out += ", " + r.removeItem(t, e, i, next)
		}
		if mode == "again" {
			out += ", " + r.removeItem(t, e, i, item)
		}
		return out
	})
}

// removeItem removes item from the i-th cart of the manifest and checks the answer against the
// cart's previous answer in this case.
func (r *runner) removeItem(t *rapid.T, e *env, i int, item int64) string {
	tok, _, _ := e.cartAt(i, -1)
	key := fmt.Sprintf("%s/%d", tok.v, item)
	ex, idx, _ := r.send(t, e, request{op: conformance.OpDomainCartRemove, as: anonymous, intent: accepted,
		body: map[string]any{"session_token": tok, "cart_item_id": item}})
	switch {
	case ex.Status == 429:
		return "inconclusive"
	case e.removed[key] && ex.Status != 404:
		r.check(t, e, &violation{Rule: rules.CART1, Reason: fmt.Sprintf("domain-cart/remove answered %d for an item removed before", ex.Status),
			Go: "Expect(ex).To(HaveStatus(404))", Sh: shStatus(404)})
	case ex.Status == 200:
		e.removed[key] = true
		r.checkCart(t, e, tok.v, ex, idx)
	}
	return outcome(ex)
}

// checkCart compares a removal's cart (call idx of the trace) with the cart's previous answer
// in this case (CART-2); that the removed item is gone (CART-1) the checker judged on the
// answer itself. The reproduction compares the two answers it receives, not the count this
// run saw: a cart stuck at another count breaks the rule as well.
func (r *runner) checkCart(t *rapid.T, e *env, token string, ex *conformance.Exchange, idx int) {
	after, ok := check.ReadCart(ex.Body)
	if !ok {
		return // DOC-1 judges the shape
	}
	if before, seen := e.cartSeen[token]; seen {
		if vs := check.CartLowered(before.cart, after); len(vs) > 0 {
			goCode, sh := cartLowered(before.at, idx)
			r.check(t, e, &violation{Rule: vs[0].Rule, Reason: "domain-cart/remove did not lower item_count",
				Detail: vs[0].Detail, Go: goCode, Sh: sh})
		}
	}
	e.cartSeen[token] = cartSeen{after, idx}
}

// actSync syncs a master board twice and reads the member's cards around the second sync:
// SYNC-1.
func (r *runner) actSync(t *rapid.T) {
	board := ref{pool: "masterBoard", idx: rapid.IntRange(0, 7).Draw(t, "board")}
	sync := request{op: conformance.OpMasterBoardsSync, as: superadmin, intent: accepted, body: map[string]any{"board_id": board}}
	list := request{op: conformance.OpCardsList, as: member, body: map[string]any{}}
	r.both(t, "sync twice", func(e *env) string {
		first, _, ok := r.send(t, e, sync)
		if !ok {
			return errSkip.Error()
		}
		before, bi, ok1 := r.count(t, e, list, "data.cards")
		second, _, _ := r.send(t, e, sync)
		after, ai, ok2 := r.count(t, e, list, "data.cards")
		if first.Status != 200 || second.Status != 200 || !ok1 || !ok2 {
			return outcome(first) + " " + outcome(second)
		}
		if after != before {
			// A sync may be carried out after its answer (D210): the first one's copies may
			// have arrived between the two counts. Once they have all arrived, a third sync
			// judges it.
			var third *conformance.Exchange
			before, bi, third, after, ai, ok = r.syncSettled(t, e, sync, list)
			if !ok || third.Status != 200 {
				return "inconclusive"
			}
		}
		if after != before {
			goCode, sh := countKept(bi, ai, "data.cards")
			r.check(t, e, &violation{Rule: rules.SYNC1, Reason: "a second master-boards/sync changed the member's card count",
				Detail: fmt.Sprintf("%d cards before the second sync, %d after", before, after), Go: goCode, Sh: sh, Op: sync.op.ID})
		}
		return fmt.Sprintf("%s, count %+d", outcome(second), after-before)
	})
}

// syncSettled waits out the settle time for the copies of the syncs sent so far, counts the
// member's cards, syncs again, waits the settle time once more and counts again. While a found
// failure is being shrunk it does not wait: the settle time at every replay would be minutes.
func (r *runner) syncSettled(t *rapid.T, e *env, sync, list request) (before int64, bi int, ex *conformance.Exchange, after int64, ai int, ok bool) {
	wait := func() bool {
		if r.failure != nil && e == r.target {
			return true
		}
		select {
		case <-r.ctx.Done():
			return false
		case <-time.After(r.settle):
			return true
		}
	}
	if !wait() {
		return
	}
	before, bi, ok = r.count(t, e, list, "data.cards")
	if !ok {
		return
	}
	if ex, _, ok = r.send(t, e, sync); !ok || !wait() {
		return before, bi, ex, 0, -1, false
	}
	after, ai, ok = r.count(t, e, list, "data.cards")
	return
}

// actDeprecate deprecates an approved version (TRANS-5) or the one that is not
// approved (TRANS-4).
func (r *runner) actDeprecate(t *rapid.T) {
	approved := rapid.IntRange(0, 3).Draw(t, "approved") > 0
	pool := "unapproved"
	if approved {
		pool = "approved"
	}
	req := request{op: conformance.OpThemeVersionsDeprecate, as: member,
		body: map[string]any{"version_id": ref{pool: pool, idx: rapid.IntRange(0, 7).Draw(t, "version")}}}
	r.both(t, "deprecate "+pool, func(e *env) string {
		ex, _, ok := r.send(t, e, req)
		if !ok {
			return errSkip.Error()
		}
		success := ex.Status >= 200 && ex.Status < 300
		switch {
		case !approved && success:
			r.check(t, e, &violation{Rule: rules.TRANS4, Reason: "themes/versions/deprecate accepted a version that is not approved",
				Go: "Expect(ex).To(HaveErrorStatus())", Sh: shRefused()})
		case approved && success:
			if s, _ := ex.String("data.theme_status"); s != "deprecated" {
				r.check(t, e, &violation{Rule: rules.TRANS5, Reason: "themes/versions/deprecate answered a theme_status other than deprecated",
					Detail: "theme_status: " + s, Go: "Expect(ex).To(HaveJSON(\"data.theme_status\", \"deprecated\", func(v any, _ bool) bool { return v == \"deprecated\" }))",
					Sh: shField("data.theme_status", "deprecated")})
			}
		}
		return outcome(ex)
	})
}

// actThumbs regenerates thumbnails of the member's project in a burst: LIMIT-3.
func (r *runner) actThumbs(t *rapid.T) {
	n := rapid.IntRange(5, 8).Draw(t, "burst") // one past the limit in a single case, often
	kinds := make([]string, n)
	for i := range kinds {
		kinds[i] = rapid.SampledFrom([]string{"page", "template", "layout"}).Draw(t, "type")
	}
	r.both(t, "thumbnails", func(e *env) string {
		took := 0
		for _, k := range kinds {
			ex, _, _ := r.send(t, e, request{op: conformance.OpThumbnailsRegenerate, as: member, intent: accepted,
				body: map[string]any{"type": k, "entity_id": ref{pool: k}}})
			if ex.Status == 200 {
				e.thumbs++
				took++
			}
			if e.thumbs > 5 && e == r.target {
				goCode, sh := acceptedAtMost(r.callsOf(conformance.OpThumbnailsRegenerate), 5)
				r.check(t, e, &violation{Rule: rules.LIMIT3, Reason: "thumbnails/regenerate accepted a 6th regeneration of the project within 10 minutes",
					Detail: fmt.Sprintf("%d accepted in this case", e.thumbs), Go: goCode, Sh: sh})
			}
		}
		return fmt.Sprintf("%d accepted", took)
	})
}

// actStatus moves a tour card's or a master card's status: TRANS-1.
func (r *runner) actStatus(t *rapid.T) {
	var req request
	var status string
	if rapid.Bool().Draw(t, "tour") {
		status = rapid.SampledFrom([]string{"open", "closed"}).Draw(t, "status")
		req = request{op: conformance.OpTourCardsUpdate, as: member, intent: accepted,
			body: map[string]any{"id": ref{pool: "tourCard", idx: rapid.IntRange(0, 7).Draw(t, "card")}, "status": status}}
	} else {
		status = rapid.SampledFrom([]string{"open", "in_progress", "closed", "to_check", "blocked"}).Draw(t, "status")
		req = request{op: conformance.OpMasterCardsUpdate, as: superadmin, intent: accepted,
			body: map[string]any{"id": ref{pool: "createdMasterCard", idx: rapid.IntRange(0, 7).Draw(t, "card")}, "status": status}}
	}
	r.both(t, req.op.ID+" status", func(e *env) string {
		ex, _, ok := r.send(t, e, req)
		if !ok {
			return errSkip.Error()
		}
		// Judged by the one checker, as the suite and the proxy judge it: explore sends one
		// request at a time, so no other update overlaps this one.
		if vs := check.GivenStatus(ex.Checked()); len(vs) > 0 {
			r.check(t, e, &violation{Rule: rules.TRANS1, Reason: req.op.ID + " answered the card with another status than it set",
				Detail: vs[0].Detail, Go: "expectTheStatusGiven(ex)", Sh: shField("data.card.status", status)})
		}
		return outcome(ex)
	})
}

// callsOf lists the calls of op in the case so far, by their index in the trace.
func (r *runner) callsOf(op conformance.Operation) []int {
	var out []int
	for i, c := range r.trace {
		if c.Op.ID == op.ID {
			out = append(out, i)
		}
	}
	return out
}
