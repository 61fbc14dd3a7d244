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
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/mockserver"
	"github.com/opsapi/mocktoolkit/spec"
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
	worlds    worldOptions
	version   bool // --version: print it and exit
}

// shutdownTimeout bounds how long in-flight requests may take to finish after SIGTERM; those
// still running then are cut off, and the world is saved all the same (D203). It leaves a
// container's stop (10 s before SIGKILL, Docker's and Compose's default) time to save: at 10 s
// a request held by a delay had the mock killed before it wrote its state file.
var shutdownTimeout = 5 * time.Second

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
		// OPTIONS * reaches the mock, which answers it in its envelope (net/http answered it
		// 200 with no body).
		DisableGeneralOptionsHandler: true,
	}
}

// run is the whole program; main only wires the process to it. Unknown subcommands and flags
// return an exitError of code 2 after the usage; help and --version print and return nil.
func run(ctx context.Context, args []string, getenv environ, stdout, stderr io.Writer) error {
	std := stdio{out: stdout, err: stderr}
	sub := "serve"
	if len(args) > 0 && !isFlag(args[0]) {
		sub, args = args[0], args[1:]
	}
	var err error
	switch sub {
	case "help":
		switch {
		case len(args) > 1 && !isFlag(args[0]) && !isFlag(args[1]):
			fmt.Fprintf(stderr, "mockserver: help takes one subcommand (serve, fixtures, proxy or healthcheck), not %q\n\n", args[0]+" "+args[1])
			printUsage(stderr, flagDefaults(getenv))
			return &exitError{code: 2}
		case len(args) > 0 && args[0] == "proxy":
			err = runProxy(ctx, []string{"--help"}, getenv, std)
		case len(args) > 0 && args[0] == "healthcheck":
			err = runHealthcheck(ctx, []string{"--help"}, getenv, std)
		case len(args) > 0 && !isFlag(args[0]) && args[0] != "serve" && args[0] != "fixtures" && args[0] != "help":
			fmt.Fprintf(stderr, "mockserver: help on an unknown subcommand %q\n\n", args[0])
			printUsage(stderr, flagDefaults(getenv))
			return &exitError{code: 2}
		default:
			_, err = parseFlagsTo([]string{"--help"}, getenv, stdout, stderr)
		}
	case "fixtures":
		var opts options
		if opts, err = parseFlagsTo(args, getenv, stdout, stderr); err == nil {
			err = printManifest(opts, std.out)
		}
	case "proxy":
		err = runProxy(ctx, args, getenv, std)
	case "healthcheck":
		err = runHealthcheck(ctx, args, getenv, std)
	case "serve":
		var opts options
		if opts, err = parseFlagsTo(args, getenv, stdout, stderr); err == nil {
			err = serve(ctx, opts, std)
		}
	default:
		fmt.Fprintf(stderr, "mockserver: unknown subcommand %q\n\n", sub)
		printUsage(stderr, flagDefaults(getenv))
		return &exitError{code: 2}
	}
	if errors.Is(err, errHelp) {
		return nil
	}
	return err
}

