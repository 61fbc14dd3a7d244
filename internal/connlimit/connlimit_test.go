package connlimit_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/internal/connlimit"
)

// serve runs a server bounded to max connections whose handler answers at once, or, for
// /busy, once release is closed.
func serve(t *testing.T, max int, release <-chan struct{}) (string, *connlimit.Limit) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	limit := connlimit.New(max, []byte("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 4\r\nConnection: close\r\n\r\nfull"))
	srv := &http.Server{ConnState: limit.ConnState, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/busy" {
			<-release
		}
		io.WriteString(w, "ok")
	})}
	go srv.Serve(limit.Listener(ln))
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String(), limit
}

// get sends one request on c and reads its answer's status line.
func get(t *testing.T, c net.Conn, host, path string) string {
	t.Helper()
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", path, host)
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return err.Error()
	}
	body, _ := io.ReadAll(res.Body)
	return res.Status + " " + string(body)
}

func dial(t *testing.T, host string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// Past the bound a new connection takes the place of the one idle longest: clients holding
// keep-alive connections open keep no one out.
func TestNewConnectionTakesTheIdlestPlace(t *testing.T) {
	host, limit := serve(t, 4, nil)
	var idle []net.Conn
	for range 4 {
		c := dial(t, host)
		if got := get(t, c, host, "/"); got != "200 OK ok" {
			t.Fatalf("a request under the bound: %s", got)
		}
		idle = append(idle, c)
		time.Sleep(20 * time.Millisecond) // each idle from a later moment than the one before
	}
	if got := get(t, dial(t, host), host, "/"); got != "200 OK ok" {
		t.Fatalf("a new connection past the bound, every other idle: %s, want it served", got)
	}
	_ = idle[0].SetReadDeadline(time.Now().Add(time.Second))
	if _, err := idle[0].Read(make([]byte, 1)); err != io.EOF {
		t.Errorf("the connection idle longest: read %v, want it closed (EOF)", err)
	}
	if got := get(t, idle[1], host, "/"); got != "200 OK ok" {
		t.Errorf("a connection idle for less long: %s, want it kept", got)
	}
	if n := limit.Open(); n > 4 {
		t.Errorf("%d connections open, want at most 4", n)
	}
}

// A connection that has sent no whole request for Grace gives way as an idle one does; when
// every connection is in the middle of a request, a new one is refused with the refusal given.
func TestBusyConnectionsAreKept(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	host, _ := serve(t, 3, release)
	for range 2 {
		fmt.Fprintf(dial(t, host), "GET /busy HTTP/1.1\r\nHost: %s\r\n\r\n", host)
	}
	slow := dial(t, host)
	fmt.Fprintf(slow, "GET / HTTP/1.1\r\nHost: %s\r\n", host) // its headers never end
	time.Sleep(connlimit.Grace + 200*time.Millisecond)
	c := dial(t, host)
	if got := get(t, c, host, "/"); got != "200 OK ok" {
		t.Fatalf("a connection past the bound while one stalled in its headers: %s, want it served", got)
	}
	fmt.Fprintf(c, "GET /busy HTTP/1.1\r\nHost: %s\r\n\r\n", host) // now every connection is busy
	time.Sleep(100 * time.Millisecond)
	if got := get(t, dial(t, host), host, "/"); !strings.HasPrefix(got, "503") || !strings.HasSuffix(got, "full") {
		t.Errorf("a connection past the bound, every other busy: %s, want the refusal", got)
	}
}

// A handler that answers without reading the body (a 413 by Content-Length, a 401) answers a
// client waiting on "100 Continue" at once: the handler's followed body does not hide from the
// server that nothing of the body was asked for, so the server neither reads it nor waits.
func TestAnswerWithoutTheBodySendsNoContinue(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	limit := connlimit.New(8, []byte("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n"))
	srv := &http.Server{ConnState: limit.ConnState, ConnContext: limit.ConnContext, Handler: limit.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusRequestEntityTooLarge)
	}))}
	go srv.Serve(limit.Listener(ln))
	t.Cleanup(func() { srv.Close() })
	c := dial(t, ln.Addr().String())
	fmt.Fprintf(c, "POST /x HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 2000000\r\nExpect: 100-continue\r\n\r\n", ln.Addr())
	_ = c.SetReadDeadline(time.Now().Add(2 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("no answer while the client waits on 100 Continue: %v", err)
	}
	if res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("answer %s, want 413 at once (not 100 Continue)", res.Status)
	}
}
