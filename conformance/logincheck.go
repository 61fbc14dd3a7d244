package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/opsapi/mocktoolkit/conformance/manifest"
	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/internal/text"
)

// CheckLogins logs each user of m that has credentials in once, at the start of a run, and
// reports the ones the deployment refuses: a manifest with a wrong password would otherwise
// fail every spec of that user as the deployment's fault (AUTH-4), and the run would crawl
// through the deployment's login throttle. A 429, a 5xx or no answer proves nothing about the
// credentials and is not reported.
func (cfg Config) CheckLogins(ctx context.Context, base string, m manifest.Manifest) error {
	var refused []string
	for _, u := range []struct {
		role, token string
		c           fixtures.Credentials
	}{{"member", m.Tokens.Member, m.Users.Member}, {"superadmin", m.Tokens.Superadmin, m.Users.Superadmin},
		{"outsider", m.Tokens.Outsider, m.Users.Outsider}, {"teammate", m.Tokens.Teammate, m.Users.Teammate}} {
		if u.c.Email == "" || u.c.Password == "" || u.token != "" {
			continue // no login: the manifest gives the user's bearer token
		}
		if why := refusedLogin(ctx, base, u.c); why != "" {
			refused = append(refused, fmt.Sprintf("users.%s (%s): %s", u.role, u.c.Email, why))
		}
	}
	if len(refused) > 0 {
		return fmt.Errorf("the deployment refuses the manifest's credentials of %s; correct the manifest (%s) before a run, as every spec of such a user would fail", strings.Join(refused, "; "), EnvManifest)
	}
	return nil
}

// refusedLogin says why the deployment refuses c ("" when it gives a token, or when its answer
// says nothing about the credentials: a 429, a 5xx, no answer).
func refusedLogin(ctx context.Context, base string, c fixtures.Credentials) string {
	body, _ := json.Marshal(map[string]string{"email": c.Email, "password": c.Password})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+OpAuthenticate.Path, bytes.NewReader(body))
	if err != nil {
		return ""
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := deployment.Do(req)
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	var answer struct {
		Message string `json:"message"`
		Data    struct {
			Token string `json:"token"`
		} `json:"data"`
	}
	_ = json.Unmarshal(raw, &answer)
	if why := redirected(resp); why != "" {
		return why
	}
	switch {
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
		return ""
	case resp.StatusCode < 300 && answer.Data.Token != "":
		return ""
	}
	return fmt.Sprintf("%d %q", resp.StatusCode, text.Clip(answer.Message, 200))
}
