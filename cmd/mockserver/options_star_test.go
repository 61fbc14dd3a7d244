package main

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
)

// OPTIONS * names no path: the mock and the proxy answer it in the envelope, shape (a), as they
// answer any request they cannot route, not with net/http's own empty 200.
func TestOptionsStarIsAnsweredInTheEnvelope(t *testing.T) {
	mock, stopMock := startMock(t)
	defer stopMock()
	prox, stopProxy := startProxyCmd(t, nil, "--upstream", mock)
	defer stopProxy()
	for name, base := range map[string]string{"mock": mock, "proxy": prox} {
		host := strings.TrimPrefix(base, "http://")
		c, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(c, "OPTIONS * HTTP/1.1\r\nHost: %s\r\n\r\n", host)
		res, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatal(err)
		}
		var body strings.Builder
		_, _ = bufio.NewReader(res.Body).WriteTo(&body)
		res.Body.Close()
		c.Close()
		if res.StatusCode < 400 || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") || !strings.Contains(body.String(), `"error":true`) {
			t.Errorf("the %s answered OPTIONS * with %d %q %s, want a refusal in the envelope", name, res.StatusCode, res.Header.Get("Content-Type"), body.String())
		}
	}
}
