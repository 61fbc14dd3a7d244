// Package stalled opens requests whose bodies stop arriving, as a client that announces a
// body and never finishes it does, for the tests of the bounds on bodies held at once (D216).
package stalled

import (
	"fmt"
	"io"
	"net"
	"testing"
	"time"
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

// Answers reads what each connection was answered within 200 ms, leaving out those answered
// nothing.
func Answers(conns []net.Conn) []string {
	var answers []string
	deadline := time.Now().Add(200 * time.Millisecond)
	for _, c := range conns {
		_ = c.SetReadDeadline(deadline)
		if answer, _ := io.ReadAll(c); len(answer) > 0 {
			answers = append(answers, string(answer))
		}
	}
	return answers
}
