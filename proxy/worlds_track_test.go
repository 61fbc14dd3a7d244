package proxy_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// Each mock world a client names with X-Mock-World has its own carts: removing the same item
// in three worlds through the proxy is three first removals, never a repeat charged to the
// deployment as CART-1 or CART-2.
func TestWorldsNamedByHeaderAreTrackedApart(t *testing.T) {
	s := startProxy(t, newMock(t))
	cart := manifest().Domains.Carts[0]
	body := fmt.Sprintf(`{"session_token":%q,"cart_item_id":%d}`, cart.SessionToken, cart.ItemIDs[0])
	for _, world := range []string{"v1", "v2", "v3"} {
		req, _ := http.NewRequest(http.MethodPost, s.url+"/services/domains/v1/domain-cart/remove", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Mock-World", world)
		a := s.do(t, req)
		if a.status != http.StatusOK || len(violations(a)) > 0 {
			t.Errorf("world %s: %d, violations %v; want 200 and none", world, a.status, violations(a))
		}
	}
	req, _ := http.NewRequest(http.MethodPost, s.url+"/services/domains/v1/domain-cart/remove", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Mock-World", "v1")
	if a := s.do(t, req); a.status != http.StatusNotFound {
		t.Errorf("the item again in world v1: %d, want 404", a.status)
	}
}
