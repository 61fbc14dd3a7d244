package proxy_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// Through the proxy in front of the mock, a caller logs in and quotes its password and bearer
// token in a comment: the proxy's journal (GET /__proxy/exchanges) shows neither anywhere,
// nor does its dashboard; the comment's other words stay (D200).
func TestJournalScrubsQuotedCredentials(t *testing.T) {
	s := startProxy(t, newMock(t))
	member := manifest().Users.Member
	tok := s.loginThrough(t, fmt.Sprintf(`{"email": %q, "password": %q}`, member.Email, member.Password))
	text := fmt.Sprintf("my password is %s and my token is %s, keep them safe", member.Password, tok)
	a := s.post(t, "/services/operations/v1/operations/comments/create", tok,
		fmt.Sprintf(`{"card_id": %d, "comment": %q}`, manifest().Operations.CardID, text))
	if a.status != http.StatusOK {
		t.Fatalf("comments/create through the proxy: %d %s", a.status, a.body)
	}
	for _, path := range []string{"/__proxy/exchanges", "/__proxy/"} {
		res, err := http.Get(s.url + path)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(res.Body)
		res.Body.Close()
		for _, secret := range []string{member.Password, tok} {
			if strings.Contains(string(raw), secret) {
				t.Errorf("%s shows the credential %q", path, secret)
			}
		}
		if path == "/__proxy/exchanges" && !strings.Contains(string(raw), "my password is [redacted] and my token is [redacted], keep them safe") {
			t.Errorf("%s: the comment is gone or not scrubbed as expected: %.400s", path, raw)
		}
	}
}

// A password sent as a query parameter (a client's mistake) is redacted there and remembered:
// quoted later in a comment, it is replaced too.
func TestJournalRemembersAPasswordSentInTheQuery(t *testing.T) {
	s := startProxy(t, newMock(t))
	member := manifest().Users.Member
	tok := s.loginThrough(t, fmt.Sprintf(`{"email": %q, "password": %q}`, member.Email, member.Password))
	const secret = "Query-Only-Secret-42"
	s.post(t, "/services/operations/v1/operations/tags/list?password="+secret, tok, `{}`)
	s.post(t, "/services/operations/v1/operations/comments/create", tok,
		fmt.Sprintf(`{"card_id": %d, "comment": "it was %s"}`, manifest().Operations.CardID, secret))
	res, err := http.Get(s.url + "/__proxy/exchanges")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if strings.Contains(string(raw), secret) || !strings.Contains(string(raw), "it was [redacted]") {
		t.Errorf("the journal shows a password sent in a query, or lost the comment: %.600s", raw)
	}
}
