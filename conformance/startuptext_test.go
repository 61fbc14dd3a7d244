package conformance_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode"

	"github.com/opsapi/mocktoolkit/conformance"
	mf "github.com/opsapi/mocktoolkit/conformance/manifest"
	"github.com/opsapi/mocktoolkit/fixtures"
)

// hostileText clears the terminal, retitles it, rings its bell and reverses what follows: a
// deployment's text that a message quoting it raw hands to the terminal, junit.xml and
// conformance.json.
const hostileText = "\033[2J\033]0;pwned\007BAD \u202e gnp.exe\r\nline two\u0085\u009b\xff"

// hostileShown is hostileText as a message shows it: each hidden character escaped.
const hostileShown = `\x1b[2J\x1b]0;pwned\x07BAD \u202e gnp.exe\x0d\nline two\x85\x9b` + "\uFFFD"

// checkShown fails unless msg holds no control character (not even a line end: a start-up
// error is one line), no bidirectional control and no C1 control, and shows want.
func checkShown(t *testing.T, what, msg, want string) {
	t.Helper()
	for _, r := range msg {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || unicode.Is(unicode.Bidi_Control, r) {
			t.Errorf("%s: the message holds %U: %q", what, r, msg)
			break
		}
	}
	if !strings.Contains(msg, want) {
		t.Errorf("%s: the message %q does not show %q", what, msg, want)
	}
}

// The manifest's answer, when it is no 200, is quoted escaped: its body can neither clear nor
// retitle the terminal, nor reverse the text after it.
func TestLoadManifestEscapesTheDeploymentsAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte(hostileText))
	}))
	defer srv.Close()
	_, err := conformance.Config{}.LoadManifest(context.Background(), srv.URL)
	if err == nil {
		t.Fatal("LoadManifest of a 500: no error")
	}
	checkShown(t, "a 500 with a hostile body", err.Error(), "status 500: "+hostileShown)
}

// hostileRedirect answers every request with a 302 to a Location holding a right-to-left
// override and C1 controls (an HTTP client refuses C0 controls in a header, not these).
func hostileRedirect(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Location"] = []string{"http://x.example/\u202eexe.gnp\u0085\u009b2J"}
		w.WriteHeader(http.StatusFound)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// A redirect's Location is quoted escaped, in the manifest's fetch and in the login check.
func TestRedirectsAreQuotedEscaped(t *testing.T) {
	base := hostileRedirect(t)
	want := `a redirect to http://x.example/\u202eexe.gnp\x85\x9b2J;`
	_, err := conformance.Config{}.LoadManifest(context.Background(), base)
	if err == nil {
		t.Fatal("LoadManifest through a redirect: no error")
	}
	checkShown(t, "the manifest's fetch", err.Error(), want)

	m := mf.Manifest{Manifest: fixtures.Manifest{Users: fixtures.ManifestUsers{Member: fixtures.Credentials{Email: "m@example.com", Password: "pw"}}}}
	err = conformance.Config{}.CheckLogins(context.Background(), base, m)
	if err == nil {
		t.Fatal("CheckLogins through a redirect: no error")
	}
	checkShown(t, "the login check", err.Error(), want)
}

// A matcher's reason quotes the answer's value escaped, as the exchange below it is: a string
// of the answer shown with %v reached the report raw.
func TestMatcherReasonsAreEscaped(t *testing.T) {
	ex := &conformance.Exchange{Status: 200, Body: []byte(`{"data":{"title":"\u001b[2J \u202e"}}`),
		JSON: map[string]any{"data": map[string]any{"title": "\x1b[2J \u202e"}}}
	m := conformance.HaveJSON("data.title", "empty", func(v any, _ bool) bool { return v == "" })
	if ok, err := m.Match(ex); ok || err != nil {
		t.Fatalf("Match = %v, %v", ok, err)
	}
	msg := m.FailureMessage(ex)
	if strings.ContainsFunc(msg, func(r rune) bool { return r == 0x1b || unicode.Is(unicode.Bidi_Control, r) }) {
		t.Errorf("the failure holds the answer's control characters raw: %q", msg)
	}
	if !strings.Contains(msg, "`data.title` is a string: \\x1b[2J \\u202e") {
		t.Errorf("the failure does not show the value escaped: %q", msg)
	}
}
