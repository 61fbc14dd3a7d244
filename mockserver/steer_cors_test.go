package mockserver_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// A preflight OPTIONS on an operation answers 204 with the CORS headers, before auth; answers
// to an allowed Origin expose the rate-limit headers (README, "Steering the mock": CORS).
func TestCORSPreflightAndExposedHeaders(t *testing.T) {
	m := newMock(t, mockserver.Config{AdminToken: "s3cret"})
	preflight := func(path string) answer {
		return m.ctl(http.MethodOptions, path, nil, "Origin", "http://localhost:5173",
			"Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "authorization, content-type")
	}
	for _, path := range []string{pCardsList, pAuthenticate} {
		t.Run("preflight of "+path, func(t *testing.T) {
			a := preflight(path).wantStatus(t, http.StatusNoContent)
			want := map[string]string{
				"Access-Control-Allow-Origin":  "*",
				"Access-Control-Allow-Methods": "POST",
				"Access-Control-Allow-Headers": "authorization, content-type",
				"X-Ratelimit-Limit":            "1000",
			}
			for h, v := range want {
				if !strings.Contains(a.header.Get(h), v) {
					t.Errorf("%s = %q, want it to hold %q", h, a.header.Get(h), v)
				}
			}
		})
	}
	t.Run("the mock's own endpoints are not open to foreign origins by default (D103)", func(t *testing.T) {
		a := preflight("/__mock/reset").wantStatus(t, http.StatusNoContent)
		if got := a.header.Get("Access-Control-Allow-Origin"); got != "" {
			t.Errorf("Allow-Origin %q on a control, want none", got)
		}
		g := m.ctl(http.MethodGet, "/__mock/state", nil, "Origin", "https://evil.example", mockserver.AdminTokenHeader, "s3cret")
		if got := g.header.Get("Access-Control-Allow-Origin"); got != "" {
			t.Errorf("Allow-Origin %q on GET /__mock/state, want none", got)
		}
	})
	preflight("/no/such/path").wantStatus(t, http.StatusNotFound)

	a := m.ctl(http.MethodPost, pCardsList, "{}", "Origin", "http://localhost:5173").wantStatus(t, http.StatusUnauthorized)
	if a.header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("no Allow-Origin on an answer: %v", a.header)
	}
	expose := a.header.Get("Access-Control-Expose-Headers")
	for _, h := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "Retry-After"} {
		if !strings.Contains(expose, h) {
			t.Errorf("Expose-Headers %q lacks %s", expose, h)
		}
	}
}

// With configured origins, only those are allowed, echoed back with Vary: Origin.
func TestCORSConfiguredOrigins(t *testing.T) {
	m := newMock(t, mockserver.Config{CORSOrigins: []string{"https://app.example.com"}})
	tests := []struct {
		origin, want string
	}{
		{"https://app.example.com", "https://app.example.com"},
		{"https://evil.example.com", ""},
	}
	for _, tt := range tests {
		t.Run(tt.origin, func(t *testing.T) {
			a := m.ctl(http.MethodOptions, pTagsList, nil, "Origin", tt.origin, "Access-Control-Request-Method", "POST").wantStatus(t, 204)
			if got := a.header.Get("Access-Control-Allow-Origin"); got != tt.want {
				t.Errorf("Allow-Origin %q, want %q", got, tt.want)
			}
			if a.header.Get("Vary") != "Origin" {
				t.Errorf("Vary %q, want Origin", a.header.Get("Vary"))
			}
		})
	}
}

