package proxy_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/proxy"
)

// A DNS-rebinding page reaches the proxy under its own name: neither the recorded traffic nor
// forwarding answer a Host the policy refuses, and nothing reaches the upstream (D140).
func TestHostGuardRefusesRebinding(t *testing.T) {
	upstreamCalls := 0
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		upstreamCalls++
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(up.Close)
	u, _ := url.Parse(up.URL)
	for _, tc := range []struct {
		allowed []string
		host    string
		want    int
	}{
		{nil, "rebind.attacker.net:4010", http.StatusForbidden},
		{[]string{"proxy.internal"}, "rebind.attacker.net", http.StatusForbidden},
		{[]string{"proxy.internal"}, "PROXY.internal.:4010", 0},
		{[]string{"*"}, "rebind.attacker.net", 0},
		{nil, "localhost:4010", 0},
		{nil, "127.0.0.1:4010", 0},
	} {
		p, err := proxy.New(proxy.Config{Upstream: u, AllowedHosts: tc.allowed})
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range []string{"/__proxy/exchanges", "/__proxy/", "/services/operations/v1/operations/cards/list"} {
			before := upstreamCalls
			req := httptest.NewRequest(http.MethodGet, path, nil)
			req.Host = tc.host
			rec := httptest.NewRecorder()
			p.ServeHTTP(rec, req)
			if tc.want == 0 {
				if rec.Code == http.StatusForbidden {
					t.Errorf("allowed %v, Host %q, %s: refused: %s", tc.allowed, tc.host, path, rec.Body)
				}
				continue
			}
			var env struct {
				Error   bool   `json:"error"`
				Message string `json:"message"`
			}
			body, _ := io.ReadAll(rec.Body)
			if rec.Code != tc.want || json.Unmarshal(body, &env) != nil || !env.Error || !strings.Contains(env.Message, "--allowed-hosts") {
				t.Errorf("allowed %v, Host %q, %s: got %d %s, want %d naming --allowed-hosts", tc.allowed, tc.host, path, rec.Code, body, tc.want)
			}
			if upstreamCalls != before {
				t.Errorf("Host %q, %s: the refused request reached the upstream", tc.host, path)
			}
		}
	}
}

// CONNECT names an authority, not a path of the upstream: the proxy refuses it (405 shape (a))
// rather than forward "CONNECT /" upstream.
func TestProxyRefusesConnect(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the upstream got %s %s", r.Method, r.RequestURI)
	}))
	defer up.Close()
	u, _ := url.Parse(up.URL)
	p, err := proxy.New(proxy.Config{Upstream: u})
	if err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequest(http.MethodConnect, "http://127.0.0.1:4010/", nil)
	r.URL = &url.URL{Host: "example.com:443"}
	r.RequestURI, r.Host = "example.com:443", "127.0.0.1:4010"
	rec := httptest.NewRecorder()
	p.ServeHTTP(rec, r)
	if rec.Code != http.StatusMethodNotAllowed || !strings.Contains(rec.Body.String(), `"data":[]`) {
		t.Errorf("CONNECT: %d %s, want 405 shape (a)", rec.Code, rec.Body)
	}
}

// A request line carrying a fragment ("#frag", which a client never sends) is refused, not
// forwarded: Go reads '#' as part of the path, and the upstream got "%23frag", a path nobody
// named. An escaped '#' (%23) is the client's own and passes.
func TestProxyRefusesAFragmentInTheRequestLine(t *testing.T) {
	var got []string
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.RequestURI)
	}))
	defer up.Close()
	u, _ := url.Parse(up.URL)
	p, err := proxy.New(proxy.Config{Upstream: u})
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"/x/y#frag", "/x/y?a=1#frag"} {
		r := httptest.NewRequest(http.MethodGet, "http://127.0.0.1:4010/x", nil)
		r.URL, _ = url.ParseRequestURI(target)
		r.RequestURI, r.Host = target, "127.0.0.1:4010"
		rec := httptest.NewRecorder()
		p.ServeHTTP(rec, r)
		if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "fragment") || !strings.Contains(rec.Body.String(), `"error":true`) {
			t.Errorf("%s: %d %s, want 400 shape (a) naming the fragment", target, rec.Code, rec.Body)
		}
	}
	r := httptest.NewRequest(http.MethodGet, "/x/y%23z", nil)
	r.Host = "127.0.0.1:4010"
	rec := httptest.NewRecorder()
	p.ServeHTTP(rec, r)
	if len(got) != 1 || got[0] != "/x/y%23z" {
		t.Errorf("the upstream got %q (the client %d %s), want only the escaped '#' forwarded as sent", got, rec.Code, rec.Body)
	}
}
