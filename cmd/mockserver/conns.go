package main

import (
	"fmt"
	"net"
	"net/http"

	"github.com/opsapi/mocktoolkit/internal/connlimit"
	"github.com/opsapi/mocktoolkit/internal/wireerr"
)

// maxConns bounds the connections the mock, or the proxy, keeps open (D220): far above what
// test workers and browsers open (a browser six per origin, a test process a few), low enough
// that idle ones cost tens of MB, not hundreds, and leave file descriptors to spare.
var maxConns = 2048 // a var only so that tests may lower it

// boundConns bounds the connections srv keeps open on ln, who ("mock" or "proxy") naming the
// server in its refusal; srv serves on the listener it returns, its handler wrapped to follow
// how request bodies arrive.
func boundConns(srv *http.Server, ln net.Listener, who string) net.Listener {
	refusal := wireerr.Answer(http.StatusServiceUnavailable,
		fmt.Sprintf("The %s has %d connections open, each in the middle of a request; try again in a moment.", who, maxConns),
		"Retry-After: 1")
	limit := connlimit.New(maxConns, refusal)
	srv.ConnState, srv.ConnContext = limit.ConnState, limit.ConnContext
	srv.Handler = limit.Handler(srv.Handler)
	return limit.Listener(ln)
}
