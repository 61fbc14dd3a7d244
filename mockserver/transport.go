package mockserver

import (
	"bytes"
	"encoding/json"
	"net"
	"net/http"
	"strconv"
	"strings"
)

// Listener returns ln with the answers net/http writes by itself, before any handler runs, put
// into the interface's shape (a) with the rate-limit headers of the client's address: a request
// it cannot parse (400), headers past its limit (431), a transfer coding it does not know (501)
// (D79). Serve the mock on it: http.Server{Handler: s}.Serve(s.Listener(ln)).
func (s *Server) Listener(ln net.Listener) net.Listener { return &envelopeListener{ln, s} }

type envelopeListener struct {
	net.Listener
	s *Server
}

func (l *envelopeListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &envelopeConn{Conn: c, s: l.s}, nil
}

// envelopeConn rewrites net/http's own error answers as they are written.
type envelopeConn struct {
	net.Conn
	s *Server
}

func (c *envelopeConn) Write(p []byte) (int, error) {
	status, detail, ok := transportError(p)
	if !ok {
		return c.Conn.Write(p)
	}
	if _, err := c.Conn.Write(c.s.transportAnswer(status, detail, c.RemoteAddr())); err != nil {
		return 0, err
	}
	return len(p), nil
}

// CloseWrite lets net/http half-close the connection after a 431, as it does on a TCP conn.
func (c *envelopeConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// netHTTPErrorHeaders follow the status line of every answer net/http writes by itself
// (net/http's conn.serve); the mock's own answers are never text/plain.
const netHTTPErrorHeaders = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"

// transportError recognises an answer net/http wrote by itself and returns its status and the
// detail after the status text ("missing required Host header").
func transportError(p []byte) (int, string, bool) {
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

// transportAnswer is the whole HTTP answer for a transport error, in shape (a).
func (s *Server) transportAnswer(status int, detail string, addr net.Addr) []byte {
	msg := "The request could not be read as HTTP."
	switch {
	case status == http.StatusRequestHeaderFieldsTooLarge:
		msg = "The request headers are larger than the mock accepts."
	case status == http.StatusNotImplemented:
		msg = "The request's Transfer-Encoding is not supported."
	case detail != "":
		msg = "The request could not be read as HTTP: " + detail + "."
	}
	body, _ := json.Marshal(envelope{Error: true, Message: msg, Data: emptyData})
	host, _, err := net.SplitHostPort(addr.String())
	if err != nil {
		host = addr.String()
	}
	// The window of unknown paths and 405s (D3), in the default world: a request net/http could
	// not read names no world (D100).
	v := s.worlds.def.limiter.take("addr:" + host)
	var b bytes.Buffer
	b.WriteString("HTTP/1.1 " + strconv.Itoa(status) + " " + http.StatusText(status) + "\r\n")
	b.WriteString("Content-Type: application/json\r\n")
	b.WriteString("Content-Length: " + strconv.Itoa(len(body)) + "\r\n")
	b.WriteString("X-Ratelimit-Limit: " + strconv.Itoa(v.limit) + "\r\n")
	b.WriteString("X-Ratelimit-Remaining: " + strconv.Itoa(v.remaining) + "\r\n")
	b.WriteString("Connection: close\r\n\r\n")
	b.Write(body)
	return b.Bytes()
}
