// Command mockserver serves the reference implementation of the interface over HTTP with its
// seeded fixtures.
//
//	mockserver [--addr 127.0.0.1:4010] [--seed N] [--rate-limit N] [--now RFC3339]
//	mockserver fixtures [--seed N]     print the fixture manifest and exit
//
// Every flag has an environment fallback: MOCK_ADDR, MOCK_SEED, MOCK_RATE_LIMIT, MOCK_NOW.
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
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "mockserver:", err)
		os.Exit(1)
	}
}

// stdio groups the writers run reports to.
type stdio struct{ out, err io.Writer }
