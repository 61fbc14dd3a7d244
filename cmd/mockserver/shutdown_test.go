package main

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// On SIGTERM (the context main cancels) the mock stops accepting connections, finishes the
// requests in flight and returns nil, so the process exits 0 (README, "The mock").
func TestShutdownFinishesInFlightRequests(t *testing.T) {
	const latency = 400 * time.Millisecond
	url, stop := startMock(t, "--latency", latency.String())

	type result struct {
		status int
		body   map[string]any
		err    error
	}
	done := make(chan result, 1)
	start := time.Now()
	go func() {
		res, err := http.Post(url+"/services/operations/v1/operations/cards/list", "application/json", strings.NewReader("{}"))
		if err != nil {
			done <- result{err: err}
			return
		}
		defer res.Body.Close()
		var body map[string]any
		err = json.NewDecoder(res.Body).Decode(&body)
		done <- result{status: res.StatusCode, body: body, err: err}
	}()
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
	done := make(chan int, 1)
	go func() {
		res, err := http.Post(url+"/services/operations/v1/operations/cards/list", "application/json", strings.NewReader("{}"))
		if err != nil {
			done <- 0
			return
		}
		res.Body.Close()
		done <- res.StatusCode
	}()
	time.Sleep(100 * time.Millisecond) // the request is held by the latency
	if err := stop(); err != nil {
		t.Fatalf("run returned %v, want nil", err)
	}
	if st := <-done; st != http.StatusUnauthorized {
		t.Errorf("the held request got %d, want its answer (401: no token)", st)
	}
}
