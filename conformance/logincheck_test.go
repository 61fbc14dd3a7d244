package conformance_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance"
	mf "github.com/opsapi/mocktoolkit/conformance/manifest"
	"github.com/opsapi/mocktoolkit/fixtures"
)

// loginAnswering is a deployment whose login answers status and body to every user.
func loginAnswering(t *testing.T, status int, body string) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func memberOnly() mf.Manifest {
	return mf.Manifest{Manifest: fixtures.Manifest{Users: fixtures.ManifestUsers{Member: fixtures.Credentials{Email: "m@example.com", Password: "pw"}}}}
}

// A login the deployment accepts (2xx, no `error: true`) but whose token the suite cannot read
// is said to be that, not a refusal of the manifest's credentials: the manifest is right, and
// the message sent its author to correct it.
func TestCheckLoginsTellsAnUnreadableTokenFromARefusal(t *testing.T) {
	for name, c := range map[string]struct {
		status int
		body   string
		want   string
	}{
		"an HTML page":             {200, "<html>Welcome</html>", `authenticate answered 200, but its body is not one JSON object (it is not JSON: it begins "<html>Welcome</html>")`},
		"an empty body":            {200, "", "authenticate answered 200, but its body is empty, not one JSON object"},
		"a JSON array":             {200, `[{"token":"t"}]`, "authenticate answered 200, but its body is not one JSON object (it is an array)"},
		"two JSON values":          {200, `{"error":false,"data":{"token":"t"}} {}`, "its body is not one JSON object (it holds more after its JSON value)"},
		"text not UTF-8":           {200, "{\"error\":false,\"data\":{\"token\":\"\xff\"}}", "its body is not one JSON object (it is not valid UTF-8 text)"},
		"no token":                 {200, `{"error":false,"message":"ok","data":{}}`, "authenticate answered 200, but its body holds no data.token"},
		"a token that is a number": {200, `{"error":false,"message":"ok","data":{"token":5}}`, "its data.token is a number, not a string"},
		"an empty token":           {201, `{"error":false,"message":"ok","data":{"token":""}}`, "authenticate answered 201, but its data.token is empty"},
	} {
		t.Run("says so of "+name, func(t *testing.T) {
			err := conformance.Config{}.CheckLogins(context.Background(), loginAnswering(t, c.status, c.body), memberOnly())
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if !strings.Contains(msg, c.want) || !strings.Contains(msg, "the suite cannot read the token") || !strings.Contains(msg, "users.member (m@example.com)") {
				t.Errorf("error %q, want it to name users.member and say %q and that the suite cannot read the token", msg, c.want)
			}
			if strings.Contains(msg, "refuses the manifest's credentials") || strings.Contains(msg, "correct the manifest") {
				t.Errorf("error %q blames the manifest's credentials", msg)
			}
		})
	}
	for name, c := range map[string]struct {
		status int
		body   string
		want   string
	}{
		"a 401":                 {401, `{"error":true,"message":"Unauthenticated."}`, `users.member (m@example.com): 401 "Unauthenticated."`},
		"a 200 with error true": {200, `{"error":true,"message":"Invalid credentials."}`, `users.member (m@example.com): 200 "Invalid credentials."`},
		"a 422 that is no JSON": {422, `nope`, `users.member (m@example.com): 422 ""`},
	} {
		t.Run("keeps the refusal of "+name, func(t *testing.T) {
			err := conformance.Config{}.CheckLogins(context.Background(), loginAnswering(t, c.status, c.body), memberOnly())
			if err == nil || !strings.Contains(err.Error(), "the deployment refuses the manifest's credentials of "+c.want) || !strings.Contains(err.Error(), "correct the manifest ("+conformance.EnvManifest+")") {
				t.Errorf("error %v, want the refusal of the manifest's credentials, %s", err, c.want)
			}
		})
	}
	t.Run("accepts a token", func(t *testing.T) {
		if err := (conformance.Config{}).CheckLogins(context.Background(), loginAnswering(t, 200, `{"error":false,"message":"ok","data":{"token":"t"}}`), memberOnly()); err != nil {
			t.Errorf("a login that gives a token: %v", err)
		}
	})
}

// A run whose member is refused and whose superadmin's token cannot be read names each with
// its own words.
func TestCheckLoginsNamesRefusalsAndUnreadTokensApart(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b strings.Builder
		buf := make([]byte, 512)
		n, _ := r.Body.Read(buf)
		b.Write(buf[:n])
		if strings.Contains(b.String(), "member@") {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"error":true,"message":"Unauthenticated."}`))
			return
		}
		_, _ = w.Write([]byte(`<html>ok</html>`))
	}))
	defer srv.Close()
	m := mf.Manifest{Manifest: fixtures.Manifest{Users: fixtures.ManifestUsers{
		Member:     fixtures.Credentials{Email: "member@example.com", Password: "pw"},
		Superadmin: fixtures.Credentials{Email: "admin@example.com", Password: "pw"},
	}}}
	err := conformance.Config{}.CheckLogins(context.Background(), srv.URL, m)
	if err == nil {
		t.Fatal("no error")
	}
	refused, unread, _ := strings.Cut(err.Error(), "; and ")
	if !strings.Contains(refused, "refuses the manifest's credentials of users.member") || strings.Contains(refused, "users.superadmin") {
		t.Errorf("the refusal part %q, want users.member alone", refused)
	}
	if !strings.Contains(unread, "users.superadmin (admin@example.com): authenticate answered 200, but its body is not one JSON object") || strings.Contains(unread, "users.member") {
		t.Errorf("the unread part %q, want users.superadmin alone", unread)
	}
}

// A redirect of the login says nothing of the credentials: the check names it and the address
// to set, not the manifest to correct.
func TestCheckLoginsDoesNotBlameTheManifestForARedirect(t *testing.T) {
	base, _ := redirectingDeployment(t)
	err := conformance.Config{}.CheckLogins(context.Background(), base, memberOnly())
	if err == nil || !strings.Contains(err.Error(), "users.member (m@example.com): it answered 307, a redirect to") || strings.Contains(err.Error(), "refuses the manifest's credentials") {
		t.Errorf("a redirected login: %v, want the redirect named and no refusal of the credentials", err)
	}
}

// The login check quotes the deployment's refusal and the user's e-mail (a manifest the
// deployment itself served, GET /__mock/fixtures, is its text too) escaped.
func TestCheckLoginsEscapesTheDeploymentsText(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"error":true,"message":"\u001b[2J\u001b]0;pwned\u0007 \u202e gnp.exe"}`))
	}))
	defer srv.Close()
	m := mf.Manifest{Manifest: fixtures.Manifest{Users: fixtures.ManifestUsers{Member: fixtures.Credentials{Email: "m\x1b[31m\u202e@example.com", Password: "pw"}}}}
	err := conformance.Config{}.CheckLogins(context.Background(), srv.URL, m)
	if err == nil {
		t.Fatal("CheckLogins of a 401: no error")
	}
	checkShown(t, "a 401", err.Error(), `users.member (m\x1b[31m\u202e@example.com): 401`)
	checkShown(t, "a 401", err.Error(), `\x1b[2J\x1b]0;pwned\x07 \u202e gnp.exe`)
}
