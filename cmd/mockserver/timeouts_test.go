package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// The binary's timeouts make room for the longest delay the mock accepts (D78): --latency and
// a fault rule at their maximum, before a body is read, still leave the body, the work and the
// write their own time.
func TestTimeoutsCoverTheLongestDelay(t *testing.T) {
	l := defaultLimits
	if l.MaxDelay != mockserver.MaxDelay || mockserver.MaxDelay != 2*mockserver.MaxLatency {
		t.Fatalf("MaxDelay %v, want --latency plus a fault rule at their maximum (%v each)", l.MaxDelay, mockserver.MaxLatency)
	}
	if _, err := mockserver.ParseLatency(mockserver.MaxLatency.String()); err != nil {
		t.Fatalf("the largest --latency is refused: %v", err)
	}
	if _, err := mockserver.ParseLatency((mockserver.MaxLatency + time.Millisecond).String()); err == nil {
		t.Fatal("a --latency past MaxLatency is accepted")
	}
	srv := newHTTPServer(http.NotFoundHandler(), l)
	if srv.ReadTimeout < l.ReadHeader+l.MaxDelay+l.Body || srv.ReadHeaderTimeout != l.ReadHeader {
		t.Errorf("read timeout %v does not cover headers, the longest delay and the body", srv.ReadTimeout)
	}
	if srv.WriteTimeout < l.MaxDelay+l.Body+l.Margin {
		t.Errorf("write timeout %v does not cover the longest delay, the body and the answer", srv.WriteTimeout)
	}
}

// End to end with small limits: an answer held for the whole MaxDelay of the configuration
// (latency plus a fault rule), on a request whose body is read after the delay, arrives.
func TestTheLongestDelayIsAnswered(t *testing.T) {
	const half = 400 * time.Millisecond
	l := serverLimits{ReadHeader: time.Second, Body: 300 * time.Millisecond, MaxDelay: 2 * half, Margin: 300 * time.Millisecond, Idle: time.Second}
	h, err := mockserver.New(mockserver.Config{Now: time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC), Latency: mockserver.Latency{Min: half}})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := newHTTPServer(h, l)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { srv.Close() })
	url := "http://" + ln.Addr().String()

	rule := postJSON(t, url+"/__mock/faults", "", map[string]any{"operation": "cardsCreate", "latency_ms": half.Milliseconds()})
	if rule["id"] == nil {
		t.Fatalf("fault rule refused: %v", rule)
	}
	token := loginMember(t, url)

	body, _ := json.Marshal(map[string]any{"title": "held", "description": strings.Repeat("d", 64<<10)})
	req, _ := http.NewRequest(http.MethodPost, url+"/services/operations/v1/operations/cards/create", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("the delayed request got no answer: %v", err)
	}
	defer res.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("answer %d %v (%v)", res.StatusCode, out, err)
	}
}

// A failed save makes the stop fail and leaves the previous state file as it was (D65).
func TestFailedSaveKeepsThePreviousFile(t *testing.T) {
	dir := t.TempDir()
	err := writeFileAtomic(dir, []byte(`{}`)) // a directory cannot be replaced by a file
	if err == nil {
		t.Fatal("replacing a directory succeeded")
	}
	var pathErr interface{ Unwrap() error }
	if !errors.As(err, &pathErr) {
		t.Errorf("error %v does not wrap the cause", err)
	}
	if strings.Contains(err.Error(), ".mockserver-state-") { // the temporary file is ours, not the user's
		t.Errorf("error %v names the temporary file", err)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Errorf("the previous target is gone: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), ".mockserver-state-*")); len(left) != 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}

// --now must leave the clock inside the range the mock can write (D63, D73).
func TestNowFlagRange(t *testing.T) {
	for now, bad := range map[string]bool{
		"2026-06-01T09:00:00Z": false,
		"9998-12-31T23:59:59Z": false,
		"9999-06-01T00:00:00Z": true,
		"0000-06-01T00:00:00Z": true,
	} {
		_, err := parseFlags([]string{"--now", now}, noEnv, io.Discard)
		if (err != nil) != bad {
			t.Errorf("--now %s: %v, want error %v", now, err, bad)
		}
	}
}
