package explore_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/explore"
	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// serve starts the reference mock (a rate limit no run reaches), wrapped by wrap when not nil,
// and returns a client of it and its manifest.
func serve(t *testing.T, wrap func(http.Handler) http.Handler) (*conformance.Client, fixtures.Manifest) {
	t.Helper()
	mock, err := mockserver.New(mockserver.Config{RateLimit: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	var h http.Handler = mock
	if wrap != nil {
		h = wrap(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	ctx := context.Background()
	cfg := conformance.Config{Timeout: 10 * time.Second}
	c, err := conformance.NewClient(ctx, srv.URL, cfg)
	if err != nil {
		t.Fatal(err)
	}
	m, err := cfg.LoadManifest(ctx, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	return c, m.Manifest
}

// passes runs explore mode against the mock wrapped by wrap (nil: the mock alone) and fails the
// test when a property breaks: the deployment it serves is one that what says.
func passes(t *testing.T, wrap func(http.Handler) http.Handler, opts explore.Options, what string) explore.Result {
	t.Helper()
	c, m := serve(t, wrap)
	res, err := explore.Run(context.Background(), c, m, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Failure != nil {
		t.Fatalf("explore fails %s:\n%s", what, res.Failure.Report())
	}
	return res
}

// TestReferencePasses runs a small fixed-seed explore run against the reference mock: every
// property holds.
func TestReferencePasses(t *testing.T) {
	t.Parallel() // each serves its own mock
	res := passes(t, nil, explore.Options{Cases: 60, Seed: 20261122}, "the reference")
	t.Logf("%d cases, %d calls in %s (%.0f cases/s)", res.Cases, res.Calls, res.Elapsed, float64(res.Cases)/res.Elapsed.Seconds())
}

// TestRunCountsWhatWasAsked: a run says it ran the number of cases asked (neither rapid's
// redrawn cases nor shrinking replays added), and prints progress lines while it lasts, naming
// cases, calls, failures and waits for Retry-After.
func TestRunCountsWhatWasAsked(t *testing.T) {
	t.Parallel() // each serves its own mock
	c, m := serve(t, nil)
	var progress bytes.Buffer
	res, err := explore.Run(context.Background(), c, m, explore.Options{Cases: 25, Seed: 7, Progress: &syncWriter{w: &progress}, ProgressEvery: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if res.Failure != nil {
		t.Fatalf("the reference breaks a property:\n%s", res.Failure.Report())
	}
	if res.Cases != 25 || res.Asked != 25 || !strings.HasPrefix(res.Counts(), "25 of 25 cases, ") {
		t.Errorf("asked 25 cases, the run says %q (Cases %d)", res.Counts(), res.Cases)
	}
	lines := strings.Split(strings.TrimSpace(progress.String()), "\n")
	if len(lines) < 2 {
		t.Fatalf("a run of %s printed %d progress lines, want one every 20ms:\n%s", res.Elapsed, len(lines), progress.String())
	}
	for _, want := range []string{" of 25 cases, ", " calls, ", " failures so far, ", " waits for Retry-After, "} {
		if !strings.Contains(lines[0], want) {
			t.Errorf("the progress line %q lacks %q", lines[0], want)
		}
	}
}

// syncWriter serialises writes to w.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
