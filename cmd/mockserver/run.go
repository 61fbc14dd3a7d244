package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// options are the command's flags after environment fallbacks.
type options struct {
	addr      string
	seed      int64
	rateLimit int
	maxRecs   int
	lenient   bool
	now       time.Time
	steer     steerOptions
}

// shutdownTimeout bounds how long in-flight requests may take to finish after SIGTERM; those
// still running then are cut off, and the world is saved all the same.
const shutdownTimeout = 10 * time.Second

// serverLimits are what the http.Server's timeouts are made of (D78). The mock holds an answer
// up to MaxDelay before it reads the body (steering comes first in the pipeline), so the read
// and write timeouts both make room for it: every delay the mock accepts ends in an answer.
type serverLimits struct {
	ReadHeader time.Duration // to read the request line and headers
	Body       time.Duration // to read the body, beyond the delay
	MaxDelay   time.Duration // the longest delay the mock accepts (mockserver.MaxDelay)
	Margin     time.Duration // to do the work and write the answer, beyond reading
	Idle       time.Duration // a kept-alive connection between requests
}

// defaultLimits are the limits of the binary.
var defaultLimits = serverLimits{
	ReadHeader: 5 * time.Second, Body: 30 * time.Second, MaxDelay: mockserver.MaxDelay,
	Margin: 10 * time.Second, Idle: 120 * time.Second,
}

// readTimeout covers the headers, the longest delay, then the body.
func (l serverLimits) readTimeout() time.Duration { return l.ReadHeader + l.MaxDelay + l.Body }

// writeTimeout runs from the end of the headers; it covers all the rest of readTimeout, then
// the work and the write.
func (l serverLimits) writeTimeout() time.Duration { return l.MaxDelay + l.Body + l.Margin }

// newHTTPServer returns the server of the binary for handler, with timeouts from l.
func newHTTPServer(handler http.Handler, l serverLimits) *http.Server {
	return &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: l.ReadHeader,
		ReadTimeout:       l.readTimeout(),
		WriteTimeout:      l.writeTimeout(),
		IdleTimeout:       l.Idle,
	}
}

// run is the whole program; main only wires the process to it.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	std := stdio{out: stdout, err: stderr}
	if len(args) > 0 && args[0] == "fixtures" {
		opts, err := parseFlags(args[1:], getenv, stderr)
		if err != nil {
			return err
		}
		return printManifest(opts, std.out)
	}
	if len(args) > 0 && args[0] == "proxy" {
		return runProxy(ctx, args[1:], getenv, std)
	}
	opts, err := parseFlags(args, getenv, stderr)
	if err != nil {
		return err
	}
	return serve(ctx, opts, std)
}

