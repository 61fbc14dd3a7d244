package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/opsapi/mocktoolkit/conformance/check"
	"github.com/opsapi/mocktoolkit/internal/hostguard"
	"github.com/opsapi/mocktoolkit/proxy"
)

// proxyReadTimeout bounds the reading of a request, body included: the upstream's own wait
// (2 minutes, proxy.upstreamTimeout) is the proxy's measure of "too slow" either way.
const proxyReadTimeout = 2 * time.Minute

// proxyOptions are the flags of `mockserver proxy` after environment fallbacks.
type proxyOptions struct {
	upstream        *url.URL
	addr            string
	reportJSON      string
	reportJUnit     string
	failOnViolation bool
	recordScenario  string // --record-scenario: the scenario file written at stop (record.go)
	allowedHosts    []string
	listLag         time.Duration // --list-lag; -1 for none (proxy.Config.ListLag)
}

// parseProxyFlags reads the flags of `mockserver proxy` as parseFlagsTo reads the mock's:
// --help prints the flags to stdout and returns errHelp; an unknown flag or a stray word prints
// what is wrong and the flags to stderr and returns an exitError of code 2 (D106).
func parseProxyFlags(args []string, getenv environ, std stdio) (_ proxyOptions, err error) {
	fs := flag.NewFlagSet("mockserver proxy", flag.ContinueOnError)
	defer func() { err = blameEnv(fs, getenv, err) }()
	var errs strings.Builder
	fs.SetOutput(&errs)
	fs.Usage = func() {}
	upstream := fs.String("upstream", envOr(getenv, "MOCK_PROXY_UPSTREAM", ""), "the deployment to forward to, e.g. https://staging.example.com (MOCK_PROXY_UPSTREAM; required)")
	addr := fs.String("addr", envOr(getenv, "MOCK_ADDR", "127.0.0.1:4010"), "address to listen on (MOCK_ADDR)")
	reportJSON := fs.String("report-json", envOr(getenv, "MOCK_PROXY_REPORT_JSON", ""), "write the JSON report to this file at stop (MOCK_PROXY_REPORT_JSON)")
	reportJUnit := fs.String("report-junit", envOr(getenv, "MOCK_PROXY_REPORT_JUNIT", ""), "write the JUnit XML report to this file at stop (MOCK_PROXY_REPORT_JUNIT)")
	hosts := fs.String("allowed-hosts", envOr(getenv, "MOCK_ALLOWED_HOSTS", ""), "comma-separated host names the proxy answers besides localhost and IP addresses, * for any (MOCK_ALLOWED_HOSTS)")
	failDefault, err := envBool(getenv, "MOCK_PROXY_FAIL_ON_VIOLATION")
	if err != nil {
		return proxyOptions{}, err
	}
	record := fs.String("record-scenario", envOr(getenv, "MOCK_PROXY_RECORD_SCENARIO", ""), "write at stop a scenario (mockserver --scenario) of the records the upstream's answers showed (MOCK_PROXY_RECORD_SCENARIO)")
	fail := fs.Bool("fail-on-violation", failDefault, "exit non-zero at stop when the deployment broke a rule (MOCK_PROXY_FAIL_ON_VIOLATION)")
	lag := fs.String("list-lag", envOr(getenv, "MOCK_PROXY_LIST_LAG", check.ListSettle.String()), "how long after a create a list may still not show it, as the suite's CONFORMANCE_PUSH_WAIT (MOCK_PROXY_LIST_LAG; 0s: at once)")
	ver := fs.Bool("version", false, "print the version and exit")
	err = fs.Parse(args)
	switch {
	case err == nil && fs.NArg() > 0:
		err = fmt.Errorf("mockserver proxy: unexpected argument %q", fs.Arg(0))
		fmt.Fprintf(&errs, "%v\n", err)
	case err != nil && !errors.Is(err, flag.ErrHelp):
		errs.Reset()
		fmt.Fprintln(&errs, flagError(err))
	}
	if err != nil {
		out, ret := std.err, error(&exitError{code: 2})
		if errors.Is(err, flag.ErrHelp) {
			out, ret = std.out, errHelp
			errs.Reset()
		}
		if badValue(err) { // a known flag's value: the message says it all
			fmt.Fprint(out, errs.String())
			return proxyOptions{}, ret
		}
		fmt.Fprintf(out, "%s\nUsage: mockserver proxy --upstream URL [flags]\n", errs.String())
		fs.SetOutput(out)
		fs.PrintDefaults()
		return proxyOptions{}, ret
	}
	if *ver {
		fmt.Fprintln(std.out, version())
		return proxyOptions{}, errHelp
	}
	opts := proxyOptions{addr: *addr, reportJSON: *reportJSON, reportJUnit: *reportJUnit, failOnViolation: *fail, recordScenario: *record, allowedHosts: splitList(*hosts)}
	if opts.listLag, err = time.ParseDuration(*lag); err != nil || opts.listLag < 0 || opts.listLag > time.Hour {
		return proxyOptions{}, fmt.Errorf("--list-lag %q: want a duration from 0s to 1h, such as 20s", *lag)
	}
	if opts.listLag == 0 {
		opts.listLag = -1 // no lag: Config's zero is the default
	}
	if *upstream == "" {
		return proxyOptions{}, errors.New("proxy: --upstream (or MOCK_PROXY_UPSTREAM) is required")
	}
	if err := hostguard.CheckNames(opts.allowedHosts); err != nil {
		return proxyOptions{}, fmt.Errorf("--allowed-hosts: %w", err)
	}
	if err := checkAddr(opts.addr); err != nil {
		return proxyOptions{}, err
	}
	if opts.upstream, err = proxy.ParseUpstream(*upstream); err != nil {
		return proxyOptions{}, fmt.Errorf("--upstream: %w", err)
	}
	if err := checkOutputPaths(opts); err != nil {
		return proxyOptions{}, err
	}
	return opts, nil
}

