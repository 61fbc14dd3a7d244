package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/opsapi/mocktoolkit/conformance/check"
	"github.com/opsapi/mocktoolkit/conformance/manifest"
	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/internal/jsonone"
)

// CheckLogins logs each user of m that has credentials in once, at the start of a run, and
// reports the ones the deployment refuses: a manifest with a wrong password would otherwise
// fail every spec of that user as the deployment's fault (AUTH-4), and the run would crawl
// through the deployment's login throttle. A login the deployment accepts but whose token the
// suite cannot read (a 2xx that is no JSON object, or holds no token), or a redirect, is
// reported apart: the manifest is not what to correct. A 429, a 5xx or no answer proves
// nothing about the credentials and is not reported.
func (cfg Config) CheckLogins(ctx context.Context, base string, m manifest.Manifest) error {
	var refused, unread []string
	for _, u := range []struct {
		role, token string
		c           fixtures.Credentials
	}{{"member", m.Tokens.Member, m.Users.Member}, {"superadmin", m.Tokens.Superadmin, m.Users.Superadmin},
		{"outsider", m.Tokens.Outsider, m.Users.Outsider}, {"teammate", m.Tokens.Teammate, m.Users.Teammate}} {
		if u.c.Email == "" || u.c.Password == "" || u.token != "" {
			continue // no login: the manifest gives the user's bearer token
		}
		// The e-mail is the deployment's text when it served the manifest (GET /__mock/fixtures).
		who := fmt.Sprintf("users.%s (%s)", u.role, deploymentText(u.c.Email, 200))
		why, isRefusal := loginProblem(ctx, base, u.c)
		switch {
		case why == "":
		case isRefusal:
			refused = append(refused, who+": "+why)
		default:
			unread = append(unread, who+": "+why)
		}
	}
	var problems []string
	if len(refused) > 0 {
		problems = append(problems, fmt.Sprintf("the deployment refuses the manifest's credentials of %s; correct the manifest (%s) before a run, as every spec of such a user would fail", strings.Join(refused, "; "), EnvManifest))
	}
	if len(unread) > 0 {
		problems = append(problems, fmt.Sprintf("the suite cannot log in the manifest's users, though the deployment does not refuse their credentials (the manifest is not what to correct), and every spec of such a user would fail: %s", strings.Join(unread, "; ")))
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; and "))
	}
	return nil
}

// maxLoginAnswer bounds the login answer the check reads: a login result is a few hundred bytes.
const maxLoginAnswer = 64 << 10

// loginProblem says what stands in the way of logging c in ("" when the deployment gives a
// token, or when its answer says nothing about the credentials: a 429, a 5xx, no answer), and
// whether it is a refusal of the credentials (a 4xx, or a 2xx with `error: true`, D209) rather
// than an answer the suite cannot use (a redirect, a 2xx whose token it cannot read).
func loginProblem(ctx context.Context, base string, c fixtures.Credentials) (why string, isRefusal bool) {
	body, _ := json.Marshal(map[string]string{"email": c.Email, "password": c.Password})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+OpAuthenticate.Path, bytes.NewReader(body))
	if err != nil {
		return "", false
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := deployment.Do(req)
	if err != nil {
		return "", false
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxLoginAnswer+1))
	if why := redirected(resp); why != "" {
		return why, false
	}
	switch {
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
		return "", false
	case resp.StatusCode < 300 && !check.RefusedInSuccess(OpAuthenticate.Operation, resp.StatusCode, raw):
		if why := unreadToken(raw); why != "" {
			return fmt.Sprintf("authenticate answered %d, but %s: the suite cannot read the token", resp.StatusCode, why), false
		}
		return "", false
	}
	var answer struct {
		Message string `json:"message"`
	}
	_ = json.Unmarshal(raw, &answer) // a refusal's message, when it has one
	return fmt.Sprintf("%d \"%s\"", resp.StatusCode, deploymentText(answer.Message, 200)), true
}

// unreadToken says why a login's 2xx answer gives the suite no token ("" when data.token is a
// string that is not empty): the body is one JSON object, read as the suite's answer checks
// read one (jsonone), with the token where the interface puts it.
func unreadToken(raw []byte) string {
	if len(raw) > maxLoginAnswer {
		return fmt.Sprintf("its body is longer than the %d KiB the check reads", maxLoginAnswer>>10)
	}
	if !utf8.Valid(raw) {
		return "its body is not one JSON object (it is not valid UTF-8 text)"
	}
	v, err := jsonone.Decode(raw)
	switch {
	case errors.Is(err, io.EOF):
		return "its body is empty, not one JSON object"
	case errors.Is(err, jsonone.ErrMore):
		return "its body is not one JSON object (it holds more after its JSON value)"
	case err != nil:
		return fmt.Sprintf("its body is not one JSON object (it is not JSON: it begins \"%s\")", deploymentText(string(raw), 80))
	}
	obj, isObject := v.(map[string]any)
	if !isObject {
		return fmt.Sprintf("its body is not one JSON object (it is %s)", check.Kind(v))
	}
	data, _ := obj["data"].(map[string]any)
	token, present := data["token"]
	switch s, isString := token.(string); {
	case !present:
		return "its body holds no data.token"
	case !isString:
		return fmt.Sprintf("its data.token is %s, not a string", check.Kind(token))
	case s == "":
		return "its data.token is empty"
	}
	return ""
}
