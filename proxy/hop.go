package proxy

import (
	"bytes"
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/textproto"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Hop-by-hop headers an upstream names in its Connection header must not reach the client
// (D140). net/http drops the whole Connection header of an answer that says "close" before a
// ReverseProxy sees it, and with it the names of the headers to drop; so the transport the
// proxy builds reads the names off the wire (connTap) and drops those headers itself.

// tapTransport wraps the transport the proxy builds: its connections are tapped, and each
// answer loses the headers its Connection header named.
type tapTransport struct {
	next         *http.Transport
	writeTimeout atomic.Int64 // how long each write to the upstream may take, in ns (tests shorten it)
}

func newTapTransport(t *http.Transport) *tapTransport {
	tt := &tapTransport{next: t}
	tt.writeTimeout.Store(int64(upstreamTimeout))
	dialer := &net.Dialer{}
	t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dialer.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &connTap{Conn: c, writeTimeout: &tt.writeTimeout}, nil
	}
	t.DialTLSContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		raw, err := dialer.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		host, _, _ := net.SplitHostPort(addr)
		cfg := &tls.Config{ServerName: host, NextProtos: []string{"http/1.1"}}
		if t.TLSClientConfig != nil {
			cfg = t.TLSClientConfig.Clone()
			if cfg.ServerName == "" {
				cfg.ServerName = host
			}
			cfg.NextProtos = []string{"http/1.1"}
		}
		c := tls.Client(raw, cfg)
		// The transport's TLSHandshakeTimeout covers only its own TLS dial: an upstream that
		// accepts the connection and never answers the handshake held the client for good.
		wait := t.TLSHandshakeTimeout
		if wait <= 0 {
			wait = upstreamTimeout
		}
		hctx, cancel := context.WithTimeout(ctx, wait)
		defer cancel()
		if err := c.HandshakeContext(hctx); err != nil {
			raw.Close()
			return nil, err
		}
		return &connTap{Conn: c, writeTimeout: &tt.writeTimeout}, nil
	}
	t.ForceAttemptHTTP2 = false
	return tt
}

func (t *tapTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	var tap *connTap
	var mu sync.Mutex
	trace := &httptrace.ClientTrace{GotConn: func(info httptrace.GotConnInfo) {
		if c, ok := info.Conn.(*connTap); ok {
			mu.Lock()
			tap = c
			mu.Unlock()
		}
	}}
	resp, err := t.next.RoundTrip(r.WithContext(httptrace.WithClientTrace(r.Context(), trace)))
	if err != nil {
		return resp, err
	}
	mu.Lock()
	defer mu.Unlock()
	if tap == nil {
		return resp, nil
	}
	names := tap.connectionNames()
	ex, _ := r.Context().Value(exchangeKey{}).(*exchange)
	for _, name := range names {
		if vs := resp.Header.Values(name); ex != nil && len(vs) > 0 {
			// Judged as the upstream sent it, as a client that reached it directly (the
			// suite) sees it: dropping is the proxy's duty, not the deployment's fault.
			if ex.hopDropped == nil {
				ex.hopDropped = http.Header{}
			}
			ex.hopDropped[textproto.CanonicalMIMEHeaderKey(name)] = vs
		}
		resp.Header.Del(name)
		resp.Trailer.Del(name) // declared: not announced either
	}
	if len(names) > 0 && resp.StatusCode != http.StatusSwitchingProtocols { // a switch's body is the connection
		resp.Body = hopTrailers{resp.Body, resp, names}
	}
	return resp, nil
}

// hopTrailers drops from resp.Trailer, at the body's end where the transport fills it, the
// fields the answer's Connection header named: of one connection in the trailers too.
type hopTrailers struct {
	io.ReadCloser
	resp  *http.Response
	names []string
}

func (b hopTrailers) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil {
		for _, name := range b.names {
			b.resp.Trailer.Del(name)
		}
	}
	return n, err
}

// maxTapHead bounds the answer head a connTap keeps.
const maxTapHead = 64 << 10

// connTap is an upstream connection that keeps, from each answer's head, the names its
// Connection header lists. A request written starts a new head; informational (1xx) heads
// are skipped.
type connTap struct {
	net.Conn
	writeTimeout *atomic.Int64 // its transport's, in ns
	mu           sync.Mutex
	inHead       bool
	head         []byte
	names        []string // of the last complete final head
}

func (c *connTap) Write(p []byte) (int, error) {
	c.mu.Lock()
	if !c.inHead {
		c.inHead, c.head, c.names = true, c.head[:0], nil
	}
	c.mu.Unlock()
	// An upstream that stops reading a request body streamed to it held the client until it
	// closed the connection: each write has upstreamTimeout to go out (writeTimeout).
	_ = c.Conn.SetWriteDeadline(time.Now().Add(time.Duration(c.writeTimeout.Load())))
	return c.Conn.Write(p)
}

func (c *connTap) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.mu.Lock()
		c.scan(p[:n])
		c.mu.Unlock()
	}
	return n, err
}

// scan takes bytes read while a head is expected; c.mu is held.
func (c *connTap) scan(b []byte) {
	for c.inHead && len(b) > 0 {
		room := maxTapHead - len(c.head)
		if room <= 0 {
			c.inHead = false
			return
		}
		c.head = append(c.head, b[:min(room, len(b))]...)
		b = b[min(room, len(b)):]
		end := bytes.Index(c.head, []byte("\r\n\r\n"))
		if end < 0 {
			return
		}
		head, rest := c.head[:end], c.head[end+4:]
		if bytes.HasPrefix(head, []byte("HTTP/1.1 1")) || bytes.HasPrefix(head, []byte("HTTP/1.0 1")) {
			c.head = append(c.head[:0:0], rest...) // an informational answer: the final one follows
			continue
		}
		c.names, c.inHead = connectionNames(head), false
	}
}

// connectionNames lists the header names a head's Connection header names, "close" and
// "keep-alive" left out.
func connectionNames(head []byte) []string {
	var out []string
	for _, line := range strings.Split(string(head), "\r\n")[1:] {
		name, value, ok := strings.Cut(line, ":")
		if !ok || !strings.EqualFold(textproto.TrimString(name), "Connection") {
			continue
		}
		for _, tok := range strings.Split(value, ",") {
			tok = textproto.TrimString(tok)
			if tok != "" && !strings.EqualFold(tok, "close") && !strings.EqualFold(tok, "keep-alive") {
				out = append(out, tok)
			}
		}
	}
	return out
}

func (c *connTap) connectionNames() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.names
}