func parseFlags(args []string, getenv func(string) string, stderr io.Writer) (options, error) {
	fs := flag.NewFlagSet("mockserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", envOr(getenv, "MOCK_ADDR", "127.0.0.1:4010"), "address to listen on (MOCK_ADDR)")
	seed := fs.String("seed", envOr(getenv, "MOCK_SEED", strconv.FormatInt(fixtures.DefaultSeed, 10)), "seed of the fixture world (MOCK_SEED)")
	limit := fs.String("rate-limit", envOr(getenv, "MOCK_RATE_LIMIT", strconv.Itoa(mockserver.DefaultRateLimit)), "requests per minute per caller (MOCK_RATE_LIMIT)")
	maxRecs := fs.String("max-records", envOr(getenv, "MOCK_MAX_RECORDS", "0"), "most cards, comments and tags per project, 0 for no cap (MOCK_MAX_RECORDS; D70)")
	lenient := fs.Bool("lenient-content-type", envOr(getenv, "MOCK_LENIENT_CONTENT_TYPE", "") != "", "read every request body as JSON whatever its Content-Type (MOCK_LENIENT_CONTENT_TYPE; D6)")
	now := fs.String("now", envOr(getenv, "MOCK_NOW", ""), "start the mock's clock at this RFC 3339 time (MOCK_NOW); default: the system time")
	steer := steerFlags(fs, getenv)
	if err := fs.Parse(args); err != nil {
		return options{}, err
	}
	opts := options{addr: *addr}
	var err error
	if opts.steer, err = steer(); err != nil {
		return options{}, err
	}
	if opts.seed, err = strconv.ParseInt(*seed, 10, 64); err != nil || opts.seed == 0 {
		return options{}, fmt.Errorf("--seed: want a non-zero integer, got %q", *seed)
	}
	if opts.rateLimit, err = strconv.Atoi(*limit); err != nil || opts.rateLimit < 1 {
		return options{}, fmt.Errorf("--rate-limit: want a positive integer, got %q", *limit)
	}
	opts.lenient = *lenient
	if opts.maxRecs, err = strconv.Atoi(*maxRecs); err != nil || opts.maxRecs < 0 {
		return options{}, fmt.Errorf("--max-records: want a whole number, 0 for no cap, got %q", *maxRecs)
	}
	if *now != "" {
		if opts.now, err = time.Parse(time.RFC3339, *now); err != nil {
			return options{}, fmt.Errorf("--now: want an RFC 3339 time such as 2026-06-01T09:00:00Z, got %q", *now)
		}
		if err := mockserver.CheckClockStart(opts.now); err != nil {
			return options{}, fmt.Errorf("--now %s: %w", *now, err)
		}
	}
	return opts, nil
}

func envOr(getenv func(string) string, key, def string) string {
	if v := getenv(key); v != "" {
		return v
	}
	return def
}

func printManifest(opts options, out io.Writer) error {
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	return enc.Encode(fixtures.Build(opts.seed, time.Now()).Manifest)
}

// serve runs the mock until ctx ends, then drains in-flight requests.
func serve(ctx context.Context, opts options, std stdio) error {
	logs := newLogBuffer(std.err)
	defer logs.Close()
	logger := slog.New(slog.NewTextHandler(logs, nil))
	cfg := mockserver.Config{Seed: opts.seed, Now: opts.now, RateLimit: opts.rateLimit, MaxRecords: opts.maxRecs, LenientContentType: opts.lenient, Logger: logger}
	if err := opts.steer.apply(&cfg); err != nil {
		return err
	}
	mock, err := mockserver.New(cfg)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", opts.addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	srv := newHTTPServer(mock, defaultLimits)
	member := fixtures.Build(opts.seed, time.Now()).Manifest.Users.Member
	base := baseURL(ln.Addr())
	fmt.Fprintf(std.out, "mockserver listening on %s (%s, seed %d)\n", base, ln.Addr(), opts.seed)
	fmt.Fprintf(std.out, "member login: %s / %s — manifest at %s/__mock/fixtures\n", member.Email, member.Password, base)

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(mock.Listener(ln)) }() // net/http's own answers in the envelope (D79)
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownTimeout)
	defer cancel()
	var errs []error
	if err := srv.Shutdown(shutdownCtx); err != nil {
		// Requests still in flight are cut off; the world is saved all the same.
		errs = append(errs, fmt.Errorf("shutdown: %w", err))
		srv.Close()
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		errs = append(errs, fmt.Errorf("serve: %w", err))
	}
	if err := opts.steer.save(mock); err != nil {
		logger.Error("the world was not saved", "state_file", opts.steer.stateFile, "err", err)
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	fmt.Fprintln(std.out, "mockserver stopped")
	return nil
}

// baseURL is a URL a client on this machine can use: a listener on every interface (0.0.0.0,
// [::]) is reached at the loopback address.
func baseURL(addr net.Addr) string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return "http://" + addr.String()
	}
	if tcp.IP == nil || tcp.IP.IsUnspecified() {
		return fmt.Sprintf("http://127.0.0.1:%d", tcp.Port)
	}
	return "http://" + tcp.String()
}
