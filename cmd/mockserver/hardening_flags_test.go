package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// --cors-origins null is refused at start, saying why (D148).
func TestCORSOriginsNullRefused(t *testing.T) {
	none := noEnv
	for _, v := range []string{"null", "https://app.example.com,null", " NULL "} {
		if _, err := parseFlags([]string{"--cors-origins", v}, none, io.Discard); err == nil || !strings.Contains(err.Error(), "null") {
			t.Errorf("--cors-origins %q: %v, want a refusal naming null", v, err)
		}
	}
}

// An origin a browser never sends (a path, another scheme, a trailing slash) and a host name
// no Host header carries are refused at start: neither could ever match; nor may * stand among
// names (README: "* alone for any").
func TestFlagsRefuseWhatCouldNeverMatch(t *testing.T) {
	none := noEnv
	for _, args := range [][]string{
		{"--cors-origins", "javascript:alert(1)"}, {"--cors-origins", "http://a.com/path"}, {"--cors-origins", "http://a.com/"},
		{"--cors-origins", "a.com"}, {"--cors-origins", "http://a.test:99999"}, {"--cors-origins", "http://a.test:"}, {"--allowed-hosts", "a b"}, {"--allowed-hosts", "https://staging.example.com"},
		{"--cors-origins", ""}, {"--cors-origins", " , "}, {"--allowed-hosts", "a..b"}, {"--allowed-hosts", "-a.example.com"},
		{"--allowed-hosts", "staging.example.com,*"}, // * stands alone: among names it would turn the guard off unasked
		{"--cors-origins", "*,http://a.com"},         // * stands alone, as in --allowed-hosts
		{"--allowed-hosts", "münchen.de"},            // a Host header carries its ASCII form: it would never match
		{"--cors-origins", "http://localhost:80"},    // a browser leaves the default port out
		{"--cors-origins", "https://app.test:443"},
		{"--cors-origins", "http://localhost:03000"}, // nor writes a port with leading zeros
	} {
		if _, err := parseFlags(args, none, io.Discard); err == nil || !strings.Contains(err.Error(), args[0]) {
			t.Errorf("%v: %v, want a refusal naming the flag", args, err)
		}
	}
	if _, err := parseProxyFlags([]string{"--upstream", "http://127.0.0.1:1", "--allowed-hosts", "a b"}, none, stdio{out: io.Discard, err: io.Discard}); err == nil {
		t.Error("proxy --allowed-hosts 'a b' accepted")
	}
	for _, args := range [][]string{{"--cors-origins", "http://localhost:5173,https://app.example.com"}, {"--cors-origins", "https://app.test:80,http://app.test:443"}, {"--allowed-hosts", "*"}, {"--allowed-hosts", "a.example.com,b.example.com"}} {
		if _, err := parseFlags(args, none, io.Discard); err != nil {
			t.Errorf("%v: %v", args, err)
		}
	}
}

