package check_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/conformance/check"
	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// removal is a 200 answer of domain-cart/remove of item from cart tok, the cart then holding
// items, item_count count and total_price total.
func removal(t *testing.T, tok string, item int, items []int, count int, total float64) check.Exchange {
	list := "["
	for i, id := range items {
		if i > 0 {
			list += ","
		}
		list += fmt.Sprintf(`{"id":%d,"price":1.5}`, id)
	}
	ex := answer(op(t, "domainCartRemove"), "59", fmt.Sprintf(`{"session_token":%q,"cart_item_id":%d}`, tok, item),
		fmt.Sprintf(`{"error":false,"message":"Item removed from cart.","data":{"cart":{"session_token":%q,"status":"open","currency":"USD","total_price":%v,"item_count":%d,"is_claimed":false,"items":%s]}}}`,
			tok, total, count, list))
	ex.Header.Set("Content-Type", "application/json")
	return ex
}

// A removal answered with the cart still holding the item breaks CART-1, judged within the one
// answer, whoever judges it.
func TestRemovedItemStillInTheCart(t *testing.T) {
	kept := removal(t, "tok", 2, []int{2, 3}, 2, 10)
	if ids := check.IDs(check.Judge(context.Background(), kept)); !slices.Contains(ids, rules.CART1) {
		t.Errorf("a cart still holding the removed item: %v, want CART-1", ids)
	}
	gone := removal(t, "tok", 2, []int{3}, 1, 5)
	if ids := check.IDs(check.Judge(context.Background(), gone)); len(ids) > 0 {
		t.Errorf("a right removal: %v", ids)
	}
}

// Across the removals from one cart (keyed by its token, the operation being public): an item
// removed before is not removed again with 200 (CART-1), and each removal lowers item_count
// (CART-2; total_price is not judged). Overlapping removals are not compared.
func TestCartRemovalsInARow(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	judge := func(tr *check.Tracker, ex check.Exchange, sentMs, answeredMs int) []rules.ID {
		sent := start.Add(time.Duration(sentMs) * time.Millisecond)
		return check.IDs(tr.Judge("", ex, sent, start.Add(time.Duration(answeredMs)*time.Millisecond)))
	}
	for _, c := range []struct {
		name          string
		first, second check.Exchange
		overlap       bool
		want          []rules.ID
	}{
		{"two items removed, count and price lowered", removal(t, "a", 1, []int{2, 3}, 2, 10), removal(t, "a", 2, []int{3}, 1, 5), false, nil},
		{"units counted: a line of three units removed", removal(t, "a", 1, []int{2, 3}, 5, 10), removal(t, "a", 2, []int{3}, 2, 5), false, nil},
		{"the same item removed twice with 200", removal(t, "a", 1, []int{2, 3}, 2, 10), removal(t, "a", 1, []int{2, 3}, 2, 10), false, []rules.ID{rules.CART1, rules.CART2}},
		{"item_count kept", removal(t, "a", 1, []int{2, 3}, 2, 10), removal(t, "a", 2, []int{3}, 2, 5), false, []rules.ID{rules.CART2}},
		{"total_price raised (a discount on many items lost)", removal(t, "a", 1, []int{2, 3}, 2, 10), removal(t, "a", 2, []int{3}, 1, 11), false, nil},
		{"another cart's removal is not compared", removal(t, "a", 1, []int{2, 3}, 2, 10), removal(t, "b", 2, []int{3, 4}, 2, 20), false, nil},
		{"an item added between the removals", removal(t, "a", 1, []int{2, 3}, 2, 10), removal(t, "a", 2, []int{3, 9}, 2, 12), false, nil},
		{"overlapping removals are not compared", removal(t, "a", 1, []int{2, 3}, 2, 10), removal(t, "a", 2, []int{1, 3}, 2, 15), true, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := check.NewTracker()
			if ids := judge(tr, c.first, 0, 10); len(ids) > 0 {
				t.Fatalf("the first removal: %v", ids)
			}
			sent := 20
			if c.overlap {
				sent = 5
			}
			if ids := judge(tr, c.second, sent, 30); !slices.Equal(ids, c.want) {
				t.Errorf("the second removal: %v, want %v", ids, c.want)
			}
		})
	}
	t.Run("forgotten when the records are replaced", func(t *testing.T) {
		tr := check.NewTracker()
		judge(tr, removal(t, "a", 1, []int{2}, 1, 5), 0, 10)
		tr.Forget()
		if ids := judge(tr, removal(t, "a", 1, []int{2}, 2, 10), 20, 30); len(ids) > 0 {
			t.Errorf("after Forget: %v", ids)
		}
	})
}
