package main

import (
	"net/http"
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
