package proxy_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// The journal (GET /__proxy/exchanges) never shows a credential: not the password, the
// second-factor code or the token sent to authenticate, not the bearer token it answers, not a
// cart's session token, not Authorization or Cookie headers; the shape of each body stays, so
// a reader still sees which fields were sent.
func TestJournalRedactsCredentials(t *testing.T) {
	s := startProxy(t, newMock(t))
	member := manifest().Users.Member
	cart := manifest().Domains.Carts[0]
	token := s.loginThrough(t, fmt.Sprintf(`{"email": %q, "password": %q, "token": "tok-2fa-secret", "code": "918273", "is_recovery": false}`, member.Email, member.Password))
	req, _ := http.NewRequest(http.MethodPost, s.url+"/services/domains/v1/domain-cart/remove",
		strings.NewReader(fmt.Sprintf(`{"session_token": %q, "cart_item_id": %d}`, cart.SessionToken, cart.ItemIDs[0])))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Cookie", "sid=cookie-secret-value")
	s.do(t, req)
	s.post(t, "/services/operations/v1/operations/tags/list", token, `{}`)
	s.post(t, "/v1/authenticate", "", `{"email": "x@example.com", "password": "broken-json-secret"`)

	res, err := http.Get(s.url + "/__proxy/exchanges")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var journal struct {
		Exchanges []struct {
			Request struct {
				Headers map[string]string `json:"headers"`
				Body    any               `json:"body"`
			} `json:"request"`
			Response struct {
				Body any `json:"body"`
			} `json:"response"`
		} `json:"exchanges"`
	}
	raw := new(strings.Builder)
	if err := json.NewDecoder(io.TeeReader(res.Body, raw)).Decode(&journal); err != nil || len(journal.Exchanges) != 4 {
		t.Fatalf("GET /__proxy/exchanges: %v, %d exchanges", err, len(journal.Exchanges))
	}
	for _, secret := range []string{member.Password, "tok-2fa-secret", "918273", token, cart.SessionToken, "cookie-secret-value", "broken-json-secret"} {
		if strings.Contains(raw.String(), secret) {
			t.Errorf("the journal shows the credential %q", secret)
		}
	}
	newest := journal.Exchanges // newest first: broken login, tags list, cart, login
	loginReq := newest[3].Request.Body.(map[string]any)
	for field, want := range map[string]any{"email": member.Email, "password": "[redacted]", "token": "[redacted]", "code": "[redacted]", "is_recovery": false} {
		if loginReq[field] != want {
			t.Errorf("login request %s is %v, want %v", field, loginReq[field], want)
		}
	}
	loginData := newest[3].Response.Body.(map[string]any)["data"].(map[string]any)
	if loginData["token"] != "[redacted]" || loginData["email"] != member.Email {
		t.Errorf("login answer data %v: want the token redacted and the e-mail kept", loginData)
	}
	if got := newest[2].Request.Body.(map[string]any)["session_token"]; got != "[redacted]" {
		t.Errorf("cart session_token is %v in the journal", got)
	}
	if got := newest[2].Request.Headers["Cookie"]; got != "[redacted]" {
		t.Errorf("Cookie is %q in the journal", got)
	}
	if got := newest[1].Request.Headers["Authorization"]; got != "Bearer [redacted]" {
		t.Errorf("Authorization is %q in the journal, want the scheme kept", got)
	}
}
