// Package connlimit bounds the connections a server keeps open (D220). Each costs about 20 KB
// however little it does: ten thousand idle keep-alive connections from one client held 220 MB
// of the mock for the idle timeout, and as many as the process may open would have kept every
// other client out. Past the bound a new connection takes the place of the one idle longest
// (a keep-alive connection between requests, or one that has sent no complete request for
// Grace); when every connection is busy with a request, it is answered 503 and closed.
package connlimit

import (
	"net"
	"net/http"
	"sync"
	"time"
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
}

type conn struct {
	state http.ConnState
	since time.Time
}

// New returns a bound of max connections; refusal is written, whole, to a connection past it
// when none can give way.
func New(max int, refusal []byte) *Limit {
	return &Limit{max: max, refusal: refusal, conns: map[net.Conn]*conn{}}
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
		_ = c.SetWriteDeadline(time.Now().Add(time.Second))
		_, _ = c.Write(ln.l.refusal)
		_ = c.Close()
	}
}

// admit counts c, closing the connection idle longest when the bound is reached; false when
// every open connection is busy.
func (l *Limit) admit(c net.Conn) bool {
	now := time.Now()
	l.mu.Lock()
	var victim net.Conn
	if len(l.conns) >= l.max {
		var oldest time.Time
		for vc, e := range l.conns {
			idle := e.state == http.StateIdle || e.state == http.StateNew && now.Sub(e.since) >= Grace
			if idle && (victim == nil || e.since.Before(oldest)) {
				victim, oldest = vc, e.since
			}
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
