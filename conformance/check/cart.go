package check

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// Cart is what a domain-cart/remove answer says of its cart: the ids of its items (as written,
// so an id past 2^53 keeps its digits) and item_count.
type Cart struct {
	Items []string
	Count int64
	// Counted says item_count was read (an integer); DOC-1 judges it otherwise.
	Counted bool
}

// ReadCart reads the cart of a domain-cart/remove answer; ok is false when it has no
// data.cart object.
func ReadCart(body []byte) (c Cart, ok bool) {
	var v struct {
		Data struct {
			Cart *struct {
				Items []struct {
					ID json.Number `json:"id"`
				} `json:"items"`
				Count json.Number `json:"item_count"`
			} `json:"cart"`
		} `json:"data"`
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if dec.Decode(&v) != nil || v.Data.Cart == nil {
		return c, false
	}
	for _, it := range v.Data.Cart.Items {
		if it.ID != "" {
			c.Items = append(c.Items, it.ID.String())
		}
	}
	count, err := v.Data.Cart.Count.Int64()
	c.Count, c.Counted = count, err == nil
	return c, true
}

// removedItem reads the cart token and item id a domain-cart/remove request names.
func removedItem(reqBody []byte) (token, item string) {
	var req struct {
		Token string      `json:"session_token"`
		Item  json.Number `json:"cart_item_id"`
	}
	dec := json.NewDecoder(bytes.NewReader(reqBody))
	dec.UseNumber()
	if dec.Decode(&req) != nil {
		return "", ""
	}
	return req.Token, req.Item.String()
}

// ItemGone is CART-1 within one answer: a removal answered with the cart still holding the
// item it removed.
func ItemGone(item string, after Cart) []Violation {
	if item == "" || !slices.ContainsFunc(after.Items, func(id string) bool { return sameNumber(id, item) }) {
		return nil
	}
	return []Violation{{Rule: rules.CART1, Detail: fmt.Sprintf("the removal of item %s answered a cart that still holds it (items %s)", item, strings.Join(after.Items, ", "))}}
}

// CartLowered is CART-2 between two answers of one cart: a removal lowers item_count (by how
// much is not shown: an item may count as a line or as units). total_price is not judged: how a
// cart prices its items is not shown (a discount on many may make a removal raise it).
// A cart holding an item it did not hold before is not judged: how items get into a cart is
// not shown, and traffic a proxy watches may add one between two removals.
func CartLowered(before, after Cart) []Violation {
	if !before.Counted || !after.Counted {
		return nil
	}
	for _, id := range after.Items {
		if !slices.ContainsFunc(before.Items, func(b string) bool { return sameNumber(b, id) }) {
			return nil
		}
	}
	if after.Count >= before.Count || after.Count < 0 {
		return []Violation{{Rule: rules.CART2, Detail: fmt.Sprintf("after the cart's previous removal item_count was %d; after this one it is %d", before.Count, after.Count)}}
	}
	return nil
}

// sameNumber tells whether two integers as written are one (an id sent as 007 is 7).
func sameNumber(a, b string) bool {
	x, errX := json.Number(a).Int64()
	y, errY := json.Number(b).Int64()
	return a == b || errX == nil && errY == nil && x == y
}

// maxCarts bounds the carts a Tracker remembers, as maxCallers bounds its callers.
const maxCarts = 4096

// cartMark is the last removal answered for one cart and the items removed from it.
type cartMark struct {
	cart     Cart
	answered time.Time
	removed  map[string]bool
}

// removal is CART-1 and CART-2 across the removals from one cart (keyed by its session token,
// since the operation is public): an item removed before is not removed again with 200, and a
// removal asked for after the previous one was answered lowers item_count from that answer's.
func (t *Tracker) removal(ex Exchange, sent, answered time.Time) []Violation {
	if ex.Op.ID != "domainCartRemove" || RefusedInSuccess(ex.Op, ex.Status, ex.Body) {
		return nil
	}
	token, item := removedItem(ex.ReqBody)
	after, ok := ReadCart(ex.Body)
	if token == "" || item == "" || !ok {
		return nil
	}
	m, known := t.carts[token]
	var vs []Violation
	if known && m.removed[item] {
		vs = append(vs, Violation{Rule: rules.CART1, Detail: fmt.Sprintf("item %s was removed from this cart before, yet its removal answered %d again", item, ex.Status)})
	}
	if known && !sent.Before(m.answered) {
		vs = append(vs, CartLowered(m.cart, after)...)
	}
	if !known {
		if len(t.carts) >= maxCarts {
			t.carts = map[string]cartMark{}
		}
		m.removed = map[string]bool{}
	}
	m.removed[item] = true
	if !sent.Before(m.answered) {
		m.cart, m.answered = after, answered
	}
	t.carts[token] = m
	return vs
}