// flagSet declares every flag of serve and fixtures on a new set, and returns the function
// that reads them after parsing.
func flagSet(getenv environ) (*flag.FlagSet, func() (options, error)) {
	fs := flag.NewFlagSet("mockserver", flag.ContinueOnError)
	addr := fs.String("addr", envOr(getenv, "MOCK_ADDR", "127.0.0.1:4010"), "address to listen on (MOCK_ADDR)")
	seed := fs.String("seed", envOr(getenv, "MOCK_SEED", strconv.FormatInt(fixtures.DefaultSeed, 10)), "seed of the fixture world (MOCK_SEED)")
	limit := fs.String("rate-limit", envOr(getenv, "MOCK_RATE_LIMIT", strconv.Itoa(mockserver.DefaultRateLimit)), "requests per minute per caller and operation (MOCK_RATE_LIMIT)")
	maxRecs := fs.String("max-records", envOr(getenv, "MOCK_MAX_RECORDS", "0"), "most cards, comments and tags per project, and master boards, groups and cards, 0 for no cap (MOCK_MAX_RECORDS)")
	lenientEnv, lenientErr := envBool(getenv, "MOCK_LENIENT_CONTENT_TYPE")
	lenient := fs.Bool("lenient-content-type", lenientEnv, "read every request body as JSON whatever its Content-Type (MOCK_LENIENT_CONTENT_TYPE)")
	now := fs.String("now", envOr(getenv, "MOCK_NOW", ""), "start the mock's clock at this RFC 3339 time (MOCK_NOW); default: the system time")
	ver := fs.Bool("version", false, "print the version and exit")
	steer := steerFlags(fs, getenv)
	worlds := worldFlags(fs, getenv)
	return fs, func() (options, error) {
		if *ver {
			return options{version: true}, nil
		}
		opts := options{addr: *addr}
		if err := checkAddr(*addr); err != nil {
			return options{}, err
		}
		if lenientErr != nil {
			return options{}, lenientErr
		}
		var err error
		if opts.steer, err = steer(); err != nil {
			return options{}, err
		}
		if opts.worlds, err = worlds(); err != nil {
			return options{}, err
		}
		if opts.seed, err = strconv.ParseInt(*seed, 10, 64); err != nil {
			return options{}, fmt.Errorf("--seed: want a non-zero integer, got %q", *seed)
		}
		if err := fixtures.CheckSeed(opts.seed); err != nil {
			return options{}, fmt.Errorf("--seed: %w (got %d)", err, opts.seed)
		}
		if opts.rateLimit, err = strconv.Atoi(*limit); err != nil || opts.rateLimit < 1 || opts.rateLimit > mockserver.MostRateLimit {
			return options{}, fmt.Errorf("--rate-limit: want a whole number of requests a minute from 1 to %d, got %q", mockserver.MostRateLimit, *limit)
		}
		opts.lenient = *lenient
		if opts.maxRecs, err = strconv.Atoi(*maxRecs); err != nil || opts.maxRecs < 0 {
			return options{}, fmt.Errorf("--max-records: want a whole number, 0 for no cap, got %q", *maxRecs)
		}
		if *now != "" {
			if opts.now, err = time.Parse(time.RFC3339, *now); err != nil || spec.ValidateDateTime(*now) != nil {
				return options{}, fmt.Errorf("--now: want an RFC 3339 time such as 2026-06-01T09:00:00Z, got %q", *now)
			}
			if err := mockserver.CheckClockStart(opts.now); err != nil {
				return options{}, fmt.Errorf("--now: %v, got %s", err, *now)
			}
		}
		return opts, nil
	}
}

// checkAddr refuses an --addr with no port: Go listens on every interface, on a port of its
// choosing, for "" and ":", while the banner named 127.0.0.1. ":4010" (every interface, port
// 4010) is a choice a user makes knowingly and is kept. A port past 65535 is refused here, in
// the flag's words, rather than by the listener's.
func checkAddr(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil || port == "" {
		return fmt.Errorf("--addr: want host:port such as 127.0.0.1:4010 (0.0.0.0:4010 listens on every interface), got %q", addr)
	}
	if _, err := net.LookupPort("tcp", port); err != nil {
		return fmt.Errorf("--addr: the port must be a number from 0 to 65535, got %q", addr)
	}
	return nil
}

// listenError words why the listener could not be opened on addr, in the flag's terms.
func listenError(addr string, err error) error {
	why := err.Error()
	var dns *net.DNSError
	switch {
	case errors.Is(err, syscall.EADDRINUSE):
		why = "the address is in use (another process listens on it, or a connection holds the port; stop it, or choose another port)"
	case errors.Is(err, syscall.EADDRNOTAVAIL):
		why = "no network interface of this machine has that address (127.0.0.1 is this machine; 0.0.0.0 is every interface)"
	case errors.Is(err, syscall.EACCES):
		why = "this user may not listen on that port (ports below 1024 need privileges)"
	case errors.As(err, &dns):
		why = "the host is neither an IP address nor a name that resolves (an IPv4 address has four parts from 0 to 255)"
	}
	return fmt.Errorf("--addr %s: cannot listen: %s", addr, why)
}

// flagDefaults is the flag list of the usage.
func flagDefaults(getenv environ) string {
	fs, _ := flagSet(getenv)
	var b strings.Builder
	fs.SetOutput(&b)
	fs.PrintDefaults()
	return b.String()
}

// parseFlags reads the flags of serve and fixtures, writing everything to stderr.
func parseFlags(args []string, getenv environ, stderr io.Writer) (options, error) {
	return parseFlagsTo(args, getenv, stderr, stderr)
}

