package main

import (
	"bytes"
	"strings"
	"sync"
	"testing"
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
