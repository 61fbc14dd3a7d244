// Package wireerrtest holds the one table of requests net/http refuses by itself (a request
// line it cannot parse, no Host, headers past the limit, an unknown transfer coding, an HTTP
// version other than 1.x, two Content-Lengths, an Expect other than 100-continue) and checks, over a raw TCP connection, that a
// server on a wireerr listener answers each in shape (a) (D79, D183). The mock's and the
// proxy's tests run it against their own listeners.
package wireerrtest

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
)

// MaxHeaderBytes is the header limit the server under test must be given
// (http.Server.MaxHeaderBytes) for the "headers past the limit" case to be refused.
const MaxHeaderBytes = 4 << 10

// Case is one request written as raw bytes, the status net/http refuses it with, and words
// the answer's message must hold (what is wrong, where net/http says it or the cause is known).
type Case struct {
	Name, Request string
	Status        int
	Says          string
}

// Cases are the requests net/http refuses before any handler runs.
var Cases = []Case{
	{"a request line that is not HTTP", "NOT HTTP AT ALL\r\n\r\n", http.StatusBadRequest, "request line"},
	{"no Host header", "POST / HTTP/1.1\r\nContent-Length: 0\r\n\r\n", http.StatusBadRequest, "missing required Host header"},
	{"a bad percent escape in the path", "GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n", http.StatusBadRequest, "bad %-escape"},
	{"two Host headers", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", http.StatusBadRequest, "Host or Content-Length given twice"},
	{"headers past the limit", "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("a", 2*MaxHeaderBytes) + "\r\n\r\n", http.StatusRequestHeaderFieldsTooLarge, "headers are larger"},
	{"an unknown transfer coding", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", http.StatusNotImplemented, "Transfer-Encoding"},
	{"HTTP/9.9", "GET / HTTP/9.9\r\nHost: x\r\n\r\n", http.StatusHTTPVersionNotSupported, "HTTP version"},
	{"two Content-Lengths", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab", http.StatusBadRequest, "Host or Content-Length given twice"},
	{"an unknown expectation", "POST / HTTP/1.1\r\nHost: x\r\nExpect: 42-fish\r\nContent-Length: 0\r\n\r\n", http.StatusExpectationFailed, "Expect"},
}

// Check sends every case to addr (host:port), each on its own connection, and checks the
// answer: the case's status, application/json, a body in shape (a) with an empty data array,
// and each of headers present.
func Check(t *testing.T, addr string, headers ...string) {
	t.Helper()
	for _, tc := range Cases {
		t.Run(tc.Name, func(t *testing.T) {
			status, header, body := send(t, addr, tc.Request)
			if status != tc.Status || header.Get("Content-Type") != "application/json" {
				t.Fatalf("%d %s %s, want %d application/json", status, header.Get("Content-Type"), body, tc.Status)
			}
			for _, h := range headers {
				if header.Get(h) == "" {
					t.Errorf("no %s header", h)
				}
			}
			var env map[string]any
			if err := json.Unmarshal(body, &env); err != nil || env["error"] != true || env["message"] == "" {
				t.Fatalf("body %s is not shape (a)", body)
			}
			if msg, _ := env["message"].(string); !strings.Contains(msg, tc.Says) {
				t.Errorf("message %q does not say %q", msg, tc.Says)
			}
			if data, ok := env["data"].([]any); !ok || len(data) != 0 {
				t.Errorf("data of %s is not an empty array", body)
			}
		})
	}
}

// send writes request on a new connection to addr and reads the answer.
func send(t *testing.T, addr, request string) (int, http.Header, []byte) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, request); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, res.Header, body
}