// Preflights reflect the headers a browser asks for (tracing headers included), and listed
// origins may send credentials (D103).
func TestCORSBrowserGrade(t *testing.T) {
	m := newMock(t, mockserver.Config{CORSOrigins: []string{"http://localhost:5173"}})
	a := m.ctl(http.MethodOptions, pCardsList, nil, "Origin", "http://localhost:5173", "Access-Control-Request-Method", "POST",
		"Access-Control-Request-Headers", "authorization, content-type, traceparent, sentry-trace, x-requested-with").wantStatus(t, 204)
	for h, want := range map[string]string{
		"Access-Control-Allow-Origin":      "http://localhost:5173",
		"Access-Control-Allow-Credentials": "true",
		"Access-Control-Allow-Headers":     "authorization, content-type, traceparent, sentry-trace, x-requested-with",
	} {
		if got := a.header.Get(h); got != want {
			t.Errorf("%s = %q, want %q", h, got, want)
		}
	}
	if a.header.Get("X-Ratelimit-Remaining") == "" {
		t.Errorf("preflight without rate-limit headers: %v", a.header)
	}
	t.Run("a listed origin may call the controls", func(t *testing.T) {
		a := m.ctl(http.MethodGet, "/__mock/clock", nil, "Origin", "http://localhost:5173").wantStatus(t, 200)
		if a.header.Get("Access-Control-Allow-Origin") != "http://localhost:5173" {
			t.Errorf("Allow-Origin %q", a.header.Get("Access-Control-Allow-Origin"))
		}
	})
	t.Run("header names that are not tokens get the mock's own list", func(t *testing.T) {
		a := m.ctl(http.MethodOptions, pCardsList, nil, "Origin", "http://localhost:5173", "Access-Control-Request-Method", "POST",
			"Access-Control-Request-Headers", "bad header, x").wantStatus(t, 204)
		if !strings.Contains(a.header.Get("Access-Control-Allow-Headers"), "Authorization") {
			t.Errorf("Allow-Headers %q", a.header.Get("Access-Control-Allow-Headers"))
		}
	})
}

// The controls answer only localhost, IP addresses and --allowed-hosts: a DNS-rebinding page
// gets 403 shape (b) (D103). The API answers any Host.
func TestControlsRefuseForeignHosts(t *testing.T) {
	m := newMock(t, mockserver.Config{AllowedHosts: []string{"mock.test"}})
	for host, want := range map[string]int{"attacker.example.org.evil.net": 403, "rebind.attacker.net:4010": 403, "localhost:4010": 200, "127.0.0.1": 200, "[::1]:80": 200, "mock.test": 200, "app.localhost": 200} {
		t.Run(host, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, m.url+"/__mock/clock", nil)
			req.Host = host
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != want {
				t.Errorf("status %d, want %d", res.StatusCode, want)
			}
		})
	}
	req, _ := http.NewRequest(http.MethodPost, m.url+pCardsList, strings.NewReader("{}"))
	req.Host = "attacker.net"
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Errorf("API with a foreign Host: %d, want 401", res.StatusCode)
	}
}

// A change to the controls from a foreign origin is refused even without a preflight (a form
// or a no-cors fetch); the mock's own pages, listed origins and clients without Origin pass
// (D103).
func TestControlsRefuseForeignOrigins(t *testing.T) {
	m := newMock(t, mockserver.Config{CORSOrigins: []string{"http://localhost:5173"}})
	m.ctl(http.MethodPost, "/__mock/reset", nil, "Origin", "https://evil.example").wantStatus(t, 403).wantShape(t, "b")
	m.ctl(http.MethodPost, "/__mock/reset", nil, "Origin", "http://localhost:5173").wantStatus(t, 200)
	m.ctl(http.MethodPost, "/__mock/reset", nil, "Origin", m.url).wantStatus(t, 200)
	m.ctl(http.MethodPost, "/__mock/reset", nil).wantStatus(t, 200)
	m.ctl(http.MethodGet, "/__mock/clock", nil, "Origin", "https://evil.example").wantStatus(t, 200)
	// Two Origin headers: servers disagree on which counts, so neither does (a listed one first
	// does not let the other in).
	// The refusal says so, rather than naming an origin the client never sent ("null").
	if a := m.ctl(http.MethodPost, "/__mock/reset", nil, "Origin", "http://localhost:5173", "Origin", "https://evil.example"); a.status != 403 || !strings.Contains(string(a.raw), "more than one Origin header") || strings.Contains(string(a.raw), `\"null\"`) {
		t.Errorf("a reset with two Origin headers: %d %s, want 403 saying there were two", a.status, a.raw)
	}
	if a := m.ctl(http.MethodPost, pTagsList, "{}", "Origin", "http://localhost:5173", "Origin", "https://evil.example"); a.header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("two Origin headers: the answer allows %q", a.header.Get("Access-Control-Allow-Origin"))
	}
}
