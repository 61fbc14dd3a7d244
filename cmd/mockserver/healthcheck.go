package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// healthTimeout bounds one health check: a container runtime runs it every few seconds.
const healthTimeout = 3 * time.Second

// runHealthcheck asks the mock at --addr (MOCK_ADDR) for GET /healthz and returns nil when it
// answers 2xx: the image is FROM scratch, with no shell or curl for a HEALTHCHECK to run, so the
// binary checks itself. An address that listens on every interface (0.0.0.0:4010, :4010) is
// asked on the loopback one.
func runHealthcheck(ctx context.Context, args []string, getenv environ, std stdio) error {
	fs := flag.NewFlagSet("healthcheck", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	addr := fs.String("addr", envOr(getenv, "MOCK_ADDR", "127.0.0.1:4010"), "the address the mock listens on (MOCK_ADDR)")
	usage := func(out io.Writer) {
		fmt.Fprintf(out, "Usage: mockserver healthcheck [--addr host:port]\n  exit 0 when the mock at --addr (MOCK_ADDR, default 127.0.0.1:4010) answers GET /healthz, 1 when it does not\n")
	}
	// A flag the command cannot use exits 2, in the command's words, as every subcommand's
	// does: 1 is what a container runtime reads as "unhealthy".
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(std.out)
			return errHelp
		}
		fmt.Fprintln(std.err, flagError(err))
		if !badValue(err) {
			usage(std.err)
		}
		return &exitError{code: 2}
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(std.err, "mockserver healthcheck: unexpected argument %q; it takes only --addr\n", fs.Arg(0))
		return &exitError{code: 2}
	}
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "addr" })
	if a, ok := containerAddr(); ok && !given {
		*addr = a // docker run image --addr 0.0.0.0:5000 moves the mock, not MOCK_ADDR
	}
	url, err := healthURL(*addr)
	if err != nil {
		return &exitError{code: 2, msg: blameEnv(fs, getenv, err).Error()}
	}
	ctx, cancel := context.WithTimeout(ctx, healthTimeout)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("healthcheck: %s did not answer: %s", url, unanswered(err))
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 1<<16))
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return fmt.Errorf("healthcheck: %s answered %s", url, res.Status)
	}
	fmt.Fprintf(std.out, "healthy: %s answered %s\n", url, res.Status)
	return nil
}

// healthURL is the /healthz URL of a listening address, on the loopback interface when the
// address names every interface.
func healthURL(addr string) (string, error) {
	if err := checkAddr(addr); err != nil { // as serve words the flag
		return "", err
	}
	host, port, _ := net.SplitHostPort(addr)
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/healthz", nil
}

// containerCmdline is the command line of the container's first process: the mock, in the image.
var containerCmdline = "/proc/1/cmdline"

// containerAddr is the --addr the container's first process was given, when that process is
// mockserver (the image's ENTRYPOINT) and its command line names one: the health check then
// asks where the mock listens, which MOCK_ADDR no longer says.
func containerAddr() (string, bool) {
	raw, err := os.ReadFile(containerCmdline)
	if err != nil {
		return "", false
	}
	args := strings.Split(strings.TrimRight(string(raw), "\x00"), "\x00")
	if len(args) == 0 || filepath.Base(args[0]) != "mockserver" {
		return "", false
	}
	addr, found := "", false
	for i, a := range args[1:] {
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "addr" {
			continue
		}
		switch {
		case hasValue:
			addr, found = value, true
		case i+2 < len(args):
			addr, found = args[i+2], true
		}
	}
	return addr, found
}

// unanswered words why a request got no answer, without the client's restatement of the URL.
func unanswered(err error) string {
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "nothing listens there (connection refused)"
	case errors.Is(err, context.DeadlineExceeded), os.IsTimeout(err):
		return fmt.Sprintf("no answer within %s", healthTimeout)
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		return op.Err.Error()
	}
	return err.Error()
}
