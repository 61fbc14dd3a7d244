package reference

import (
	"fmt"
	"math"
	"strings"
	"unicode"
)

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

// MaxDomainName is the longest domain name a cart item holds, as DNS bounds names (D34).
const MaxDomainName = 253

// CheckDomainName reports why name cannot be a cart item's domain (D34), or nil: at most 253
// characters, two or more labels separated by dots, each 1 to 63 letters (any script, for
// internationalised names), digits or '-', not starting or ending with '-'. The last label is
// the item's tld.
func CheckDomainName(name string) error {
	if n := len([]rune(name)); n > MaxDomainName {
		return fmt.Errorf("want at most %d characters, got %d", MaxDomainName, n)
	}
	labels := strings.Split(name, ".")
	if len(labels) < 2 {
		return fmt.Errorf("want a name with a top-level domain, e.g. example.com")
	}
	for _, l := range labels {
		switch {
		case l == "":
			return fmt.Errorf("want labels between its dots, e.g. example.com")
		case len([]rune(l)) > 63:
			return fmt.Errorf("want labels of at most 63 characters")
		case strings.HasPrefix(l, "-") || strings.HasSuffix(l, "-"):
			return fmt.Errorf("want labels that neither start nor end with '-'")
		case strings.IndexFunc(l, func(c rune) bool { return c != '-' && !unicode.IsLetter(c) && !unicode.IsDigit(c) }) >= 0:
			return fmt.Errorf("want letters, digits and '-' between its dots")
		}
	}
	return nil
}

// DomainTLD is the top-level domain of a name CheckDomainName takes: its last label.
func DomainTLD(name string) string { return name[strings.LastIndex(name, ".")+1:] }
