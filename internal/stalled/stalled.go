// Package stalled opens requests whose bodies stop arriving, as a client that announces a
// body and never finishes it does, for the tests of the bounds on bodies held at once (D216).
package stalled

import (
	"fmt"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/internal/inflight"
)

// Open sends n requests to host, each "POST target" announcing a JSON body of length bytes and
// sending only its first few; the connections close when the test ends.
func Open(t testing.TB, host, target string, n, length int) []net.Conn {
	t.Helper()
	conns := make([]net.Conn, 0, n)
	for range n {
		c, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		conns = append(conns, c)
		fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{\"email\":\"", target, host, length)
	}
	return conns
}

// Set is stalled requests that fill a bound on the bodies held at once, and what they were
// answered, read as it comes.
type Set struct {
	// Since is when the first was sent: they can be made to give way from Since+inflight.Grace.
	Since   time.Time
	conns   []net.Conn
	mu      sync.Mutex
	answers [][]byte
}

// Fill sends n requests as Open does, more than a bound on the bodies held at once takes, and
// returns once one of them is answered: the bound refused it, so the others fill it.
func Fill(t testing.TB, host, target string, n, length int) *Set {
	t.Helper()
	s := &Set{Since: time.Now()}
	s.conns = Open(t, host, target, n, length)
	s.answers = make([][]byte, n)
	answered := make(chan struct{}, n)
	for i, c := range s.conns {
		go func() {
			_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
			buf := make([]byte, 4096)
			for {
				k, err := c.Read(buf)
				if k > 0 {
					s.mu.Lock()
					if len(s.answers[i]) == 0 {
						answered <- struct{}{}
					}
					s.answers[i] = append(s.answers[i], buf[:k]...)
					s.mu.Unlock()
				}
				if err != nil {
					return
				}
			}
		}()
	}
	select {
	case <-answered:
	case <-time.After(20 * time.Second):
		t.Fatalf("none of %d stalled requests was refused: the bound holds more than %d such bodies", n, n)
	}
	return s
}

// Answers is what each request was answered within 200 ms from now, leaving out those
// answered nothing.
func (s *Set) Answers() []string {
	time.Sleep(200 * time.Millisecond)
	s.mu.Lock()
	defer s.mu.Unlock()
	var answers []string
	for _, answer := range s.answers {
		if len(answer) > 0 {
			answers = append(answers, string(answer))
		}
	}
	return answers
}

// Close closes the requests' connections.
func (s *Set) Close() {
	for _, c := range s.conns {
		c.Close()
	}
}

// WhileFull fills a bound with n stalled requests as Fill does and calls send, which makes one
// more request and returns its status. When that request was let through only because the
// stalled ones had been arriving long enough to be made to give way (inflight.Grace: the machine
// was slow to fill the bound), it tries again with fresh ones, up to three times in all. It
// returns the last stalled requests.
func WhileFull(t testing.TB, host, target string, n, length int, send func() (status int)) *Set {
	t.Helper()
	for attempt := 1; ; attempt++ {
		s := Fill(t, host, target, n, length)
		if send() == http.StatusServiceUnavailable || time.Since(s.Since) < inflight.Grace || attempt == 3 {
			return s
		}
		s.Close()
	}
}

// AfterGrace fills a bound with n stalled requests as Fill does and returns once they have been
// arriving long enough to be made to give way.
func AfterGrace(t testing.TB, host, target string, n, length int) *Set {
	t.Helper()
	s := Fill(t, host, target, n, length)
	// From now, not from Since: each held body began arriving when the server began reading
	// it, which on a busy machine is well after it was sent, and before the bound was full.
	time.Sleep(inflight.Grace + 300*time.Millisecond)
	return s
}
