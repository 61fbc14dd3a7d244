// Package connlimit bounds the connections a server keeps open (D220). Each costs about 20 KB
// however little it does: ten thousand idle keep-alive connections from one client held 220 MB
// of the mock for the idle timeout, and as many as the process may open would have kept every
// other client out. Past the bound a new connection takes the place of the one idle longest
// (a keep-alive connection between requests, or one that has sent no complete request for
// Grace); failing that, of the one whose request body has been arriving for arrival.Grace the slowest
// (2048 bodies trickled a byte every 3 s kept every other client out for the read timeout);
// when every connection is busy otherwise, its request is answered 503 and the connection
// closed. Serve on Listener, with the server's ConnState, ConnContext and Handler from Limit.
package connlimit

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/opsapi/mocktoolkit/internal/arrival"
)

// Grace is how long a new connection may take to send its first request before it can be
// closed to make room.
const Grace = time.Second

// Limit is the bound on open connections; safe for concurrent use. Serve on Listener and set
// the server's ConnState to Limit.ConnState.
type Limit struct {
	max     int
	refusal []byte // the whole HTTP answer of a connection refused

	mu    sync.Mutex
	conns map[net.Conn]*conn

	refusing chan struct{} // refusals being answered, at most maxRefusing
}

type conn struct {
	state http.ConnState
	since time.Time
	body  *arriving // the request body being received, nil when none
}

// arriving is a request body being received.
type arriving struct {
	*arrival.Progress
	done atomic.Bool // read whole, failed, or its request is over
}

// New returns a bound of max connections; refusal is written, whole, to a connection past it
// when none can give way.
func New(max int, refusal []byte) *Limit {
	return &Limit{max: max, refusal: refusal, conns: map[net.Conn]*conn{}, refusing: make(chan struct{}, maxRefusing)}
}

// Open is the number of connections open.
func (l *Limit) Open() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.conns)
}

// Listener returns ln bounded by l.
func (l *Limit) Listener(ln net.Listener) net.Listener { return &listener{ln, l} }

type listener struct {
	net.Listener
	l *Limit
}

func (ln *listener) Accept() (net.Conn, error) {
	for {
		c, err := ln.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if ln.l.admit(c) {
			return c, nil
		}
		select {
		case ln.l.refusing <- struct{}{}:
			go ln.l.refuse(c)
		default: // refusals in flight are bounded too: past it, closed unanswered
			_ = c.Close()
		}
	}
}

// maxRefusing bounds the refused connections being answered at once.
const maxRefusing = 64

// refuse answers c's request with the refusal once its headers are in (an answer sent before
// the request reaches a client as a broken connection, not an answer), waiting at most Grace.
func (l *Limit) refuse(c net.Conn) {
	defer func() { <-l.refusing }()
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(Grace))
	buf := make([]byte, 4<<10)
	var tail []byte // the bytes read last, from 3 before the latest read: the headers' end may span reads
	for total := 0; total < 64<<10; {
		n, err := c.Read(buf)
		total += n
		tail = append(tail, buf[:n]...)
		if bytes.Contains(tail, []byte("\r\n\r\n")) {
			_, _ = c.Write(l.refusal)
			return
		}
		if err != nil {
			return
		}
		tail = append([]byte(nil), tail[max(len(tail)-3, 0):]...)
	}
}

// admit counts c, closing the connection idle longest, or else the one receiving a body the
// slowest, when the bound is reached; false when every open connection is busy otherwise.
func (l *Limit) admit(c net.Conn) bool {
	now := time.Now()
	l.mu.Lock()
	var victim net.Conn
	if len(l.conns) >= l.max {
		if victim = l.idlest(now); victim == nil {
			victim = l.slowestBody(now)
		}
		if victim == nil {
			l.mu.Unlock()
			return false
		}
		delete(l.conns, victim)
	}
	l.conns[c] = &conn{state: http.StateNew, since: now}
	l.mu.Unlock()
	if victim != nil {
		_ = victim.Close()
	}
	return true
}

// idlest is the connection idle longest: between requests, or with no whole request headers
// for Grace; nil when none. l.mu is held.
func (l *Limit) idlest(now time.Time) net.Conn {
	var victim net.Conn
	var oldest time.Time
	for vc, e := range l.conns {
		idle := e.state == http.StateIdle || e.state == http.StateNew && now.Sub(e.since) >= Grace
		if idle && (victim == nil || e.since.Before(oldest)) {
			victim, oldest = vc, e.since
		}
	}
	return victim
}

// slowestBody is the connection whose request body has been arriving for arrival.Grace, at the fewest
// bytes a second; nil when none. l.mu is held.
func (l *Limit) slowestBody(now time.Time) net.Conn {
	var victim net.Conn
	var lowest float64
	for vc, e := range l.conns {
		if e.body == nil || e.body.done.Load() {
			continue
		}
		if rate, due := e.body.Rate(now); due && (victim == nil || rate < lowest) {
			victim, lowest = vc, rate
		}
	}
	return victim
}

type connKey struct{}

// ConnContext puts the connection in its requests' context; set it as the server's ConnContext.
func (l *Limit) ConnContext(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, c)
}

// Handler follows how each request's body arrives, so a connection receiving one too slowly
// can give way (admit); wrap the server's handler with it.
func (l *Limit) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, _ := r.Context().Value(connKey{}).(net.Conn)
		if c == nil || r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		body := &arriving{Progress: arrival.Begin()}
		defer body.done.Store(true)
		l.mu.Lock()
		if e := l.conns[c]; e != nil {
			e.body = body
		}
		l.mu.Unlock()
		// A shallow copy carries the followed body: the server's own request keeps the body it
		// made, whose type tells it, when the handler answers without reading the body, that a
		// client waiting on "100 Continue" has sent nothing yet. Given another type, it read up
		// to 256 KiB of the body before answering, and a client with Expect: 100-continue
		// waited out its timeout and uploaded the body a 413 or a 401 refused.
		r = r.WithContext(r.Context())
		r.Body = &followed{ReadCloser: r.Body, body: body}
		next.ServeHTTP(w, r)
	})
}

// followed is a request body whose arrival is followed.
type followed struct {
	io.ReadCloser
	body *arriving
}

func (f *followed) Read(p []byte) (int, error) {
	n, err := f.ReadCloser.Read(p)
	f.body.Add(n)
	if err != nil {
		f.body.done.Store(true)
	}
	return n, err
}

// ConnState follows each connection's state; set it as the server's ConnState.
func (l *Limit) ConnState(c net.Conn, state http.ConnState) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch e, ok := l.conns[c]; {
	case state == http.StateClosed || state == http.StateHijacked:
		delete(l.conns, c)
	case ok && e.state != state:
		e.state, e.since = state, time.Now()
	}
}
