package main

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A client whose exchange still waits for a slow upstream when the proxy stops gets an answer,
// 502 in shape (a) saying the proxy stopped, not a closed connection; the stop still writes
// its report, which counts the exchange, and returns nil.
func TestProxyStopAnswersExchangesCutOff(t *testing.T) {
	old := shutdownTimeout
	shutdownTimeout = 300 * time.Millisecond
	t.Cleanup(func() { shutdownTimeout = old })
	for _, trickle := range []bool{false, true} {
		t.Run(map[bool]string{false: "no answer yet", true: "headers in, the body trickling"}[trickle], func(t *testing.T) {
			stopWithExchangeWaiting(t, trickle)
		})
	}
}

// stopWithExchangeWaiting stops the proxy while an exchange waits for its upstream: for the
// headers, or (trickle) for the rest of a body the proxy reads ahead before it writes the
// verdict (a truncated 200 with no verdict went to the client).
func stopWithExchangeWaiting(t *testing.T, trickle bool) {
	release := make(chan struct{})
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if trickle {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Length", "49")
			_, _ = w.Write([]byte(`{"erro`))
			w.(http.Flusher).Flush()
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() { close(release); up.Close() })
	report := filepath.Join(t.TempDir(), "report.json")
	url, stop := startCmd(t, nil, "proxy", "--upstream", up.URL, "--addr", "127.0.0.1:0", "--report-json", report)

	done := postAsync(url + "/services/operations/v1/operations/boards/list")
	time.Sleep(100 * time.Millisecond) // the exchange is waiting for the upstream
	if err := stop(); err != nil {
		t.Fatalf("the stop returned %v, want nil", err)
	}
	r := <-done
	if r.err != nil {
		t.Fatalf("the client got no answer: %v", r.err)
	}
	if r.status != http.StatusBadGateway || r.body["error"] != true || !strings.Contains(r.body["message"].(string), "proxy stopped") {
		t.Errorf("answer %d %v, want 502 shape (a) saying the proxy stopped", r.status, r.body)
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatalf("no report written: %v", err)
	}
	var rep struct {
		Exchanges int `json:"exchanges"`
	}
	if err := json.Unmarshal(b, &rep); err != nil || rep.Exchanges != 1 {
		t.Errorf("report %s: want 1 exchange (%v)", b, err)
	}
}

// A client that stalls while sending its request body does not cost the stop its reports: its
// connection is closed after the grace period, the report is written and the stop returns nil
// (it returned "context deadline exceeded" and wrote nothing). The mock's stop likewise.
func TestStopClosesAStalledClient(t *testing.T) {
	old := shutdownTimeout
	shutdownTimeout = 200 * time.Millisecond
	t.Cleanup(func() { shutdownTimeout = old })
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	t.Cleanup(up.Close)
	report := filepath.Join(t.TempDir(), "report.json")
	for _, args := range [][]string{
		{"proxy", "--upstream", up.URL, "--addr", "127.0.0.1:0", "--report-json", report},
		{"--addr", "127.0.0.1:0"},
	} {
		url, stop := startCmd(t, nil, args...)
		c, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		_, _ = c.Write([]byte("POST /services/operations/v1/operations/tags/list HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{"))
		time.Sleep(100 * time.Millisecond) // the request is in, its body stalled
		if err := stop(); err != nil {
			t.Errorf("%v: the stop returned %v with a stalled client, want nil", args[0], err)
		}
		c.Close()
	}
	if _, err := os.ReadFile(report); err != nil {
		t.Errorf("no proxy report written: %v", err)
	}
}
