package conformance_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance"
	mf "github.com/opsapi/mocktoolkit/conformance/manifest"
	"github.com/opsapi/mocktoolkit/fixtures"
)

// redirectingDeployment answers every request with a 307 to a second server, which counts the
// requests that reach it: a deployment that only redirects elsewhere.
func redirectingDeployment(t *testing.T) (base string, reached *atomic.Int64) {
	reached = new(atomic.Int64)
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"error":false,"message":"ok","data":{"token":"t"}}`))
	}))
	t.Cleanup(elsewhere.Close)
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	t.Cleanup(front.Close)
	return front.URL, reached
}

// The suite follows no redirect: a 307 is the deployment's answer, judged as such (STATUS-1),
// and neither an operation's request with its token, nor the manifest's admin token, nor the
// manifest's credentials reach the host the Location names. A deployment that only redirected
// to a conforming one passed every spec, and handed it the secrets.
func TestSuiteFollowsNoRedirect(t *testing.T) {
	ctx := context.Background()
	base, reached := redirectingDeployment(t)

	c, err := conformance.NewClient(ctx, base, conformance.Config{Timeout: 5e9})
	if err != nil {
		t.Fatal(err)
	}
	ex, err := c.Send(ctx, conformance.Request{Op: conformance.OpTagsList, Token: "member-token"})
	if err != nil {
		t.Fatal(err)
	}
	if ex.Status != http.StatusTemporaryRedirect || !strings.Contains(strings.Join(violationRules(ex), " "), "STATUS-1") {
		t.Errorf("tags/list through a redirect: %d %v, want the 307 judged (STATUS-1)", ex.Status, ex.Violations)
	}

	_, err = conformance.Config{AdminToken: "s3cret"}.LoadManifest(ctx, base)
	if err == nil || !strings.Contains(err.Error(), "redirect") || !strings.Contains(err.Error(), conformance.EnvBaseURL) {
		t.Errorf("manifest through a redirect: %v, want an error naming the redirect and %s", err, conformance.EnvBaseURL)
	}

	m := mf.Manifest{Manifest: fixtures.Manifest{Users: fixtures.ManifestUsers{Member: fixtures.Credentials{Email: "m@example.com", Password: "pw"}}}}
	err = conformance.Config{}.CheckLogins(ctx, base, m)
	if err == nil || !strings.Contains(err.Error(), "redirect") {
		t.Errorf("login check through a redirect: %v, want the redirect named", err)
	}
	if n := reached.Load(); n != 0 {
		t.Errorf("%d requests reached the host the redirects named", n)
	}
}

func violationRules(ex *conformance.Exchange) []string {
	var out []string
	for _, v := range ex.Violations {
		out = append(out, string(v.Rule))
	}
	return out
}