// parseFlagsTo reads the flags of serve and fixtures. --help prints the usage to stdout and
// returns errHelp; --version prints the version and returns errHelp; a flag error prints it
// with the usage to stderr and returns an exitError of code 2, as does a value the command
// cannot use (with its message only).
func parseFlagsTo(args []string, getenv environ, stdout, stderr io.Writer) (options, error) {
	fs, read := flagSet(getenv)
	var errs strings.Builder
	fs.SetOutput(&errs)
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printUsage(stdout, flagDefaults(getenv))
			return options{}, errHelp
		}
		fmt.Fprintln(stderr, flagError(err))
		if badValue(err) {
			// A known flag with a value it cannot take: the message says it all, as it does
			// for the values read after parsing.
			return options{}, &exitError{code: 2}
		}
		printUsage(stderr, flagDefaults(getenv))
		return options{}, &exitError{code: 2}
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "mockserver: unexpected argument %q\n\n", fs.Arg(0))
		printUsage(stderr, flagDefaults(getenv))
		return options{}, &exitError{code: 2}
	}
	opts, err := read()
	if err == nil && opts.version {
		fmt.Fprintln(stdout, version())
		return options{}, errHelp
	}
	if err := blameEnv(fs, getenv, err); err != nil { // a value the command cannot use: a usage error
		return options{}, &exitError{code: 2, msg: err.Error()}
	}
	return opts, nil
}

// envOfFlag reads the environment variable a flag's usage names: "… (MOCK_RATE_LIMIT)" or "(MOCK_PROXY_UPSTREAM; required)".
var envOfFlag = regexp.MustCompile(`\((MOCK_[A-Z_]+)[;)]`)

// blameEnv words err, a value error of "--flag: …", under the environment variable the value
// came from when the flag was not on the command line: "MOCK_RATE_LIMIT (--rate-limit): …".
func blameEnv(fs *flag.FlagSet, getenv environ, err error) error {
	if err == nil || !strings.HasPrefix(err.Error(), "--") {
		return err
	}
	// The flag's name ends at a colon or a space: "--list-lag \"-1s\": want …" names the flag
	// as "--addr: …" does (such messages named the flag when the value came from a variable).
	msg := strings.TrimPrefix(err.Error(), "--")
	end := strings.IndexAny(msg, ": ")
	if end < 0 {
		return err
	}
	name, rest := msg[:end], msg[end:]
	f := fs.Lookup(name)
	if f == nil {
		return err
	}
	given := false
	fs.Visit(func(v *flag.Flag) { given = given || v.Name == name })
	m := envOfFlag.FindStringSubmatch(f.Usage)
	if given || m == nil {
		return err
	}
	if _, set := getenv(m[1]); !set {
		return err
	}
	return fmt.Errorf("%s (--%s)%s", m[1], name, rest)
}

// envBool reads a boolean environment variable: unset or empty is false, else one of the
// words strconv.ParseBool takes (true, false, 1, 0, …); any other is an error naming it, so
// MOCK_LENIENT_CONTENT_TYPE=false is never read as "set".
func envBool(getenv environ, key string) (bool, error) {
	v := getenv.get(key)
	if v == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("%s: want true or false (or 1 or 0), got %q", key, v)
	}
	return b, nil
}

// environ reads the environment as os.LookupEnv does: a variable set but empty is told from
// one not set (MOCK_ADMIN_TOKEN="" is refused; unset leaves the controls open).
type environ func(string) (string, bool)

// get is the variable's value, "" when it is not set.
func (e environ) get(key string) string {
	v, _ := e(key)
	return v
}

// setEmpty tells whether key is set to the empty string.
func (e environ) setEmpty(key string) bool {
	v, ok := e(key)
	return ok && v == ""
}

func envOr(getenv environ, key, def string) string {
	if v := getenv.get(key); v != "" {
		return v
	}
	return def
}

