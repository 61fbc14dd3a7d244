package proxy_test

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/proxy"
)

// An upstream URL is a scheme, a host and a base path: credentials in it would be shown on the
// dashboard and in every 502 (and never sent), a query key likewise, and '..' segments would
// lead every forwarded path out of the base path, as a client's are refused for; each is refused
// at start, and the message masks what it quotes.
func TestUpstreamHoldsNoSecrets(t *testing.T) {
	for raw, want := range map[string]string{
		"http://u:TopSecret@127.0.0.1:1/base":       "user name or password",
		"http://127.0.0.1:1/base?api_key=TopSecret": "holds a query",
		"http://127.0.0.1:1/base?":                  "holds a query",
		"http://127.0.0.1:1/base#TopSecret":         "fragment",
		"ftp://127.0.0.1:1/":                        "want an http or https URL",
		"http://127.0.0.1:":                         "no port after it",
		"http://127.0.0.1:1/echo/a/../../b":         "'.' or '..' segments",
		"http://127.0.0.1:1/api/%2e%2e/x":           "'.' or '..' segments",
	} {
		_, err := proxy.ParseUpstream(raw)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error saying %q", raw, err, want)
		} else if strings.Contains(err.Error(), "TopSecret") {
			t.Errorf("%s: the error quotes the secret: %v", raw, err)
		}
		if u, perr := url.Parse(raw); perr == nil {
			if _, err := proxy.New(proxy.Config{Upstream: u}); err == nil {
				t.Errorf("New accepts the upstream %s", raw)
			}
		}
	}
	if _, err := proxy.ParseUpstream("https://staging.example.com/api/"); err != nil {
		t.Errorf("a plain upstream with a base path: %v", err)
	}
}

// An upstream the proxy cannot reach at all gets a 502 that says what to check by the kind of
// failure: nothing listening at the port, or a plain-HTTP server named with https://.
func TestUnreachableUpstreamIsExplained(t *testing.T) {
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	t.Cleanup(plain.Close)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	type upstream struct {
		url, want string
		p         *proxy.Proxy
		srv       *httptest.Server
	}
	cases := []*upstream{
		{url: "http://" + closed, want: "Nothing listens at " + closed},
		{url: "https://" + strings.TrimPrefix(plain.URL, "http://"), want: "answers plain HTTP, not TLS: use http://"},
	}
	for _, tt := range cases { // every server listens before the port is freed: a freed port may come back
		u, _ := url.Parse(tt.url)
		if tt.p, err = proxy.New(proxy.Config{Upstream: u}); err != nil {
			t.Fatal(err)
		}
		tt.srv = httptest.NewServer(tt.p)
		t.Cleanup(tt.srv.Close)
	}
	ln.Close() // nothing listens there now
	for _, tt := range cases {
		res, err := http.Post(tt.srv.URL+"/services/operations/v1/operations/tags/list", "application/json", strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusBadGateway || !strings.Contains(string(raw), tt.want) {
			t.Errorf("upstream %s: %d %s, want 502 saying %q", tt.url, res.StatusCode, raw, tt.want)
		}
		if strings.Contains(string(raw), "dial tcp") || strings.Contains(string(raw), "tls: ") {
			t.Errorf("upstream %s: %s speaks Go", tt.url, raw)
		}
		// No answer is UP-1, not an answer judged by status and headers only.
		if r := tt.p.Report(); r.BodiesUnjudged != 0 || r.Checked != 1 || r.DeploymentViolations != 1 {
			t.Errorf("upstream %s: report counts %d checked, %d bodies unjudged, %d deployment violations; want 1, 0, 1",
				tt.url, r.Checked, r.BodiesUnjudged, r.DeploymentViolations)
		}
	}
}

// UP-1 is a rule of the operations' requests: a path that is none (GET /healthz, a mistyped
// operation path) forwarded to an upstream that does not answer gets the 502 without a verdict,
// as the reports count none for it (the header said UP-1 while the report and
// --fail-on-violation said 0).
func TestUnansweredPathThatIsNoOperationNamesNoViolation(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse("http://" + ln.Addr().String())
	p, err := proxy.New(proxy.Config{Upstream: u})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	ln.Close() // nothing listens there now
	for _, c := range []struct {
		method, path string
		want         string
	}{
		{http.MethodGet, "/healthz", ""},
		{http.MethodPost, "/services/operations/v1/operations/tags/listx", ""},
		{http.MethodPost, "/services/operations/v1/operations/tags/list", "UP-1"},
	} {
		req, _ := http.NewRequest(c.method, srv.URL+c.path, strings.NewReader("{}"))
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if got := res.Header.Get(proxy.HeaderViolations); res.StatusCode != http.StatusBadGateway || got != c.want {
			t.Errorf("%s %s to an upstream that does not answer: %d, verdict %q; want 502, %q", c.method, c.path, res.StatusCode, got, c.want)
		}
	}
	if r := p.Report(); r.DeploymentViolations != 1 {
		t.Errorf("report counts %d deployment violations, want the operation's 1", r.DeploymentViolations)
	}
}
