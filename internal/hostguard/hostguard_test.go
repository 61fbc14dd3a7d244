package hostguard

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// The guard allows IP addresses, reserved names and the listed ones, in any case, with or
// without a port or a final dot; any other name is refused, and "*" allows all (D103, D140).
func TestPolicy(t *testing.T) {
	p := New([]string{" Mock.Internal. ", ""})
	for host, want := range map[string]bool{
		"127.0.0.1:4010": true, "[::1]:4010": true, "10.0.0.7": true, "localhost": true, "LOCALHOST.:80": true,
		"app.localhost": true, "svc.test": true, "example.com": true, "x.example": true, "mock.internal:4010": true,
		"MOCK.INTERNAL.": true, "": true,
		"rebind.attacker.net": false, "mock.internal.attacker.net": false, "localhost.attacker.net": false,
		"127.0.0.1.nip.io": false, "example.com.evil.net": false,
	} {
		if got := p.Allows(host); got != want {
			t.Errorf("Allows(%q) = %v, want %v", host, got, want)
		}
	}
	if !New([]string{"*"}).Allows("anything.attacker.net") {
		t.Error(`"*" does not allow every host`)
	}
}

// A request target in absolute form is judged by the host it names, which net/http puts in
// r.Host whatever the Host header says (D221): one the policy allows is admitted as the same
// request in origin form; another, or a URL that is not http, is refused as forward-proxy use.
func TestAbsoluteFormTargets(t *testing.T) {
	p := New([]string{"mock.internal"})
	for target, admitted := range map[string]bool{
		"http://127.0.0.1:4010/__mock/clock":      true,
		"http://MOCK.internal:4010/__mock/clock":  true,
		"https://localhost/__mock/clock":          true,
		"http://rebind.attacker.net/__mock/clock": false,
		"http://127.0.0.1.nip.io/__mock/clock":    false,
		"ftp://127.0.0.1/__mock/clock":            false,
	} {
		r := httptest.NewRequest("GET", target, nil)
		r.Header.Set("Host", "127.0.0.1") // dropped by net/http's server: the request line's host counts
		why := p.Refuses(r, "Only")
		if admitted && why != "" {
			t.Errorf("%s refused: %s", target, why)
		}
		if !admitted && !strings.Contains(why, "forward proxy") {
			t.Errorf("%s: %q, want it refused as forward-proxy use", target, why)
		}
	}
	r := httptest.NewRequest("GET", "/__mock/clock", nil)
	r.Host = "127.0.0.1:4010"
	if why := p.Refuses(r, "Only"); why != "" {
		t.Errorf("an origin-form request to 127.0.0.1 was refused: %s", why)
	}
}