// printManifest prints the manifest of the default world the same flags serve: the mock is
// built as serve builds it, so a --state-file or --scenario is read as it would be (a CI
// script reading credentials this way logged in with the default seed's).
func printManifest(opts options, out io.Writer) error {
	mock, err := newMock(opts, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	return enc.Encode(mock.Manifest())
}

// newMock builds the mock opts describe, as serve and fixtures both need it.
func newMock(opts options, logger *slog.Logger) (*mockserver.Server, error) {
	cfg := mockserver.Config{Seed: opts.seed, Now: opts.now, RateLimit: opts.rateLimit, MaxRecords: opts.maxRecs, LenientContentType: opts.lenient, Logger: logger}
	opts.worlds.apply(&cfg)
	if err := opts.steer.apply(&cfg); err != nil {
		return nil, err
	}
	mock, err := mockserver.New(cfg)
	var bad *mockserver.StateError
	if errors.As(err, &bad) {
		return nil, opts.steer.unusable("%v", err)
	}
	var cfgErr *mockserver.ConfigError
	if errors.As(err, &cfgErr) { // a flag value that cannot be used, as the flags' own checks refuse
		return nil, &exitError{code: 2, msg: cfgErr.Err.Error()}
	}
	return mock, err
}

// serve runs the mock until ctx ends, then drains in-flight requests.
func serve(ctx context.Context, opts options, std stdio) error {
	logs := newLogBuffer(std.err)
	defer logs.Close()
	logger := slog.New(newRequestLines(logs))
	routeStdLog(logger)
	unlock, locked, err := opts.steer.lock()
	if err != nil {
		return err
	}
	defer unlock()
	mock, err := newMock(opts, logger)
	if err != nil {
		return err
	}
	if limitFollowsRecords || gcFollowsHeap {
		go followRecords(ctx, mock)
	}
	go watchScenarioDir(ctx, opts.worlds, mock, logger)
	ln, err := net.Listen("tcp", opts.addr)
	if err != nil {
		return listenError(opts.addr, err)
	}
	srv := newHTTPServer(mock, defaultLimits)
	reqCtx, cutOff := context.WithCancelCause(context.WithoutCancel(ctx))
	defer cutOff(nil)
	srv.BaseContext = func(net.Listener) context.Context { return reqCtx }
	base := baseURL(ln.Addr())
	fmt.Fprintf(std.out, "mockserver listening on %s (%s)\n", base, ln.Addr())
	printStartup(std.out, base, opts, mock)

	errc := make(chan error, 1)
	served := boundConns(srv, mock.Listener(ln), "mock")
	go func() { errc <- srv.Serve(served) }() // net/http's own answers in the envelope (D79)
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	var errs []error
	if err := stopServer(ctx, srv, cutOff, mockserver.ErrStopping, logger); err != nil {
		// Requests still in flight are cut off; the world is saved all the same.
		errs = append(errs, fmt.Errorf("shutdown: %w", err))
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		errs = append(errs, fmt.Errorf("serve: %w", err))
	}
	if err := opts.steer.save(mock, locked); err != nil {
		logger.Error("the world was not saved", "state_file", opts.steer.stateFile, "err", err)
		errs = append(errs, err)
	} else if n := mock.NamedWorlds(); opts.steer.stateFile != "" && n > 0 {
		// The state file holds the default world: workers in named worlds lost their
		// records silently.
		logger.Warn("the state file keeps the default world only; named worlds were not saved (save one with GET /__worlds/<name>/__mock/state)", "state_file", opts.steer.stateFile, "named_worlds", n)
	}
	_ = logs.Close() // the request lines still buffered come before the last line
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

// printStartup tells what was loaded and where to go: the dashboard, the world and its source,
// a login, and how to reach the named worlds.
func printStartup(out io.Writer, base string, opts options, mock *mockserver.Server) {
	src := mock.Default().Source()
	loaded := fmt.Sprintf("scenario %s, seed %d", src.Scenario, src.Seed)
	if opts.worlds.file != nil {
		loaded = fmt.Sprintf("scenario %s from %s, seed %d", src.Scenario, opts.worlds.file.Path(), src.Seed)
	}
	if src.Snapshot {
		loaded += ", records from the state file " + opts.steer.stateFile
	} else if opts.steer.stateFile != "" {
		loaded += ", state file " + opts.steer.stateFile + " (not there yet: written at stop)"
	}
	fmt.Fprintf(out, "dashboard: %s/ — default world: %s\n", base, loaded)
	if member := mock.Manifest().Users.Member; member.Email != "" {
		fmt.Fprintf(out, "member login: %s / %s — manifest at %s/__mock/fixtures\n", member.Email, member.Password, base)
	}
	if opts.worlds.maxWorlds > 0 {
		fmt.Fprintf(out, "isolated worlds: %s/__worlds/<name>/… (or header X-Mock-World), up to %d\n", base, opts.worlds.maxWorlds)
	}
	if opts.steer.adminToken != "" {
		fmt.Fprintln(out, "controls (/__mock/): guarded by --admin-token (send it as X-Mock-Admin-Token)")
	} else {
		fmt.Fprintln(out, "controls (/__mock/): open to every client that reaches this address (--admin-token guards them)")
	}
}
