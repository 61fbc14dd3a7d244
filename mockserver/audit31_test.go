package mockserver_test

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// A wrong credential that is an ordinary word (a Basic pair's "password", "data") is redacted
// where it is sent, but never hunted through other texts: it blanked JSON keys in the journal,
// the keys of a flow's login step (a replay sent an unknown field) and the words of a card's
// title (D200).
func TestWordCredentialBlanksNothingElse(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	tok := m.login(m.manifest.Users.Member)
	m.post("/services/operations/v1/operations/cards/create", tok, map[string]any{"title": "Reset the admin password"}).wantStatus(t, 200)
	for _, pw := range []string{"password", "data", "title"} {
		basic := "Basic " + base64.StdEncoding.EncodeToString([]byte("x:"+pw))
		m.ctl(http.MethodPost, "/services/operations/v1/operations/tags/list", map[string]any{}, "Authorization", basic).wantStatus(t, 401)
	}
	journal := string(m.ctl(http.MethodGet, "/__mock/requests", nil).raw)
	for _, want := range []string{`"password":"[redacted]"`, `"data":{`, `Reset the admin password`} {
		if !strings.Contains(journal, want) {
			t.Errorf("the journal lost %s:\n%.2000s", want, journal)
		}
	}
	flow := string(m.ctl(http.MethodGet, "/__mock/flow", nil).raw)
	if strings.Contains(flow, `"[redacted]":`) || !strings.Contains(flow, `"password":{"manifest":"users.member.password"}`) || !strings.Contains(flow, "Reset the admin password") {
		t.Errorf("the flow's keys or title were blanked:\n%.2000s", flow)
	}
}

// The journal's own cut of a long body never keeps the start of a credential it falls inside:
// a known password cut one character short stayed in clear, 13 of its 14 characters (D64).
func TestJournalCutKeepsNoPartOfACredential(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	member := m.manifest.Users.Member
	tok := m.login(member)
	for pad := 16355; pad <= 16370; pad++ {
		body := `{"note":"` + strings.Repeat("a", pad) + member.Password + `"}`
		m.post(pTagsList, tok, body)
		raw := string(m.ctl(http.MethodGet, "/__mock/requests?limit=1", nil).raw)
		if keep := member.Password[:len(member.Password)-4]; strings.Contains(raw, keep) {
			t.Fatalf("pad %d: the journal keeps %q of the password: %s", pad, keep, raw[max(0, len(raw)-300):])
		}
	}
}
