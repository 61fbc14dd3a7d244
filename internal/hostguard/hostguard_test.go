package hostguard

import (
	"net/http/httptest"
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

// A request target in absolute form is refused whatever its host: net/http drops the Host
// header then, so "GET http://127.0.0.1/… Host: evil.example" would pass as 127.0.0.1.
func TestRefusesAbsoluteFormTargets(t *testing.T) {
	p := New(nil)
	r := httptest.NewRequest("GET", "http://127.0.0.1/__mock/clock", nil)
	if why := p.Refuses(r, "Only"); why == "" {
		t.Error("an absolute-form target was admitted")
	}
	r = httptest.NewRequest("GET", "/__mock/clock", nil)
	r.Host = "127.0.0.1:4010"
	if why := p.Refuses(r, "Only"); why != "" {
		t.Errorf("an origin-form request to 127.0.0.1 was refused: %s", why)
	}
}
