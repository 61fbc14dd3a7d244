package mockserver_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// crossOriginFetch is run in a page of another origin: it calls url with the given fetch
// options and resolves to "status remaining" or to the error a browser reports.
const crossOriginFetch = `fetch(%q, %s).then(
  r => r.status + " " + (r.headers.get("X-RateLimit-Remaining") || "-"),
  e => "error: " + e.message)`

// A browser on another origin calls the API with tracing headers and credentials mode, and
// cannot read the mock's own endpoints unless its origin is listed (D103). Headless Chromium
// does what a frontend's browser does: "Failed to fetch" whenever CORS refuses.
func TestCORSInABrowser(t *testing.T) {
	ctx := newBrowser(t)
	app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<!doctype html><title>app</title>")
	}))
	t.Cleanup(app.Close)
	open := newMock(t, mockserver.Config{})
	listed := newMock(t, mockserver.Config{CORSOrigins: []string{app.URL}})
	if err := chromedp.Do(ctx, chromedp.Navigate(app.URL)); err != nil {
		t.Fatal(err)
	}
	call := func(url, opts string) string {
		t.Helper()
		out, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(crossOriginFetch, url, opts), chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("evaluate: %v", err)
		}
		return out
	}
	api := func(m *mock, credentials string) string {
		tok := m.login(m.manifest.Users.Member)
		return fmt.Sprintf(`{method: "POST", credentials: %q, body: "{}", headers: {"Content-Type": "application/json",
			"Authorization": "Bearer %s", "traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
			"sentry-trace": "4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-1", "X-Requested-With": "XMLHttpRequest"}}`, credentials, tok)
	}
	tests := []struct {
		name, url, opts, want string
	}{
		{"tracing headers pass the preflight", open.url + pTagsList, api(open, "omit"), "200 "},
		{"credentials mode with a listed origin", listed.url + pTagsList, api(listed, "include"), "200 "},
		{"credentials mode with * is refused, as browsers do", open.url + pTagsList, api(open, "include"), "error: "},
		{"a foreign page cannot read the state", open.url + "/__mock/state", `{}`, "error: "},
		{"nor reset the world", open.url + "/__mock/reset", `{method: "POST", headers: {"Content-Type": "application/json"}, body: "{}"}`, "error: "},
		{"a listed origin may read the controls", listed.url + "/__mock/clock", `{credentials: "include"}`, "200 "},
	}
	t.Run("a no-cors POST from a foreign page resets nothing", func(t *testing.T) {
		open.ctl(http.MethodPost, "/__mock/faults", map[string]any{"operation": "cardsList", "status": 500}).wantStatus(t, 201)
		call(open.url+"/__mock/reset", `{method: "POST", mode: "no-cors", body: "{}"}`)
		call(open.url+"/__mock/faults", `{method: "DELETE", mode: "no-cors"}`)
		if f := open.ctl(http.MethodGet, "/__mock/faults", nil).list(t, "faults"); len(f) != 1 {
			t.Errorf("fault rules after a foreign page's reset: %v", f)
		}
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := call(tt.url, tt.opts)
			if !strings.HasPrefix(got, tt.want) {
				t.Errorf("fetch %s: %q, want %q…", tt.url, got, tt.want)
			}
			if tt.want == "200 " && strings.HasSuffix(got, " -") && strings.Contains(tt.url, "/services/") {
				t.Errorf("the rate-limit headers are not exposed: %q", got)
			}
		})
	}
}
