package mockserver_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// A careless or hostile caller logs in, then quotes its own password and bearer token in a
// comment: the journal (GET /__mock/requests) shows neither anywhere, the comment's other
// words stay (D200).
func TestJournalScrubsQuotedCredentials(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	member := m.manifest.Users.Member
	tok := m.login(member)
	text := fmt.Sprintf("my password is %s and my token is %s, keep them safe", member.Password, tok)
	m.post(pCommentsNew, tok, map[string]any{"card_id": m.manifest.Operations.CardID, "comment": text}).wantStatus(t, 200)
	m.post(pCommentsNew, tok, map[string]any{"card_id": m.manifest.Operations.CardID, "comment": "x" + tok + "x"}).wantStatus(t, 200)
	raw := string(m.ctl(http.MethodGet, "/__mock/requests", nil).wantStatus(t, 200).raw)
	wantScrubbed(t, raw, member.Password, tok)
	if !strings.Contains(raw, "keep them safe") || !strings.Contains(raw, "my password is [redacted] and my token is [redacted]") {
		t.Errorf("the comment's text is gone or not scrubbed as expected: %s", truncate(raw))
	}
	dash := string(m.ctl(http.MethodGet, "/__mock", nil, "Accept", "text/html").raw)
	if strings.Contains(dash, tok) { // it shows the manifest's passwords on purpose; bodies come from /__mock/requests
		t.Errorf("the dashboard shows the bearer token")
	}
}

// A text quoting a password before anyone logs in with it is scrubbed once the login is seen,
// though the journal was read in between.
func TestJournalScrubsLaterCredentials(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	member, other := m.manifest.Users.Member, m.manifest.Users.Outsider
	tok := m.login(member)
	m.post(pCommentsNew, tok, map[string]any{"card_id": m.manifest.Operations.CardID, "comment": "guess: " + other.Password}).wantStatus(t, 200)
	m.ctl(http.MethodGet, "/__mock/requests", nil).wantStatus(t, 200) // viewed before that password is a credential
	otherTok := m.login(other)
	raw := string(m.ctl(http.MethodGet, "/__mock/requests", nil).wantStatus(t, 200).raw)
	wantScrubbed(t, raw, other.Password, otherTok, tok)
}

// Credentials are known though the entries that carried them left a small journal before
// anyone read it: the login's password and the token it issued.
func TestJournalScrubsEvictedCredentials(t *testing.T) {
	m := newMock(t, mockserver.Config{JournalSize: 3})
	member, other := m.manifest.Users.Member, m.manifest.Users.Outsider
	tok := m.login(member)
	otherTok := m.login(other) // never sent again: only its login's answer shows it
	for range 4 {
		m.post(pCommentsNew, tok, map[string]any{"card_id": m.manifest.Operations.CardID, "comment": "filler"})
	}
	m.post(pCommentsNew, tok, map[string]any{"card_id": m.manifest.Operations.CardID, "comment": "again " + member.Password + " " + otherTok})
	raw := string(m.ctl(http.MethodGet, "/__mock/requests", nil).wantStatus(t, 200).raw)
	wantScrubbed(t, raw, member.Password, tok, otherTok)
	if !strings.Contains(raw, "again [redacted] [redacted]") {
		t.Errorf("the last comment is not scrubbed as expected: %s", truncate(raw))
	}
}

func wantScrubbed(t *testing.T, raw string, secrets ...string) {
	t.Helper()
	for _, s := range secrets {
		if s != "" && strings.Contains(raw, s) {
			t.Errorf("the journal shows the credential %q", s)
		}
	}
}

// The admin token and a password no request has carried yet (the superadmin's, quoted by the
// member) are known from the start: a text quoting them is scrubbed too (D200).
func TestJournalScrubsAdminTokenAndUnusedPasswords(t *testing.T) {
	const admin = "S3cretAdminTok_987"
	m := newMockWithAdmin(t, admin)
	tok := m.login(m.manifest.Users.Member)
	text := "adm " + admin + " spw " + m.manifest.Users.Superadmin.Password
	m.post(pCommentsNew, tok, map[string]any{"card_id": m.manifest.Operations.CardID, "comment": text}).wantStatus(t, 200)
	raw := string(m.ctl(http.MethodGet, "/__mock/requests", nil, mockserver.AdminTokenHeader, admin).wantStatus(t, 200).raw)
	wantScrubbed(t, raw, admin, m.manifest.Users.Superadmin.Password)
}
