package mockserver_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// A login as a world user the manifest does not name is recorded as the login of the role its
// later calls take (D171): it kept the user's e-mail and a redacted password, so the flow
// failed its first step against a fresh copy of the world it was recorded in, and carried
// that user's address. A failed login of such a user keeps the role's e-mail too, its
// password redacted, so the replay fails as the recording did.
func TestFlowRecordsAnUnnamedUsersLoginAsItsRole(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	m.ctl(http.MethodPost, "/__worlds/u5/__mock/reset", nil).wantStatus(t, 200)
	st := worldUsers(t, m, "/__worlds/u5")
	named := map[string]bool{}
	for _, c := range []string{m.manifest.Users.Member.Email, m.manifest.Users.Superadmin.Email, m.manifest.Users.Outsider.Email, m.manifest.Users.Teammate.Email} {
		named[strings.ToLower(c)] = true
	}
	var email, password string
	for _, u := range st.Users {
		if !named[strings.ToLower(u.Email)] && !u.IsSuperadmin {
			email, password = u.Email, u.Password
		}
	}
	if email == "" {
		t.Skip("every user of the seeded world is named by the manifest")
	}
	p := "/__worlds/u5"
	tok := m.post(p+"/v1/authenticate", "", map[string]any{"email": email, "password": password}).wantStatus(t, 200).data()["token"].(string)
	m.post(p+"/services/operations/v1/operations/boards/list", tok, map[string]any{}).wantStatus(t, 200)
	m.post(p+"/v1/authenticate", "", map[string]any{"email": email, "password": "wrong-" + password}).wantStatus(t, 401)
	doc, raw := getFlow(t, m, "u5")
	if strings.Contains(strings.ToLower(raw), strings.ToLower(email)) {
		t.Errorf("the flow carries the unnamed user's e-mail %s:\n%s", email, raw)
	}
	role := doc.Steps[1].As
	ok, _ := json.Marshal(doc.Steps[0].Body)
	want, _ := json.Marshal(map[string]any{"email": ref("users." + role + ".email"), "password": ref("users." + role + ".password")})
	if string(ok) != string(want) {
		t.Errorf("the unnamed user's login, its later call made as %s: %s, want %s", role, ok, want)
	}
	bad, _ := json.Marshal(doc.Steps[2].Body)
	if !strings.Contains(string(bad), `"email":{"manifest":"users.`+role+`.email"}`) || strings.Contains(string(bad), `"password":{"manifest"`) {
		t.Errorf("the unnamed user's failed login: %s, want the role's e-mail and no password of the manifest", bad)
	}
}
