package proxy_test

import (
	"net/http/httptest"
	"net/url"

	"fmt"
	"github.com/opsapi/mocktoolkit/proxy"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Many clients asking for large answers at once and not reading them: the answers held for
// judging stay within the proxy's budget for them (the rest stream through unjudged, with a
// note), reserved before any is read, so the live heap stays bounded. All 40 at once each saw
// room and each held its 7 MB answer (an audit saw 2.2 GB of RSS).
func TestManyLargeAnswersAtOnceStayWithinTheBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("moves 280 MB")
	}
	big := []byte(`{"error":false,"message":"ok","data":{"tags":[` + strings.Repeat(`{"id":1,"name":"a tag of the project"},`, 180_000) + `{"id":2}]}}`)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("X-RateLimit-Limit", "1000")
		w.Header().Set("X-RateLimit-Remaining", "999")
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(big)
	}))
	t.Cleanup(up.Close)
	u, _ := url.Parse(up.URL)
	p, err := proxy.New(proxy.Config{Upstream: u}) // its own transport: the tests' tee keeps every answer
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(p)
	t.Cleanup(front.Close)
	host := strings.TrimPrefix(front.URL, "http://")
	const clients = 40
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range clients {
		c, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		_ = c.(*net.TCPConn).SetReadBuffer(4 << 10)
		fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAuthorization: Bearer tok-held\r\nContent-Length: 2\r\n\r\n{}", pTagsList, host)
		conns = append(conns, c) // never read
	}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) && len(p.Exchanges(0)) < clients {
		time.Sleep(50 * time.Millisecond)
	}
	runtime.GC() // what is held now: the answers waiting for clients that do not read
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	exs := p.Exchanges(0)
	unjudged := 0
	for _, ex := range exs {
		for _, n := range ex.Notes {
			if strings.Contains(n, "passed through unjudged") {
				unjudged++
			}
		}
	}
	if unjudged == 0 { // under the race detector not every exchange is judged within the wait
		t.Errorf("%d exchanges recorded of %d, none passed through unjudged; want those past the budget unjudged", len(exs), clients)
	}
	if m.HeapAlloc > 200<<20 {
		t.Errorf("the live heap is %d MB with %d clients not reading 7 MB answers; want the held answers within the proxy's budget", m.HeapAlloc>>20, clients)
	}
}
