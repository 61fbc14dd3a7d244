package main

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// On SIGTERM (the context main cancels) the mock stops accepting connections, finishes the
// requests in flight and returns nil, so the process exits 0 (README, "The mock").
func TestShutdownFinishesInFlightRequests(t *testing.T) {
	const latency = 400 * time.Millisecond
	url, stop := startMock(t, "--latency", latency.String())

	start := time.Now()
	done := postAsync(url + "/services/operations/v1/operations/cards/list")
	time.Sleep(latency / 4) // the request is in flight, held by the latency
	if err := stop(); err != nil {
		t.Fatalf("run returned %v after the shutdown, want nil (exit 0)", err)
	}
	r := <-done
	if r.err != nil {
		t.Fatalf("the request in flight was dropped: %v", r.err)
	}
	if r.status != http.StatusUnauthorized || r.body["error"] != true {
		t.Errorf("in-flight answer %d %v, want the full 401 envelope", r.status, r.body)
	}
	if elapsed := time.Since(start); elapsed < latency {
		t.Errorf("answered after %v, before the latency of %v: not the in-flight request", elapsed, latency)
	}
	if _, err := http.Get(url + "/healthz"); err == nil {
		t.Error("the mock still accepts connections after the shutdown")
	}
}

// A request held by a delay longer than the stop's grace period is not dropped: the rest of its
// delay is skipped and it gets its answer, and the stop returns nil (D203).
func TestShutdownCutsLongDelaysShort(t *testing.T) {
	old := shutdownTimeout
	shutdownTimeout = 200 * time.Millisecond
	t.Cleanup(func() { shutdownTimeout = old })
	url, stop := startMock(t, "--latency", "30s")
	done := postAsync(url + "/services/operations/v1/operations/cards/list")
	time.Sleep(100 * time.Millisecond) // the request is held by the latency
	if err := stop(); err != nil {
		t.Fatalf("run returned %v, want nil", err)
	}
	if a := <-done; a.err != nil || a.status != http.StatusUnauthorized {
		t.Errorf("the held request got %d (%v), want its answer (401: no token)", a.status, a.err)
	}
}

// A container's stop sends SIGKILL 10 s after SIGTERM (Docker's and Compose's default): with a
// request held by a delay, the mock must have saved its state file and returned well before
// that. It waited 10 s for the request, and was killed before it saved the writes it had
// answered.
func TestStopWithAHeldRequestSavesInsideAContainersGrace(t *testing.T) {
	state := filepath.Join(t.TempDir(), "world.json")
	url, stop := startMock(t, "--latency", "30s", "--state-file", state)
	done := postAsync(url + "/services/operations/v1/operations/cards/list")
	time.Sleep(200 * time.Millisecond) // the request is held by the latency
	start := time.Now()
	if err := stop(); err != nil {
		t.Fatalf("run returned %v, want nil", err)
	}
	// Docker kills at 10 s; the grace ends at shutdownTimeout plus the short wait for answers to
	// be written, and the save follows. A second of margin for a slow machine.
	if took := time.Since(start); took > 9*time.Second {
		t.Errorf("the stop took %s with a request held: a container's stop kills at 10 s", took.Round(time.Millisecond))
	}
	<-done
	if _, err := os.Stat(state); err != nil {
		t.Errorf("the state file was not written: %v", err)
	}
}
