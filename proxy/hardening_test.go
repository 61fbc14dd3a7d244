package proxy_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/proxy"
)

// A deployment answering camelCase credentials (an OAuth-style login) never has them shown in
// the journal, in the answer or the request, whatever the case style (D142).
func TestJournalRedactsCamelCase(t *testing.T) {
	s := startProxy(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"error":false,"message":"ok","data":{"accessToken":"ans-acc","refreshToken":"ans-ref","idToken":"ans-id","privateKey":"ans-pk","ID-TOKEN":"ans-up"}}`)
	}))
	s.post(t, "/v1/authenticate", "", `{"email":"a@b.test","password":"x","clientSecret":"req-cs","apiKey":"req-ak","X-API-KEY":"req-up"}`)
	res, err := http.Get(s.url + "/__proxy/exchanges")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	for _, secret := range []string{"ans-acc", "ans-ref", "ans-id", "ans-pk", "ans-up", "req-cs", "req-ak", "req-up"} {
		if strings.Contains(string(raw), secret) {
			t.Errorf("the journal shows the credential %q", secret)
		}
	}
}

// A hop-by-hop header the upstream names in "Connection: X, close" never reaches the client,
// though net/http drops that Connection header before the proxy sees it (D140).
func TestHopByHopNamedByConnectionClose(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Connection", "X-Internal-Hop, close")
		w.Header().Set("X-Internal-Hop", "upstream-secret")
		w.Header().Set("X-Kept", "end-to-end")
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(up.Close)
	u, _ := url.Parse(up.URL)
	p, err := proxy.New(proxy.Config{Upstream: u}) // the proxy's own transport
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	for range 2 {
		res, err := http.Get(srv.URL + "/anything")
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if v := res.Header.Get("X-Internal-Hop"); v != "" || res.Header.Get("X-Kept") != "end-to-end" {
			t.Errorf("X-Internal-Hop %q reached the client (X-Kept %q)", v, res.Header.Get("X-Kept"))
		}
	}
}

// A deployment cannot forge the verdict CI reads: its own X-Contract-Violations is dropped,
// on a clean exchange and on a path the proxy does not check (D140).
func TestUpstreamCannotForgeViolations(t *testing.T) {
	mock := newMock(t)
	s := startProxy(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set(proxy.HeaderViolations, "FORGED-1")
		mock.ServeHTTP(w, r)
	}))
	for _, path := range []string{"/services/operations/v1/operations/tags/list", "/healthz"} {
		a := s.post(t, path, "", `{}`)
		if got := a.header.Get(proxy.HeaderViolations); strings.Contains(got, "FORGED") {
			t.Errorf("%s: the client reads the upstream's %s: %q", path, proxy.HeaderViolations, got)
		}
	}
}

// A proxy whose upstream is itself answers 508 at once instead of looping until it runs out
// of connections (D140).
func TestProxyLoopDetected(t *testing.T) {
	var h http.Handler = http.NotFoundHandler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, r) }))
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	p, err := proxy.New(proxy.Config{Upstream: u})
	if err != nil {
		t.Fatal(err)
	}
	h = p
	client := &http.Client{Timeout: 10 * time.Second}
	res, err := client.Post(srv.URL+"/services/operations/v1/operations/tags/list", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatalf("the request never came back: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusLoopDetected {
		t.Errorf("status %d, want 508", res.StatusCode)
	}
	// The 508 is the proxy's own refusal, not the deployment's answer: never judged.
	if v := res.Header.Get(proxy.HeaderViolations); v != "" || p.DeploymentViolations() != 0 {
		t.Errorf("the loop's refusal is judged as the deployment's: verdict %q, %d deployment violations", v, p.DeploymentViolations())
	}
}

// Two proxies whose upstreams lead to each other (A → B → A): the 508 one of them answers is
// judged by neither as the deployment's (D140).
func TestTwoProxyLoopIsNoDeploymentViolation(t *testing.T) {
	var hb http.Handler = http.NotFoundHandler()
	b := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hb.ServeHTTP(w, r) }))
	t.Cleanup(b.Close)
	bu, _ := url.Parse(b.URL)
	pa, err := proxy.New(proxy.Config{Upstream: bu})
	if err != nil {
		t.Fatal(err)
	}
	a := httptest.NewServer(pa)
	t.Cleanup(a.Close)
	au, _ := url.Parse(a.URL)
	pb, err := proxy.New(proxy.Config{Upstream: au})
	if err != nil {
		t.Fatal(err)
	}
	hb = pb
	res, err := (&http.Client{Timeout: 10 * time.Second}).Post(a.URL+"/services/operations/v1/operations/tags/list", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatalf("the request never came back: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusLoopDetected || res.Header.Get(proxy.HeaderViolations) != "" {
		t.Errorf("status %d with verdict %q, want 508 unjudged", res.StatusCode, res.Header.Get(proxy.HeaderViolations))
	}
	if pa.DeploymentViolations() != 0 || pb.DeploymentViolations() != 0 {
		t.Errorf("deployment violations: A %d, B %d, want none", pa.DeploymentViolations(), pb.DeploymentViolations())
	}
}

// A path with ".." is never forwarded: joined to the upstream's base path it would leave it
// (D140).
func TestDotSegmentsNotForwarded(t *testing.T) {
	var hits []string
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits = append(hits, r.URL.EscapedPath())
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(up.Close)
	u, _ := url.Parse(up.URL + "/api")
	p, err := proxy.New(proxy.Config{Upstream: u})
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"/../admin", "/services/../../admin", "/a/%2e%2e/%2E%2E/admin", "/./x", "/a/..%5cadmin", "/a/..%5Cadmin", "/..;/admin", "/a/..;jsessionid=1/admin", "/..%c0%af/admin", "/..%00/admin", "/.../x"} {
		req := httptest.NewRequest(http.MethodGet, target, nil)
		req.Host = "127.0.0.1"
		rec := httptest.NewRecorder()
		p.ServeHTTP(rec, req)
		if rec.Code != http.StatusBadRequest {
			t.Errorf("%s: %d, want 400", target, rec.Code)
		}
	}
	if len(hits) != 0 {
		t.Errorf("forwarded to the upstream: %v", hits)
	}
	// Each refusal names what the path has.
	for target, says := range map[string]string{"/__worlds/%00/x": "NUL", "/a/..%c0%af/b": "not UTF-8", "/a/%2e%2e/b": "'.' or '..'"} {
		req := httptest.NewRequest(http.MethodGet, target, nil)
		req.Host = "127.0.0.1"
		rec := httptest.NewRecorder()
		p.ServeHTTP(rec, req)
		if !strings.Contains(rec.Body.String(), says) {
			t.Errorf("%s: %s, want it to name %q", target, rec.Body, says)
		}
	}
}
