package mockserver_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// What net/http answers by itself — a request it cannot parse, headers past its limit, an
// unknown transfer coding — comes back in shape (a) with the rate-limit headers (D79), not as
// plain text, when the mock is served on its Listener.
func TestTransportErrorsAnswerInTheEnvelope(t *testing.T) {
	mock, err := mockserver.New(mockserver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(mock)
	srv.Config.MaxHeaderBytes = 4 << 10
	srv.Listener = mock.Listener(srv.Listener)
	srv.Start()
	t.Cleanup(srv.Close)
	addr := strings.TrimPrefix(srv.URL, "http://")
	for _, tc := range []struct {
		name    string
		request string
		status  int
	}{
		{"a request line that is not HTTP", "NOT HTTP AT ALL\r\n\r\n", http.StatusBadRequest},
		{"no Host header", "POST /v1/authenticate HTTP/1.1\r\nContent-Length: 0\r\n\r\n", http.StatusBadRequest},
		{"headers past the limit", "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("a", 8<<10) + "\r\n\r\n", http.StatusRequestHeaderFieldsTooLarge},
		{"an unknown transfer coding", "POST /v1/authenticate HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", http.StatusNotImplemented},
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
			for _, h := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining"} {
				if res.Header.Get(h) == "" {
					t.Errorf("no %s header", h)
				}
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
	t.Run("leaves the mock's own answers alone", func(t *testing.T) {
		res, err := http.Get(srv.URL + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if b, _ := io.ReadAll(res.Body); res.StatusCode != 200 || !strings.Contains(string(b), `"ok"`) {
			t.Errorf("%d %s", res.StatusCode, b)
		}
	})
}
