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

	"github.com/opsapi/mocktoolkit/proxy"
)

// proxyOptions are the flags of `mockserver proxy` after environment fallbacks.
type proxyOptions struct {
	upstream        *url.URL
	addr            string
	reportJSON      string
	reportJUnit     string
	failOnViolation bool
}

func parseProxyFlags(args []string, getenv func(string) string, stderr io.Writer) (proxyOptions, error) {
	fs := flag.NewFlagSet("mockserver proxy", flag.ContinueOnError)
	fs.SetOutput(stderr)
	upstream := fs.String("upstream", envOr(getenv, "MOCK_PROXY_UPSTREAM", ""), "the deployment to forward to, e.g. https://staging.example.com (MOCK_PROXY_UPSTREAM; required)")
	addr := fs.String("addr", envOr(getenv, "MOCK_ADDR", "127.0.0.1:4010"), "address to listen on (MOCK_ADDR)")
	reportJSON := fs.String("report-json", envOr(getenv, "MOCK_PROXY_REPORT_JSON", ""), "write the JSON report to this file at stop (MOCK_PROXY_REPORT_JSON)")
	reportJUnit := fs.String("report-junit", envOr(getenv, "MOCK_PROXY_REPORT_JUNIT", ""), "write the JUnit XML report to this file at stop (MOCK_PROXY_REPORT_JUNIT)")
	failEnv := envOr(getenv, "MOCK_PROXY_FAIL_ON_VIOLATION", "false")
	failDefault, err := strconv.ParseBool(failEnv)
	if err != nil {
		return proxyOptions{}, fmt.Errorf("MOCK_PROXY_FAIL_ON_VIOLATION: want true or false, got %q", failEnv)
	}
	fail := fs.Bool("fail-on-violation", failDefault, "exit non-zero at stop when the deployment broke a rule (MOCK_PROXY_FAIL_ON_VIOLATION)")
	if err := fs.Parse(args); err != nil {
		return proxyOptions{}, err
	}
	opts := proxyOptions{addr: *addr, reportJSON: *reportJSON, reportJUnit: *reportJUnit, failOnViolation: *fail}
	if *upstream == "" {
		return proxyOptions{}, errors.New("proxy: --upstream (or MOCK_PROXY_UPSTREAM) is required")
	}
	if opts.upstream, err = proxy.ParseUpstream(*upstream); err != nil {
		return proxyOptions{}, fmt.Errorf("--upstream: %w", err)
	}
	return opts, nil
}

// runProxy runs `mockserver proxy` until ctx ends, then drains in-flight exchanges and writes
// the reports; with --fail-on-violation it returns an error when the deployment broke a rule.
func runProxy(ctx context.Context, args []string, getenv func(string) string, std stdio) error {
	opts, err := parseProxyFlags(args, getenv, std.err)
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(std.err, nil))
	p, err := proxy.New(proxy.Config{Upstream: opts.upstream, Logger: logger})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", opts.addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	// No read or write timeout: bodies stream through, as long as the upstream takes.
	srv := &http.Server{Handler: p, ReadHeaderTimeout: 5 * time.Second, IdleTimeout: 120 * time.Second}
	base := baseURL(ln.Addr())
	fmt.Fprintf(std.out, "proxy listening on %s (%s), forwarding to %s\n", base, ln.Addr(), opts.upstream.Redacted())
	fmt.Fprintf(std.out, "dashboard at %s/__proxy/, exchanges at %s/__proxy/exchanges\n", base, base)

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return finishProxy(p, opts, std.out)
}

// finishProxy writes the reports and says how the run went.
func finishProxy(p *proxy.Proxy, opts proxyOptions, out io.Writer) error {
	if err := writeReport(opts.reportJSON, p.WriteJSONReport); err != nil {
		return err
	}
	if err := writeReport(opts.reportJUnit, p.WriteJUnitReport); err != nil {
		return err
	}
	r := p.Report()
	fmt.Fprintf(out, "proxy stopped: %d exchanges (%d checked), %d deployment violations, %d client violations\n",
		r.Exchanges, r.Checked, r.DeploymentViolations, r.ClientViolations)
	if opts.failOnViolation && r.DeploymentViolations > 0 {
		var broken []string
		for _, op := range r.Operations {
			for _, v := range op.Violations {
				if v.Party == proxy.Deployment {
					broken = append(broken, op.Operation+" "+v.Rule)
				}
			}
		}
		return fmt.Errorf("proxy: the deployment broke the contract %d times (%s); --fail-on-violation", r.DeploymentViolations, strings.Join(broken, ", "))
	}
	return nil
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
