package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

// An answer the proxy streams through unchecked (here a mock's world path, which is none of the
// operations) reaches a keep-alive client whole after a request with a body: net/http drained
// and closed the request body when the answer's header went out, under the transport still
// forwarding it, which then closed the upstream connection a few KiB into the answer.
func TestProxyStreamsUncheckedAnswersWhole(t *testing.T) {
	mock := startProcess(t, "--rate-limit", "1000000") // apart from the proxy, as a deployment is
	px, stopProxy := startProxyCmd(t, nil, "--upstream", mock)
	defer stopProxy()
	token := loginMember(t, mock) // the default world, reached through its world path
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	cut := 0
	for range 1500 {
		req, _ := http.NewRequest(http.MethodPost, px+"/__worlds/default/services/operations/v1/operations/cards/list", strings.NewReader(`{}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%d %s", res.StatusCode, body)
		}
		if err != nil || len(body) < 4096 {
			cut++
		}
	}
	if cut > 0 {
		t.Errorf("%d of 1500 answers were cut short", cut)
	}
}

// A request body the upstream does not wait for (a body past 1 MiB to an operation, refused
// with 401 before it is read): the proxy answers with Connection: close, since the rest of the
// body is still on the connection, and never reads that connection while the transport still
// reads the body. It had answered keeping the connection open, and read the rest of the body
// as the client's next request (a bogus 400, the request never forwarded), or panicked in
// net/http ("invalid concurrent Body.Read call").
func TestProxyUpstreamAnsweringBeforeTheBody(t *testing.T) {
	var logged bytes.Buffer
	log.SetOutput(&logged)
	defer log.SetOutput(os.Stderr)
	mock := startProcess(t)
	px, stopProxy := startProxyCmd(t, nil, "--upstream", mock)
	defer stopProxy()
	body := `{"name":"x","pad":"` + strings.Repeat("a", 2<<20) + `"}`
	host := strings.TrimPrefix(px, "http://")
	for i := range 10 { // as a client that sends its whole request before it reads the answer
		conn, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			_, _ = fmt.Fprintf(conn, "POST /services/operations/v1/operations/tags/create HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", host, len(body), body)
		}()
		r := bufio.NewReader(conn)
		res, err := http.ReadResponse(r, nil)
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if !res.Close {
			time.Sleep(100 * time.Millisecond) // the first body is sent whole
			fmt.Fprintf(conn, "POST /services/operations/v1/operations/tags/list HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}", host)
			if next, err := http.ReadResponse(r, nil); err != nil || next.StatusCode != http.StatusUnauthorized {
				t.Errorf("request %d: the answer kept the connection open, and the next request on it got %v %v, want the operation's 401", i, next, err)
			}
		}
		conn.Close()
	}
	if strings.Contains(logged.String(), "panic") {
		t.Errorf("the proxy's server panicked:\n%s", logged.String()[:min(logged.Len(), 2000)])
	}
}
