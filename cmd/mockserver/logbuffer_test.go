package main

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// safeBuffer is a bytes.Buffer safe for the flusher and the test to share.
type safeBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *safeBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *safeBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Every line written before Close reaches the writer, in order, from many writers at once.
func TestLogBufferLosesNothingAtClose(t *testing.T) {
	var out safeBuffer
	b := newLogBuffer(&out)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 500 {
				_, _ = b.Write([]byte(strings.Repeat("x", g) + "|" + strings.Repeat("y", i%7) + "\n"))
			}
		}()
	}
	wg.Wait()
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 8*500 {
		t.Fatalf("%d lines after Close, want %d", len(lines), 8*500)
	}
	for _, l := range lines {
		if !strings.Contains(l, "|") {
			t.Fatalf("a line was torn: %q", l)
		}
	}
	_ = b.Close() // a second Close is harmless
}

// "mockserver stopped" is the last line: the request lines still in the log buffer are written
// before it, not after (stdout and stderr read as one stream, as a terminal shows them).
func TestStoppedIsTheLastLine(t *testing.T) {
	var out safeBuffer
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		errc <- run(ctx, []string{"--addr", "127.0.0.1:0"}, noEnv, &out, &out)
	}()
	var url string
	for deadline := time.Now().Add(10 * time.Second); url == "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, rest, ok := strings.Cut(out.String(), "listening on "); ok {
			url, _, _ = strings.Cut(rest, " ")
		}
	}
	for range 20 {
		res, err := http.Get(url + "/__mock/fixtures")
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	cancel()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if n := strings.Count(out.String(), "msg=request"); n < 20 || lines[len(lines)-1] != "mockserver stopped" {
		t.Errorf("%d request lines, last line %q; want 20 request lines before \"mockserver stopped\"", n, lines[len(lines)-1])
	}
}
