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
	for _, path := range []string{pCardsList, pAuthenticate, "/__mock/reset"} {
		t.Run("preflight of "+path, func(t *testing.T) {
			a := preflight(path).wantStatus(t, http.StatusNoContent)
			want := map[string]string{
				"Access-Control-Allow-Origin":  "*",
				"Access-Control-Allow-Methods": "POST",
				"Access-Control-Allow-Headers": "Authorization",
			}
			for h, v := range want {
				if !strings.Contains(a.header.Get(h), v) {
					t.Errorf("%s = %q, want it to hold %q", h, a.header.Get(h), v)
				}
			}
			if !strings.Contains(a.header.Get("Access-Control-Allow-Headers"), "Content-Type") {
				t.Errorf("Allow-Headers lacks Content-Type: %q", a.header.Get("Access-Control-Allow-Headers"))
			}
		})
	}
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