// runProxy runs `mockserver proxy` until ctx ends, then drains in-flight exchanges and writes
// the reports; with --fail-on-violation it returns an error when the deployment broke a rule.
func runProxy(ctx context.Context, args []string, getenv environ, std stdio) error {
	opts, err := parseProxyFlags(args, getenv, std)
	var exit *exitError
	if err != nil && !errors.Is(err, errHelp) && !errors.As(err, &exit) {
		// A value the proxy cannot use: a usage error (2), never read as a verdict (1).
		return &exitError{code: 2, msg: err.Error()}
	}
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(std.err, nil))
	routeStdLog(logger)
	warnCertEnv(getenv, logger)
	p, err := proxy.New(proxy.Config{Upstream: opts.upstream, Logger: logger, AllowedHosts: opts.allowedHosts, ListLag: opts.listLag})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", opts.addr)
	if err != nil {
		return listenError(opts.addr, err)
	}
	if err := notItself(ctx, opts.upstream, ln.Addr()); err != nil {
		ln.Close()
		return &exitError{code: 2, msg: err.Error()} // a value the proxy cannot use, never a verdict (1)
	}
	// No read or write timeout: bodies stream through, as long as the upstream takes.
	handler, rec, err := withRecorder(p, opts)
	if err != nil {
		return err
	}
	// Requests run under a context the stop cuts off (proxy.ErrStopping) once shutdownTimeout has
	// passed, so a client still waiting on the upstream then gets an answer, and the exchange is
	// reported, rather than a closed connection.
	reqCtx, cutOff := context.WithCancelCause(context.WithoutCancel(ctx))
	defer cutOff(nil)
	// ReadTimeout: a client that stalls while sending its request is let go after proxyReadTimeout
	// (D95), so stalled clients do not pile up while the proxy runs.
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: proxyReadTimeout, IdleTimeout: 120 * time.Second,
		BaseContext: func(net.Listener) context.Context { return reqCtx }, DisableGeneralOptionsHandler: true}
	base := baseURL(ln.Addr())
	fmt.Fprintf(std.out, "proxy listening on %s (%s), forwarding to %s\n", base, ln.Addr(), opts.upstream.Redacted())
	fmt.Fprintf(std.out, "dashboard at %s/__proxy/, exchanges at %s/__proxy/exchanges\n", base, base)
	fmt.Fprintln(std.out, stopOutputs(opts))

	errc := make(chan error, 1)
	served := boundConns(srv, p.Listener(ln), "proxy")
	go func() { errc <- srv.Serve(served) }() // net/http's own answers in shape (a) (D183)
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	if err := stopServer(ctx, srv, cutOff, proxy.ErrStopping, logger); err != nil {
		return err
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	// Every output is attempted even when one cannot be written (its folder removed while the
	// proxy ran): the verdict in the reports is not lost for the recording's sake (D195).
	recErr := writeRecording(rec, opts, std.out, logger)
	if err := finishProxy(p, opts, std.out); err != nil || recErr != nil {
		return errors.Join(recErr, err)
	}
	return nil
}

