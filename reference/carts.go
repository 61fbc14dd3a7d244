package reference

import "math"

// RemoveCartItem removes one item from the anonymous cart its session token names (public).
// Checks run in the order of D35: an unknown token is ENOTFOUND, a locked cart ECONFLICT
// whatever the item, an item not in that cart ENOTFOUND (even if another cart holds it) and
// nothing changes. total_price and item_count are recomputed (D34).
func (s *Store) RemoveCartItem(in RemoveCartItemInput) (Cart, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var f fieldErrors
	f.notBlank("session_token", in.SessionToken) // blank is missing (D44)
	if err := f.err(); err != nil {
		return Cart{}, err
	}
	c, ok := s.carts[in.SessionToken]
	if !ok {
		return Cart{}, Errorf(ENOTFOUND, "Cart not found.")
	}
	if c.Status == CartLocked {
		return Cart{}, Errorf(ECONFLICT, "The cart is locked for checkout.")
	}
	items := make([]CartItem, 0, len(c.Items))
	for _, it := range c.Items {
		if it.ID != in.CartItemID {
			items = append(items, it)
		}
	}
	if len(items) == len(c.Items) {
		return Cart{}, Errorf(ENOTFOUND, "Cart item %d not found in this cart.", in.CartItemID)
	}
	c.Items = items
	c.TotalPrice, c.ItemCount = cartTotal(items), len(items)
	put(s, s.carts, c.SessionToken, c)
	return cloneCart(c), nil
}

// cartTotal is the sum of the item prices rounded to cents (D34).
func cartTotal(items []CartItem) float64 {
	var cents float64
	for _, it := range items {
		cents += math.Round(it.Price * 100)
	}
	return cents / 100
}
