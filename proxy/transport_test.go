package proxy_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/proxy"
)

// What net/http answers by itself in front of the proxy — a request line it cannot parse,
// headers past the limit, an unknown transfer coding, an HTTP version it does not speak, two
// Content-Lengths — comes back in shape (a), not as plain text, when the proxy is served on its
// Listener (D79, D183).
func TestProxyTransportErrorsAnswerInTheEnvelope(t *testing.T) {
	up := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(up.Close)
	u, _ := url.Parse(up.URL)
	p, err := proxy.New(proxy.Config{Upstream: u})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(p)
	srv.Config.MaxHeaderBytes = 4 << 10
	srv.Listener = p.Listener(srv.Listener)
	srv.Start()
	t.Cleanup(srv.Close)
	addr := strings.TrimPrefix(srv.URL, "http://")
	for _, tc := range []struct {
		name, request string
		status        int
	}{
		{"a garbage request line", "NOT HTTP AT ALL\r\n\r\n", http.StatusBadRequest},
		{"headers past the limit", "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("a", 8<<10) + "\r\n\r\n", http.StatusRequestHeaderFieldsTooLarge},
		{"an unknown transfer coding", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", http.StatusNotImplemented},
		{"HTTP/9.9", "GET / HTTP/9.9\r\nHost: x\r\n\r\n", http.StatusHTTPVersionNotSupported},
		{"two Content-Lengths", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab", http.StatusBadRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			if _, err := io.WriteString(conn, tc.request); err != nil {
				t.Fatal(err)
			}
			res, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			body, _ := io.ReadAll(res.Body)
			if res.StatusCode != tc.status || res.Header.Get("Content-Type") != "application/json" {
				t.Fatalf("%d %s %s, want %d application/json", res.StatusCode, res.Header.Get("Content-Type"), body, tc.status)
			}
			var env map[string]any
			if err := json.Unmarshal(body, &env); err != nil || env["error"] != true || env["message"] == "" {
				t.Fatalf("body %s is not shape (a)", body)
			}
			if data, ok := env["data"].([]any); !ok || len(data) != 0 {
				t.Errorf("data of %s is not an empty array", body)
			}
		})
	}
}