// stopOutputs says at start what the proxy does at stop: the reports and the recording it
// writes, and whether a deployment's violation fails it, so a CI gate a missing variable left
// off (MOCK_PROXY_FAIL_ON_VIOLATION= in a compose file) shows in the first lines of the log.
func stopOutputs(opts proxyOptions) string {
	var out []string
	for _, f := range []struct{ what, path string }{{"JSON report", opts.reportJSON}, {"JUnit report", opts.reportJUnit}, {"scenario recording", opts.recordScenario}} {
		if f.path != "" {
			out = append(out, f.what+" "+f.path)
		}
	}
	written := "at stop: no report written (--report-json, --report-junit)"
	if len(out) > 0 {
		written = "at stop: " + strings.Join(out, ", ")
	}
	if opts.failOnViolation {
		return written + "; exits 1 if the deployment broke the contract (--fail-on-violation)"
	}
	return written + "; exits 0 whatever the deployment answered (--fail-on-violation is off)"
}

// notItself refuses an upstream that is the proxy's own address (D140): every request would
// come back to the proxy, which would forward it again until it ran out of connections. The
// upstream's host is resolved; any of its addresses that is the listener's, or a loopback or
// local one when the listener takes every address, on the same port, is the proxy itself.
func notItself(ctx context.Context, upstream *url.URL, listen net.Addr) error {
	ln, ok := listen.(*net.TCPAddr)
	if !ok {
		return nil
	}
	port := upstream.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[upstream.Scheme]
	}
	if port != strconv.Itoa(ln.Port) {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	ips, err := net.DefaultResolver.LookupIPAddr(ctx, upstream.Hostname())
	if err != nil {
		return nil // the upstream may be unreachable now and later; the first request will say
	}
	local := map[string]bool{}
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok {
				local[n.IP.String()] = true
			}
		}
	}
	for _, ip := range ips {
		// A listener on one loopback address (127.0.0.1) is not reached through another
		// (127.0.0.2), so only its own address, or any when it takes every one, is itself.
		self := ip.IP.Equal(ln.IP) || ip.IP.IsUnspecified() || // 0.0.0.0 reaches this host
			(ln.IP.IsUnspecified() && (ip.IP.IsLoopback() || local[ip.IP.String()]))
		if self {
			return fmt.Errorf("--upstream %s is this proxy's own address (%s): it would forward every request to itself; point it at the deployment", upstream.Redacted(), listen)
		}
	}
	return nil
}

// finishProxy writes the reports and says how the run went; a report that cannot be written
// does not keep the other one or the summary from being written.
func finishProxy(p *proxy.Proxy, opts proxyOptions, out io.Writer) error {
	written := errors.Join(writeReport(opts.reportJSON, p.WriteJSONReport), writeReport(opts.reportJUnit, p.WriteJUnitReport))
	r := p.Report()
	checked := fmt.Sprintf("%d checked", r.Checked)
	if r.BodiesUnjudged > 0 {
		checked += fmt.Sprintf(", %d of them by status and headers only: a request or answer body too large, or in an encoding the proxy does not read", r.BodiesUnjudged)
	}
	fmt.Fprintf(out, "proxy stopped: %s (%s), %s, %s\n",
		count(r.Exchanges, "exchange"), checked, count(r.DeploymentViolations, "deployment violation"), count(r.ClientViolations, "client violation"))
	if opts.failOnViolation && r.DeploymentViolations > 0 {
		var broken []string
		for _, op := range r.Operations {
			for _, v := range op.Violations {
				if v.Party == proxy.Deployment {
					broken = append(broken, op.Operation+" "+string(v.Rule))
				}
			}
		}
		return errors.Join(written, fmt.Errorf("proxy: the deployment broke the contract %s (%s); --fail-on-violation", count(r.DeploymentViolations, "time"), strings.Join(broken, ", ")))
	}
	return written
}

// count words n things: "1 exchange", "2 exchanges".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return strconv.Itoa(n) + " " + thing + "s"
}

// writeReport writes one report to file, when a file is named.
func writeReport(file string, write func(io.Writer) error) error {
	if file == "" {
		return nil
	}
	f, err := os.Create(file)
	if err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	if err := write(f); err != nil {
		_ = f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write report %s: %w", file, err)
	}
	return nil
}
