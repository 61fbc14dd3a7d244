// Package wireerr puts the answers net/http writes by itself, before any handler runs, into
// the interface's shape (a) (the interface, §Errors): a request it cannot parse (400), headers
// past its limit (431), a transfer coding it does not know (501), a protocol version it does
// not speak (505), an Expect it does not know (417). The mock and the validating proxy serve
// on its Listener (D79, D183), each with its own way of writing the answer.
package wireerr

import (
	"bytes"
	"encoding/json"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
)

// AnswerFunc writes the whole HTTP answer for a transport error of status with detail (what
// net/http said after the status text, "" for nothing) to a client at remote.
type AnswerFunc func(status int, detail string, remote net.Addr) []byte

// Listener returns ln with net/http's own error answers replaced by answer's.
func Listener(ln net.Listener, answer AnswerFunc) net.Listener { return &listener{ln, answer} }

type listener struct {
	net.Listener
	answer AnswerFunc
}

func (l *listener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &conn{Conn: c, answer: l.answer}, nil
}

// conn rewrites net/http's own error answers as they are written.
type conn struct {
	net.Conn
	answer AnswerFunc
}

func (c *conn) Write(p []byte) (int, error) {
	status, detail, ok := transportError(p)
	if !ok {
		return c.Conn.Write(p)
	}
	if _, err := c.Conn.Write(c.answer(status, detail, c.RemoteAddr())); err != nil {
		return 0, err
	}
	return len(p), nil
}

// CloseWrite lets net/http half-close the connection after a 431, as it does on a TCP conn.
func (c *conn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// netHTTPErrorHeaders follow the status line of every answer net/http writes by itself
// (net/http's conn.serve); the mock's and the proxy's own answers are never text/plain.
const netHTTPErrorHeaders = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"

// expectationFailed is net/http's answer to an Expect it does not know (anything but
// 100-continue), written before any handler runs: a 417 with no body and exactly these
// headers. An upstream's 417 the proxy forwards carries its own headers, so it does not match.
var expectationFailed = regexp.MustCompile(`^HTTP/1\.1 417 Expectation Failed\r\nConnection: close\r\nDate: [^\r\n]+\r\nContent-Length: 0\r\n\r\n$`)

// transportError recognises an answer net/http wrote by itself and returns its status and the
// detail after the status text ("missing required Host header").
func transportError(p []byte) (int, string, bool) {
	if expectationFailed.Match(p) {
		return http.StatusExpectationFailed, "", true
	}
	const proto = "HTTP/1.1 "
	if len(p) < len(proto)+3 || string(p[:len(proto)]) != proto || p[len(proto)] < '4' {
		return 0, "", false
	}
	end := bytes.Index(p, []byte(netHTTPErrorHeaders))
	if end < 0 || bytes.IndexByte(p[:end], '\n') >= 0 {
		return 0, "", false
	}
	line := string(p[len(proto):end]) // "400 Bad Request: detail"
	status, err := strconv.Atoi(line[:3])
	if err != nil {
		return 0, "", false
	}
	_, detail, _ := strings.Cut(line, ": ")
	return status, detail, true
}

// Message words a transport error for a client of who ("the mock", "the proxy").
func Message(status int, detail, who string) string {
	switch {
	case status == http.StatusRequestHeaderFieldsTooLarge:
		return "The request headers are larger than " + who + " accepts."
	case status == http.StatusNotImplemented:
		return "The request's Transfer-Encoding is not supported."
	case status == http.StatusHTTPVersionNotSupported:
		return "The request's HTTP version is not supported; send HTTP/1.1."
	case status == http.StatusExpectationFailed:
		return "The request's Expect header asks for what " + who + " does not do; only Expect: 100-continue is understood."
	case detail != "":
		return "The request could not be read as HTTP: " + detail + "."
	}
	// net/http words no reason for these: name the usual ones.
	return "The request could not be read as HTTP: its request line, or a header line, is malformed (a space or a bad %-escape such as %zz in the path, a line that is not \"Name: value\", or Host or Content-Length given twice)."
}

// Answer is the whole HTTP answer of status with msg in shape (a), with the extra headers
// ("Name: value" lines without their line ends).
func Answer(status int, msg string, extra ...string) []byte {
	body, _ := json.Marshal(map[string]any{"error": true, "message": msg, "data": []any{}}) // strings always encode
	var b bytes.Buffer
	b.WriteString("HTTP/1.1 " + strconv.Itoa(status) + " " + http.StatusText(status) + "\r\n")
	b.WriteString("Content-Type: application/json\r\n")
	b.WriteString("Content-Length: " + strconv.Itoa(len(body)) + "\r\n")
	for _, h := range extra {
		b.WriteString(h + "\r\n")
	}
	b.WriteString("Connection: close\r\n\r\n")
	b.Write(body)
	return b.Bytes()
}