// The temporary files a save killed mid-way (kill -9) left beside the state file are removed
// at the next start; the state file and other files stay (D149).
func TestStateLeftoversCleanedAtStart(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state.json")
	left := []string{".mockserver-state-state.json-123456", ".mockserver-state-state.json-987"}
	keep := []string{".mockserver-state-other.json-42", "notes.txt", ".mockserver-state-state.json-mybackup", ".mockserver-state-state.json-"}
	for _, f := range append(append([]string{}, left...), keep...) {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("{"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	none := noEnv
	opts, err := parseFlags([]string{"--state-file", state}, none, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if err := opts.steer.apply(&mockserver.Config{}); err != nil {
		t.Fatal(err)
	}
	for _, f := range left {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s survives the start", f)
		}
	}
	for _, f := range keep {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s was removed: %v", f, err)
		}
	}
}

// A careless --upstream naming the proxy's own address is refused at start, not served until
// the proxy runs out of connections (D140): a usage error (exit 2), never read as a verdict (1).
func TestProxyUpstreamIsItself(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	for _, up := range []string{fmt.Sprintf("http://127.0.0.1:%d", port), fmt.Sprintf("http://localhost:%d/api", port)} {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err := run(ctx, []string{"proxy", "--upstream", up, "--addr", fmt.Sprintf("127.0.0.1:%d", port)}, noEnv, io.Discard, io.Discard)
		cancel()
		var exit *exitError
		if !errors.As(err, &exit) || exit.code != 2 || !strings.Contains(err.Error(), "own address") {
			t.Errorf("--upstream %s on the proxy's own port: %v, want a refusal at start, exit 2", up, err)
		}
	}
}

// An --addr without a port is refused, for the mock and the proxy: "" and ":" listened on every
// interface while the banner said 127.0.0.1. ":4010" stays a choice (every interface).
func TestAddrWithoutPortRefused(t *testing.T) {
	none := noEnv
	for _, v := range []string{"", ":", "127.0.0.1", "localhost:"} {
		if _, err := parseFlags([]string{"--addr", v}, none, io.Discard); err == nil || !strings.Contains(err.Error(), "--addr") {
			t.Errorf("mockserver --addr %q: %v, want a refusal naming --addr", v, err)
		}
		if _, err := parseProxyFlags([]string{"--upstream", "http://127.0.0.1:1", "--addr", v}, none, stdio{out: io.Discard, err: io.Discard}); err == nil || !strings.Contains(err.Error(), "--addr") {
			t.Errorf("mockserver proxy --addr %q: %v, want a refusal naming --addr", v, err)
		}
	}
	if _, err := parseFlags([]string{"--addr", ":4010"}, none, io.Discard); err != nil {
		t.Errorf("--addr :4010: %v", err)
	}
}

// An --admin-token no header can carry (a space, a line break, a character past ASCII) is
// refused at start: it started, and every control answered 401 for ever.
func TestAdminTokenMustTravelInAHeader(t *testing.T) {
	none := noEnv
	for _, v := range []string{" ", "a b", "a\nb", "tok\u00e9n", " tok"} {
		if _, err := parseFlags([]string{"--admin-token", v}, none, io.Discard); err == nil || !strings.Contains(err.Error(), "--admin-token") {
			t.Errorf("--admin-token %q: %v, want a refusal", v, err)
		}
	}
	if _, err := parseFlags([]string{"--admin-token", "s3cr3t-Token_1"}, none, io.Discard); err != nil {
		t.Errorf("--admin-token s3cr3t-Token_1: %v", err)
	}
}

// The proxy's reports are checked at start as the recording is: one file named twice, or a
// folder that does not exist, is refused before the run instead of losing a report at stop.
func TestProxyReportPathsCheckedAtStart(t *testing.T) {
	none := noEnv
	dir := t.TempDir()
	same := filepath.Join(dir, "report")
	for _, args := range [][]string{
		{"--report-json", same, "--report-junit", same},
		{"--report-json", filepath.Join(dir, "missing", "r.json")},
		{"--report-junit", dir},
	} {
		args = append([]string{"--upstream", "http://127.0.0.1:1"}, args...)
		if _, err := parseProxyFlags(args, none, stdio{out: io.Discard, err: io.Discard}); err == nil || !strings.Contains(err.Error(), "--report-") {
			t.Errorf("mockserver proxy %q: %v, want a refusal naming the report flag", args, err)
		}
	}
}

// A --state-file in a folder that does not exist is refused at start: the mock ran, and at
// stop the session was lost ("the world was not saved", exit 1).
func TestStateFileFolderCheckedAtStart(t *testing.T) {
	missing := steerOptions{stateFile: filepath.Join(t.TempDir(), "nodir", "s.json")}
	var cfg mockserver.Config
	if err := missing.apply(&cfg); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("--state-file in a missing folder: %v, want a refusal naming the directory", err)
	}
	fresh := steerOptions{stateFile: filepath.Join(t.TempDir(), "s.json")}
	if err := fresh.apply(&cfg); err != nil {
		t.Errorf("--state-file that does not exist yet, in a folder that does: %v", err)
	}
}

