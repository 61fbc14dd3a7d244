package mockserver_test

import (
	"encoding/json"
	"maps"
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance/flow"
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
	// Another user of the outsider's project, whose calls the outsider makes alike.
	var st map[string]any
	if err := json.Unmarshal(m.ctl(http.MethodGet, "/__worlds/u5/__mock/state", nil).wantStatus(t, 200).raw, &st); err != nil {
		t.Fatal(err)
	}
	const email, password = "another.user@outsiders.example.com", "An0ther-pass-77"
	for _, u := range st["users"].([]any) {
		if u := u.(map[string]any); strings.EqualFold(u["email"].(string), m.manifest.Users.Outsider.Email) {
			extra := maps.Clone(u)
			extra["id"], extra["email"], extra["password"] = 999, email, password
			st["users"] = append(st["users"].([]any), extra)
			break
		}
	}
	m.ctl(http.MethodPut, "/__worlds/u5/__mock/state", st).wantStatus(t, 200)
	p := "/__worlds/u5"
	tok := m.post(p+"/v1/authenticate", "", map[string]any{"email": email, "password": password}).wantStatus(t, 200).data()["token"].(string)
	m.post(p+"/services/operations/v1/operations/boards/list", tok, map[string]any{}).wantStatus(t, 200)
	m.post(p+"/v1/authenticate", "", map[string]any{"email": email, "password": "wrong-" + password}).wantStatus(t, 401)
	doc, raw := getFlow(t, m, "u5")
	if strings.Contains(strings.ToLower(raw), strings.ToLower(email)) {
		t.Errorf("the flow carries the unnamed user's e-mail %s:\n%s", email, raw)
	}
	if len(doc.Steps) != 3 {
		t.Fatalf("%d steps, want 3:\n%s", len(doc.Steps), raw)
	}
	role := doc.Steps[1].As
	if role != flow.AsOutsider {
		t.Errorf("a user of the outsider's project calls as %q, want the outsider", role)
	}
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

// A user the manifest does not name whose calls no manifest role can make alike (a project
// with other tools than the outsider's, a superadmin of another project than the manifest's)
// is left out of the flow, login included, with a note: recorded as the outsider, a widget
// list of a tool the outsider's project lacks answered 403 at replay, against the same world.
func TestFlowLeavesOutCallersNoRoleStandsInFor(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	p := "/__worlds/tools"
	m.ctl(http.MethodPost, p+"/__mock/reset", nil).wantStatus(t, 200)
	var st struct {
		Projects []struct {
			ID    int64
			Tools []string
		}
		Users []struct {
			Email, Password string
			ProjectID       int64 `json:"project_id"`
			IsSuperadmin    bool  `json:"is_superadmin"`
		}
	}
	if err := json.Unmarshal(m.ctl(http.MethodGet, p+"/__mock/state", nil).wantStatus(t, 200).raw, &st); err != nil {
		t.Fatal(err)
	}
	tools := map[int64]string{}
	for _, pr := range st.Projects {
		tools[pr.ID] = strings.Join(pr.Tools, ",")
	}
	project := map[string]int64{}
	for _, u := range st.Users {
		project[strings.ToLower(u.Email)] = u.ProjectID
	}
	outsiderTools := tools[project[strings.ToLower(m.manifest.Users.Outsider.Email)]]
	memberProject := project[strings.ToLower(m.manifest.Users.Member.Email)]
	var email, password string
	for _, u := range st.Users {
		if !u.IsSuperadmin && u.ProjectID != memberProject && tools[u.ProjectID] != outsiderTools {
			email, password = u.Email, u.Password
		}
	}
	if email == "" {
		t.Skip("the seeded world has no user of a project with other tools than the outsider's")
	}
	tok := m.post(p+"/v1/authenticate", "", map[string]any{"email": email, "password": password}).wantStatus(t, 200).data()["token"].(string)
	m.post(p+"/services/operations/v1/operations/boards/list", tok, map[string]any{}).wantStatus(t, 200)
	doc, raw := getFlow(t, m, "tools")
	if len(doc.Steps) != 0 || !strings.Contains(doc.Note, "manifest") || strings.Contains(strings.ToLower(raw), strings.ToLower(email)) {
		t.Errorf("%d steps, note %q; want the user's login and call left out, with a note:\n%s", len(doc.Steps), doc.Note, raw)
	}
}
