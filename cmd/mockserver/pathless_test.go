package main

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
)

// Requests that name no path, as net/http lets them through to the handler: the mock and the
// proxy answer them in the envelope, shape (a), not with net/http's own empty 200 (OPTIONS *)
// or a 404 for the route "*" (the HTTP/2 preface of a client speaking HTTP/2 without asking:
// 505, as any HTTP/2.0 request line gets, so the client knows to speak HTTP/1.1).
func TestRequestsWithoutAPathAreAnsweredInTheEnvelope(t *testing.T) {
	mock, stopMock := startMock(t)
	defer stopMock()
	prox, stopProxy := startProxyCmd(t, nil, "--upstream", mock)
	defer stopProxy()
	for name, base := range map[string]string{"mock": mock, "proxy": prox} {
		for _, c := range []struct {
			request string
			status  int
		}{
			{"OPTIONS * HTTP/1.1\r\nHost: %s\r\n\r\n", 0},
			{"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n%.0s", http.StatusHTTPVersionNotSupported},
		} {
			host := strings.TrimPrefix(base, "http://")
			res, body := rawExchange(t, host, fmt.Sprintf(c.request, host))
			line := strings.Fields(c.request)[0]
			if res.StatusCode < 400 || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") || !strings.Contains(body, `"error":true`) {
				t.Errorf("the %s answered %s with %d %q %s, want a refusal in the envelope", name, line, res.StatusCode, res.Header.Get("Content-Type"), body)
			}
			if c.status != 0 && (res.StatusCode != c.status || !strings.Contains(body, "send HTTP/1.1")) {
				t.Errorf("the %s answered %s with %d %s, want %d asking for HTTP/1.1", name, line, res.StatusCode, body, c.status)
			}
		}
	}
}

// rawExchange sends request as written on a new connection to host and reads the answer.
func rawExchange(t *testing.T, host, request string) (*http.Response, string) {
	t.Helper()
	c, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprint(c, request)
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body strings.Builder
	_, _ = bufio.NewReader(res.Body).WriteTo(&body)
	return res, body.String()
}
