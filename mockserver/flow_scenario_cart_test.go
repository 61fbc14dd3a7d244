package mockserver_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// A cart a scenario file adds is named in the manifest, so a flow that removed one of its items
// binds its session token to a manifest key: it was recorded as "[redacted]", no key holding
// it, and the replay failed 404 even against a mock of the same scenario.
func TestFlowBindsAScenarioCartToTheManifest(t *testing.T) {
	const token = "5f1e2d3c4b5a69788796a5b4c3d2e1f0aabbccddeeff0011"
	f, err := fixtures.ParseScenario([]byte("name: cartscen\nbase: default\ncarts:\n  - session_token: "+token+
		"\n    items: [{domain_name: example-shop.com, price: 12.5}, {domain_name: second-shop.net, price: 9}]\n"+
		"  - session_token: locked-scenario-cart-0001\n    status: locked\n    items: [{domain_name: third-shop.org, price: 3}]\n"), "cartscen.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m := newMock(t, mockserver.Config{Scenarios: map[string]*fixtures.ScenarioFile{"cartscen": f}, Scenario: "cartscen"})
	var item int64
	for _, c := range m.manifest.Domains.Carts {
		if c.SessionToken == token && len(c.ItemIDs) == 2 {
			item = c.ItemIDs[0]
		}
		if c.SessionToken == "locked-scenario-cart-0001" {
			t.Error("the manifest lists the scenario's locked cart among the open ones")
		}
	}
	if item == 0 {
		t.Fatalf("the manifest does not list the scenario's open cart: %+v", m.manifest.Domains.Carts)
	}
	m.post("/services/domains/v1/domain-cart/remove", "", map[string]any{"session_token": token, "cart_item_id": item}).wantStatus(t, http.StatusOK)
	flow := string(m.ctl(http.MethodGet, "/__mock/flow", nil).wantStatus(t, http.StatusOK).raw)
	if strings.Contains(flow, "[redacted]") || !strings.Contains(flow, `"manifest":"domains.carts[`) {
		t.Errorf("the removal's session token is not bound to the manifest's cart: %s", truncate(flow))
	}
}
