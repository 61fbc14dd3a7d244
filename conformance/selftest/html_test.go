package selftest_test

import (
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/rules"
	"github.com/opsapi/mocktoolkit/fixtures"
)

// externalRef matches anything that would make a browser load something: a link, a script, a
// stylesheet, a font, an image or a CSS url().
var externalRef = regexp.MustCompile(`(?i)(\bsrc\s*=|\bhref\s*=|url\(|@import|<script|<link|<img|<iframe|<object)`)

// TestHTMLReport runs part of the suite against the in-process mock, broken so that some specs
// fail (rate-limit headers left out of commentsList answers and of failed logins) and one skips
// (tagsList's rate-limit spec, given a budget below the limit), with CONFORMANCE_HTML, and reads the report: verdicts per
// operation and aspect, each failure with its rule id, statement, request and answer and no
// credential, the skip with its reason, the coverage of statuses and field constraints, and
// nothing that needs the network to open.
func TestHTMLReport(t *testing.T) {
	var (
		mu     sync.Mutex
		issued []string
		creds  fixtures.Manifest
	)
	base := startMock(t, func(h httpHandler) httpHandler {
		creds = fixtureManifest(h)
		return rewrite(nil, func(r *http.Request, _ map[string]any, a *answer) {
			switch r.URL.Path {
			case conformance.OpCommentsList.Path:
				a.header.Del("X-Ratelimit-Remaining")
			case conformance.OpAuthenticate.Path:
				if a.status == http.StatusUnauthorized {
					a.header.Del("X-Ratelimit-Remaining")
				}
				if tok, ok := a.data()["token"].(string); ok {
					mu.Lock()
					issued = append(issued, tok)
					mu.Unlock()
				}
			}
		})(h)
	})
	path := filepath.Join(t.TempDir(), "report.html")
	if p := os.Getenv("SELFTEST_KEEP_HTML"); p != "" {
		path = p
	}
	_, ok, out := runSuiteEnv(t, base, []string{"CONFORMANCE_HTML=" + path, "CONFORMANCE_RATE_LIMIT_MAX=10"},
		"-ginkgo.label-filter=contract && !"+conformance.ProbeWindow+" && (op:tagsList || op:tagsCreate || op:authenticate || op:commentsList)")
	if ok {
		t.Fatalf("the run passed against a broken mock:\n%s", tail(out, 3000))
	}
	page, err := readFile(path)
	if err != nil {
		t.Fatalf("no HTML report: %v\n%s", err, tail(out, 3000))
	}

	doc, _ := rules.ByID(rules.HDR1) // a missing header breaks HDR-1 (the checker leaves headers out of DOC-1)
	for _, want := range []string{
		"<!DOCTYPE html>", "<style>",
		// verdicts per operation and aspect
		`<td>commentsList</td><td class="fail">FAIL</td>`, `<td>tagsCreate</td><td class="pass">PASS</td>`,
		`<td>tagsList</td><td class="partial">PARTIAL</td>`,
		// a failure: rule id and statement, the request and the answer
		"Broken: rule <strong>HDR-1</strong>", template(doc.Statement), "The spec checks rule <strong>AUTH-5</strong>", "request: POST ", "/services/operations/v1/operations/comments/list",
		"answer: 200 OK", "Bearer &lt;the token of the member, redacted&gt;", `&#34;password&#34;: &#34;&lt;redacted&gt;&#34;`,
		// a skip and its reason
		"more than the 10 requests this suite may send to spend a window",
		// coverage: listed statuses, received ones, constraints sent
		"<td>commentsList</td><td>200, 400, 401, 403, 422, 429, 500</td>", "<span>422</span>",
		"per_page max <span class=\"muted\">(invalid 1, bound 1)</span>", "name maxLength",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the HTML report lacks %q", want)
		}
	}
	if m := externalRef.FindString(page); m != "" {
		t.Errorf("the HTML report references something to load (%q); it must open with no network", m)
	}
	for _, secret := range []string{creds.Users.Member.Password, creds.Users.Outsider.Password, creds.Users.Superadmin.Password} {
		if secret != "" && strings.Contains(page, secret) {
			t.Errorf("the HTML report holds a password of the manifest")
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(issued) == 0 {
		t.Fatalf("no login was seen")
	}
	for _, tok := range issued {
		if strings.Contains(page, tok) {
			t.Errorf("the HTML report holds a bearer token the mock issued")
		}
	}
}

// template escapes s as html/template writes text.
func template(s string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;", "+", "&#43;")
	return r.Replace(s)
}
