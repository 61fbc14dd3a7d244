// Command mockserver serves the reference implementation of the interface over HTTP with its
// seeded fixtures.
//
//	mockserver [--addr 127.0.0.1:4010] [--seed N] [--rate-limit N] [--now RFC3339]
//	           [--latency 100ms-400ms] [--state-file FILE] [--admin-token T] [--cors-origins O,...]
//	mockserver fixtures [--seed N]     print the fixture manifest and exit
//
// Every flag has an environment fallback: MOCK_ADDR, MOCK_SEED, MOCK_RATE_LIMIT, MOCK_NOW,
// MOCK_LATENCY, MOCK_STATE_FILE, MOCK_ADMIN_TOKEN, MOCK_CORS_ORIGINS. With --state-file the
// world is loaded from the file at start (when it exists) and saved there at graceful stop.
// On SIGTERM or SIGINT it stops accepting connections, finishes in-flight requests and exits 0.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	tuneGC(os.Getenv)
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "mockserver:", err)
		os.Exit(1)
	}
}

// stdio groups the writers run reports to.
type stdio struct{ out, err io.Writer }
