package mockserver_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// A validation error about the password field is no password: the journal's other "field is
// required" messages stay readable after one (they were blanked from their ends, in entries
// already shown). Credentials a request carries in headers other than a bearer token (an API
// key, a session cookie, Basic credentials) are scrubbed wherever they are quoted: the body,
// the path, and the world's flow.
func TestJournalKnowsHeaderCredentialsNotErrorMessages(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	member := m.login(m.manifest.Users.Member)
	m.post(pTagsCreate, member, map[string]any{}).wantStatus(t, http.StatusUnprocessableEntity)
	m.ctl(http.MethodPost, pAuthenticate, `{"email":"a@b.com"}`).wantStatus(t, http.StatusUnprocessableEntity)
	const key, sid, basicPass = "HeaderKey777777", "CookieSid5555555555", "BasicPassword99"
	m.ctl(http.MethodPost, pTagsCreate, `{"name":"`+key+` `+sid+` `+basicPass+`"}`,
		"Authorization", "Bearer "+member, "X-Api-Key", key, "Cookie", "sid="+sid).wantStatus(t, http.StatusOK)
	m.ctl(http.MethodGet, "/nowhere/"+key, nil, "Authorization", "Basic QWxpY2U6QmFzaWNQYXNzd29yZDk5") // Alice:BasicPassword99
	// A credential in the query, or in a form body (refused: not JSON), then quoted in JSON.
	const queryKey, formPass = "QueryApiKey-424242", "FormPwMock999"
	m.ctl(http.MethodPost, pTagsList+"?api_key="+queryKey, "{}", "Authorization", "Bearer "+member)
	m.ctl(http.MethodPost, pTagsList, "password="+formPass, "Authorization", "Bearer "+member, "Content-Type", "application/x-www-form-urlencoded")
	m.ctl(http.MethodPost, pTagsCreate, `{"name":"keys `+queryKey+` `+formPass+`"}`, "Authorization", "Bearer "+member).wantStatus(t, http.StatusOK)
	journal := string(m.ctl(http.MethodGet, "/__mock/requests", nil).wantStatus(t, 200).raw)
	if !strings.Contains(journal, "The name field is required.") {
		t.Errorf("a validation message was blanked after a 422 about the password field: %.800s", journal)
	}
	flow := string(m.ctl(http.MethodGet, "/__mock/flow", nil).wantStatus(t, 200).raw)
	for _, secret := range []string{key, sid, basicPass, queryKey, formPass} {
		if strings.Contains(journal, secret) {
			t.Errorf("the journal shows %q, a credential the request carried outside its JSON fields", secret)
		}
		if secret != basicPass && strings.Contains(flow, secret) { // the flow holds operations' calls only
			t.Errorf("the flow shows %q, a credential the request carried outside its JSON fields", secret)
		}
	}
}