// Flags a careless user gives get a clear refusal at start, in the flag's terms: a wildcard host
// name (matched as written, it allowed nothing), an upstream port TCP does not have, an upstream
// without a scheme (named as given); another loopback address on the proxy's port is not the
// proxy; `proxy --version` prints the version as `mockserver --version` does.
func TestProxyFlagsACarelessUserGives(t *testing.T) {
	none := noEnv
	quiet := stdio{out: io.Discard, err: io.Discard}
	for args, want := range map[string]string{
		"--upstream http://127.0.0.1:1 --allowed-hosts *.example.com": "wildcard",
		"--upstream http://127.0.0.1:99999":                           "65535",
		"--upstream 127.0.0.1:5100":                                   `"127.0.0.1:5100"`,
		"--upstream http://127.0.0.1:1 --list-lag 20":                 "such as 20s",
		"--upstream http://127.0.0.1:1 --list-lag -1s":                "from 0s to 1h",
	} {
		_, err := parseProxyFlags(strings.Fields(args), none, quiet)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("proxy %s: %v, want an error saying %s", args, err, want)
		}
	}
	if _, err := parseFlags([]string{"--allowed-hosts", "*.example.com"}, none, io.Discard); err == nil || !strings.Contains(err.Error(), "wildcard") {
		t.Errorf("mockserver --allowed-hosts *.example.com: %v, want an error saying wildcard", err)
	}
	for _, now := range []string{"0001-01-01T00:00:00Z", "9999-12-31T00:00:00Z"} {
		if _, err := parseFlags([]string{"--now", now}, none, io.Discard); err == nil || !strings.Contains(err.Error(), "from 0001-01-01T00:00:01Z") {
			t.Errorf("--now %s: %v, want the range it takes, from an instant it takes", now, err)
		}
	}
	for lag, want := range map[string]time.Duration{"0s": -1, "3s": 3 * time.Second} {
		if opts, err := parseProxyFlags([]string{"--upstream", "http://127.0.0.1:1", "--list-lag", lag}, none, quiet); err != nil || opts.listLag != want {
			t.Errorf("--list-lag %s: %v %v, want %v", lag, opts.listLag, err, want)
		}
	}
	var out strings.Builder
	if _, err := parseProxyFlags([]string{"--version"}, none, stdio{out: &out, err: io.Discard}); !errors.Is(err, errHelp) || !strings.Contains(out.String(), "mockserver") {
		t.Errorf("proxy --version: %v, printed %q; want the version printed", err, out.String())
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	other, _ := url.Parse(fmt.Sprintf("http://127.0.0.2:%d", port))
	if err := notItself(context.Background(), other, ln.Addr()); err != nil {
		t.Errorf("127.0.0.2 on the port of a proxy listening on 127.0.0.1: %v; it does not reach the proxy", err)
	}
	self, _ := url.Parse(fmt.Sprintf("http://localhost:%d", port))
	if err := notItself(context.Background(), self, ln.Addr()); err == nil {
		t.Error("localhost on the proxy's own port was not refused")
	}
}

// A boolean environment variable is read as the word it holds: MOCK_LENIENT_CONTENT_TYPE=false
// (or 0) keeps the Content-Type check on, true or 1 turns it off, and a word that is neither is
// refused naming the variable, for the mock and the proxy alike.
func TestBooleanEnvironmentVariablesReadTheirWord(t *testing.T) {
	for v, want := range map[string]bool{"": false, "false": false, "0": false, "FALSE": false, "true": true, "1": true} {
		env := envOf(map[string]string{"MOCK_LENIENT_CONTENT_TYPE": v})
		opts, err := parseFlags(nil, env, io.Discard)
		if err != nil || opts.lenient != want {
			t.Errorf("MOCK_LENIENT_CONTENT_TYPE=%q: lenient %v, %v; want %v", v, opts.lenient, err, want)
		}
	}
	for _, v := range []string{"no", "maybe", "yes"} {
		env := envOf(map[string]string{"MOCK_LENIENT_CONTENT_TYPE": v, "MOCK_PROXY_FAIL_ON_VIOLATION": v})
		if _, err := parseFlags(nil, env, io.Discard); err == nil || !strings.Contains(err.Error(), "MOCK_LENIENT_CONTENT_TYPE") {
			t.Errorf("MOCK_LENIENT_CONTENT_TYPE=%q: %v, want a refusal naming it", v, err)
		}
		if _, err := parseProxyFlags([]string{"--upstream", "http://127.0.0.1:1"}, env, stdio{out: io.Discard, err: io.Discard}); err == nil || !strings.Contains(err.Error(), "MOCK_PROXY_FAIL_ON_VIOLATION") {
			t.Errorf("MOCK_PROXY_FAIL_ON_VIOLATION=%q: %v, want a refusal naming it", v, err)
		}
	}
}

