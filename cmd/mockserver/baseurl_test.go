package main

import (
	"net"
	"testing"
)

// The start-up line names a URL a local client can use, also for a listener on every interface.
func TestBaseURLIsReachable(t *testing.T) {
	for _, c := range []struct {
		addr net.Addr
		want string
	}{
		{&net.TCPAddr{IP: net.IPv4zero, Port: 4010}, "http://127.0.0.1:4010"},
		{&net.TCPAddr{IP: net.IPv6unspecified, Port: 4010}, "http://127.0.0.1:4010"},
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 4011}, "http://127.0.0.1:4011"},
		{&net.TCPAddr{IP: net.IPv6loopback, Port: 4012}, "http://[::1]:4012"},
	} {
		if got := baseURL(c.addr); got != c.want {
			t.Errorf("baseURL(%v) = %q, want %q", c.addr, got, c.want)
		}
	}
}
