package proxy_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/mockserver"
	"github.com/opsapi/mocktoolkit/proxy"
)

// mockNow pins the clock of the mocks the tests use as upstream (the spec's examples are the
// answers of this world).
var mockNow = time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC)

// newMock is the reference mock of the default world.
func newMock(t testing.TB) *mockserver.Server {
	t.Helper()
	m, err := mockserver.New(mockserver.Config{Now: mockNow})
	if err != nil {
		t.Fatalf("mockserver.New: %v", err)
	}
	return m
}

// setup is a proxy in front of an upstream, both served by httptest.
type setup struct {
	url      string // the proxy's base URL
	upstream *httptest.Server
	proxy    *proxy.Proxy
	seen     *tee // what the upstream answered, as the proxy received it
	client   *http.Client
}

// startProxy serves upstream with httptest and puts a proxy in front of it.
func startProxy(t testing.TB, upstream http.Handler) *setup {
	t.Helper()
	return startProxyWith(t, upstream, proxy.Config{})
}

// startProxyWith is startProxy with cfg's settings (its Upstream and Transport are the test's).
func startProxyWith(t testing.TB, upstream http.Handler, cfg proxy.Config) *setup {
	t.Helper()
	up := httptest.NewServer(upstream)
	t.Cleanup(up.Close)
	u, err := url.Parse(up.URL)
	if err != nil {
		t.Fatal(err)
	}
	seen := &tee{next: &http.Transport{DisableCompression: true}}
	cfg.Upstream, cfg.Transport = u, seen
	p, err := proxy.New(cfg)
	if err != nil {
		t.Fatalf("proxy.New: %v", err)
	}
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	return &setup{url: srv.URL, upstream: up, proxy: p, seen: seen, client: &http.Client{Transport: &http.Transport{DisableCompression: true}}}
}

// answer is a status, headers and body bytes.
type answer struct {
	status int
	header http.Header
	body   []byte
}

// tee is the proxy's transport in tests: it keeps each answer of the upstream as it came.
type tee struct {
	next http.RoundTripper
	mu   sync.Mutex
	last answer
}

func (t *tee) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	t.mu.Lock()
	t.last = answer{status: resp.StatusCode, header: resp.Header.Clone(), body: body}
	t.mu.Unlock()
	return resp, nil
}

func (t *tee) lastAnswer() answer {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.last
}

// post sends a JSON body through the proxy, with the conventional headers and a bearer token
// when one is given.
func (s *setup) post(t *testing.T, path, token, body string) answer {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, s.url+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return s.do(t, req)
}

func (s *setup) do(t *testing.T, req *http.Request) answer {
	t.Helper()
	res, err := s.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return answer{status: res.StatusCode, header: res.Header, body: body}
}

// login authenticates c directly at the upstream and returns the bearer token.
func (s *setup) login(t *testing.T, c fixtures.Credentials) string {
	t.Helper()
	b, _ := json.Marshal(map[string]string{"email": c.Email, "password": c.Password})
	res, err := http.Post(s.upstream.URL+"/v1/authenticate", "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var v struct {
		Data struct {
			Token string `json:"token"`
		} `json:"data"`
	}
	if err := json.NewDecoder(res.Body).Decode(&v); err != nil || v.Data.Token == "" {
		t.Fatalf("login %s: %d %v", c.Email, res.StatusCode, err)
	}
	return v.Data.Token
}

// manifest is the default world's manifest.
func manifest() fixtures.Manifest { return fixtures.Build(fixtures.DefaultSeed, mockNow).Manifest }

// violations reads X-Contract-Violations.
func violations(a answer) []string {
	v := a.header.Get(proxy.HeaderViolations)
	if v == "" {
		return nil
	}
	return strings.Split(v, ",")
}

// loginThrough sends body to authenticate through the proxy, so the exchange is journaled, and
// returns the token it answers (login goes to the upstream directly).
func (s *setup) loginThrough(t *testing.T, body string) string {
	t.Helper()
	a := s.post(t, "/v1/authenticate", "", body)
	var answered struct {
		Data struct {
			Token string `json:"token"`
		} `json:"data"`
	}
	if err := json.Unmarshal(a.body, &answered); err != nil || answered.Data.Token == "" {
		t.Fatalf("login through the proxy: %d %s", a.status, a.body)
	}
	return answered.Data.Token
}