// A bad value read from the environment is named by its variable (the flag was never typed),
// one given on the command line by its flag.
func TestBadEnvironmentValuesNameTheirVariable(t *testing.T) {
	env := envOf(map[string]string{"MOCK_RATE_LIMIT": "abc", "MOCK_PROXY_UPSTREAM": "http://127.0.0.1:99999"})
	if _, err := parseFlags(nil, env, io.Discard); err == nil || !strings.HasPrefix(err.Error(), "MOCK_RATE_LIMIT (--rate-limit): ") {
		t.Errorf("MOCK_RATE_LIMIT=abc: %v, want it named", err)
	}
	if _, err := parseFlags([]string{"--rate-limit", "x"}, env, io.Discard); err == nil || !strings.HasPrefix(err.Error(), "--rate-limit: ") {
		t.Errorf("--rate-limit x: %v, want the flag named", err)
	}
	if _, err := parseProxyFlags(nil, env, stdio{out: io.Discard, err: io.Discard}); err == nil || !strings.HasPrefix(err.Error(), "MOCK_PROXY_UPSTREAM (--upstream): ") {
		t.Errorf("MOCK_PROXY_UPSTREAM with port 99999: %v, want it named", err)
	}
	// Messages that quote the value after the flag's name named the flag alone.
	for name, v := range map[string]string{"MOCK_PROXY_LIST_LAG": "-1s", "MOCK_PROXY_REPORT_JSON": t.TempDir(), "MOCK_PROXY_RECORD_SCENARIO": t.TempDir()} {
		env := envOf(map[string]string{"MOCK_PROXY_UPSTREAM": "http://127.0.0.1:1", name: v})
		if _, err := parseProxyFlags(nil, env, stdio{out: io.Discard, err: io.Discard}); err == nil || !strings.HasPrefix(err.Error(), name+" (--") {
			t.Errorf("%s=%s: %v, want the variable named", name, v, err)
		}
	}
}

// An origin given in capitals is the origin a browser sends in lower case; a pattern
// (http://*.example.com) is refused at start rather than taken and never matched.
func TestCORSOriginsAsBrowsersSendThem(t *testing.T) {
	none := noEnv
	if _, err := parseFlags([]string{"--cors-origins", "http://*.example.com"}, none, io.Discard); err == nil || !strings.Contains(err.Error(), "patterns are not read") {
		t.Errorf("--cors-origins http://*.example.com: %v, want a refusal saying patterns are not read", err)
	}
	m, err := mockserver.New(mockserver.Config{CORSOrigins: []string{"HTTP://LOCALHOST:3000"}})
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodPost, "/__mock/reset", nil)
	req.Header.Set("Origin", "http://localhost:3000")
	rec := httptest.NewRecorder()
	m.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK || rec.Header().Get("Access-Control-Allow-Origin") != "http://localhost:3000" {
		t.Errorf("a reset from http://localhost:3000 with HTTP://LOCALHOST:3000 listed: %d %q %s", rec.Code, rec.Header().Get("Access-Control-Allow-Origin"), rec.Body)
	}
}

// An --addr the listener cannot take is refused in the flag's words, not Go's ("listen tcp:
// address 99999: invalid port"): a port past 65535 at parsing, a taken port or an address this
// machine does not have when listening, for the mock and the proxy alike.
func TestAddrRefusedInTheFlagsWords(t *testing.T) {
	none := noEnv
	for _, addr := range []string{"127.0.0.1:99999", "127.0.0.1:-1", "127.0.0.1:nosuchservice"} {
		_, err := parseFlags([]string{"--addr", addr}, none, io.Discard)
		if err == nil || !strings.Contains(err.Error(), "from 0 to 65535") {
			t.Errorf("--addr %s: %v, want the port's range named", addr, err)
		}
	}
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, args := range [][]string{
		{"--addr", taken.Addr().String()},
		{"proxy", "--upstream", "http://127.0.0.1:1", "--addr", taken.Addr().String()},
	} {
		err := run(ctx, args, none, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), "--addr "+taken.Addr().String()) || !strings.Contains(err.Error(), "the address is in use") || strings.Contains(err.Error(), "bind:") {
			t.Errorf("%v on a taken port: %v, want the flag named and why in our words", args, err)
		}
	}
}

// An --admin-token given empty ("$ADMIN" unset in a CI line) is refused: the controls would be
// open with no sign of it.
func TestEmptyAdminTokenRefused(t *testing.T) {
	none := noEnv
	if _, err := parseFlags([]string{"--admin-token", ""}, none, io.Discard); err == nil || !strings.Contains(err.Error(), "--admin-token: empty") {
		t.Errorf("--admin-token '': %v, want a refusal", err)
	}
	if _, err := parseFlags(nil, none, io.Discard); err != nil {
		t.Errorf("no --admin-token: %v, want the controls open", err)
	}
}

// A scenario whose records pass --max-state-mb is a flag value the mock cannot start with: exit
// 2, as every other (it exited 1, read as the mock failing).
func TestScenarioPastTheStateLimitExitsTwo(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := run(ctx, []string{"--scenario", "busy", "--max-state-mb", "1", "--addr", "127.0.0.1:0"}, noEnv, io.Discard, io.Discard)
	var exit *exitError
	if !errors.As(err, &exit) || exit.code != 2 || !strings.Contains(err.Error(), "--max-state-mb") {
		t.Errorf("--scenario busy --max-state-mb 1: %v, want exit 2 naming --max-state-mb", err)
	}
}
