// Command mockserver serves the reference implementation of the interface over HTTP with its
// seeded fixtures, in isolated worlds (D100).
//
//	mockserver [serve] [--addr 127.0.0.1:4010] [--seed N] [--scenario NAME|FILE] [--scenarios DIR] [--rate-limit N]
//	           [--now RFC3339] [--latency 100ms-400ms] [--state-file FILE] [--admin-token T]
//	           [--cors-origins O,...] [--allowed-hosts H,...] [--max-worlds N] [--max-records N] [--max-state-mb N]
//	           [--lenient-content-type]
//	mockserver fixtures [--seed N] [--scenario NAME|FILE]   print the fixture manifest and exit
//	mockserver proxy --upstream URL [--addr A] [--report-json F] [--report-junit F] [--fail-on-violation] [--allowed-hosts H,...]
//	                                                          a validating proxy in front of a deployment
//	mockserver help | --help | --version
//
// Every flag has an environment fallback: MOCK_ADDR, MOCK_SEED, MOCK_SCENARIO, MOCK_SCENARIOS, MOCK_RATE_LIMIT,
// MOCK_NOW, MOCK_LATENCY, MOCK_STATE_FILE, MOCK_ADMIN_TOKEN, MOCK_CORS_ORIGINS,
// MOCK_ALLOWED_HOSTS, MOCK_MAX_WORLDS, MOCK_MAX_RECORDS, MOCK_LENIENT_CONTENT_TYPE. Unknown subcommands and flags exit 2. With --state-file the
// world is loaded from the file at start (when it exists) and saved there at graceful stop.
// On SIGTERM or SIGINT it stops accepting connections, finishes in-flight requests and exits 0.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// stopSignals end the command the orderly way: the state file and the proxy's reports are
// written, as at Ctrl-C. SIGHUP is among them: the terminal a mock was started from closing
// must not lose the session.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	tuneGC(os.Getenv)
	err := run(ctx, os.Args[1:], os.LookupEnv, os.Stdout, os.Stderr)
	var exit *exitError
	switch {
	case errors.As(err, &exit):
		if exit.msg != "" {
			fmt.Fprintln(os.Stderr, "mockserver:", exit.msg)
		}
		stop()
		os.Exit(exit.code)
	case err != nil:
		fmt.Fprintln(os.Stderr, "mockserver:", err)
		stop()
		os.Exit(1)
	}
}

// stdio groups the writers run reports to.
type stdio struct{ out, err io.Writer }
