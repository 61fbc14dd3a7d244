package mockserver_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// With --cors-origins naming the app's origins, a page of any other origin does not reach the
// API either: a form post or a no-cors fetch needs no preflight, so CORS alone would let it
// remove cart items (a public operation) or log in, reading nothing but changing the world.
// The listed origin, the mock's own pages and clients that send no Origin are served.
func TestListedCORSOriginsAloneReachTheAPI(t *testing.T) {
	m := newMock(t, mockserver.Config{CORSOrigins: []string{"http://localhost:5173"}, LenientContentType: true})
	cart := m.manifest.Domains.Carts[0]
	body := `{"session_token":"` + cart.SessionToken + `","cart_item_id":` + strconv.FormatInt(cart.ItemIDs[0], 10) + `}`
	for _, origin := range []string{"https://evil.example", "null"} {
		a := m.ctl(http.MethodPost, pCartRemove, body, "Origin", origin, "Content-Type", "text/plain", "Sec-Fetch-Mode", "no-cors")
		// cart removal lists no 403 and no 400: its refusal is 422, keyed "origin"
		if a.status != http.StatusUnprocessableEntity || !strings.Contains(string(a.raw), `"origin"`) {
			t.Errorf("a no-cors post from %s: %d %s, want 422 keyed origin", origin, a.status, a.raw)
		}
		creds := m.manifest.Users.Member
		login := m.ctl(http.MethodPost, pAuthenticate, `{"email":"`+creds.Email+`","password":"`+creds.Password+`"}`, "Origin", origin, "Content-Type", "text/plain")
		if login.status == http.StatusOK {
			t.Errorf("a no-cors login from %s: %d %s, want it refused", origin, login.status, login.raw)
		}
		m.ctl(http.MethodPost, pTagsList, `{}`, "Origin", origin, "Authorization", "Bearer x").wantStatus(t, http.StatusForbidden).wantShape(t, "b")
	}
	a := m.ctl(http.MethodPost, pCartRemove, body, "Origin", "http://localhost:5173", "Content-Type", "application/json")
	if a.status != http.StatusOK {
		t.Fatalf("the listed origin: %d %s, want 200 (and the item still in the cart)", a.status, a.raw)
	}
	m.ctl(http.MethodPost, pCartRemove, `{"session_token":"`+cart.SessionToken+`","cart_item_id":`+strconv.FormatInt(cart.ItemIDs[1], 10)+`}`, "Content-Type", "application/json").wantStatus(t, http.StatusOK)

	open := newMock(t, mockserver.Config{LenientContentType: true}) // any origin, by default
	open.ctl(http.MethodPost, pCartRemove, body, "Origin", "https://evil.example", "Content-Type", "text/plain").wantStatus(t, http.StatusOK)
}
