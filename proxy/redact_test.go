package proxy_test

import (
	"bytes"
	"compress/gzip"
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

// A compressed request body is journaled decoded, its credentials redacted, or not at all when
// the proxy does not decode it: redaction cannot read compressed bytes, and a password split
// across gzip blocks stayed readable in the journal.
func TestJournalNeverKeepsCompressedBodies(t *testing.T) {
	s := startProxy(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"error":true,"message":"no","data":[]}`)
	}))
	const secret = "SplitSecretPW77"
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.NoCompression)
	_, _ = zw.Write([]byte(`{"email":"x@y.z","pass`))
	_ = zw.Flush()
	_, _ = zw.Write([]byte(`word":"` + secret + `"}`))
	_ = zw.Close()
	for _, c := range []struct{ enc, want string }{
		{"gzip", `"password":"[redacted]"`},
		{"br", "[a body sent with Content-Encoding br: not kept]"},
	} {
		req, _ := http.NewRequest(http.MethodPost, s.url+"/v1/authenticate", bytes.NewReader(gz.Bytes()))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Content-Encoding", c.enc)
		s.do(t, req)
		raw, err := json.Marshal(s.proxy.Exchanges(1)[0].Request)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(raw), secret) || !strings.Contains(string(raw), c.want) {
			t.Errorf("Content-Encoding %s: the journal keeps the request as %.300s, want %s", c.enc, raw, c.want)
		}
	}
}
