package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// help, --help, --version and unknown words answer at once and never start a server.
func TestTheCommandExplainsItself(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		code     int // 0: run returns nil
		out, err string
	}{
		{name: "help lists subcommands, flags, env vars and an example", args: []string{"help"}, out: "MOCK_SCENARIO"},
		{name: "--help exits 0", args: []string{"--help"}, out: "serve"},
		{name: "serve --help exits 0", args: []string{"serve", "-h"}, out: "fixtures"},
		{name: "--version", args: []string{"--version"}, out: "mockserver "},
		{name: "an unknown word exits 2 with the usage", args: []string{"srve"}, code: 2, err: `unknown subcommand "srve"`},
		{name: "an unknown flag exits 2", args: []string{"--bogus"}, code: 2, err: "mockserver: unknown flag --bogus"},
		{name: "a bad boolean exits 2, in the command's words", args: []string{"--lenient-content-type=maybe"}, code: 2, err: `mockserver: --lenient-content-type: want true or false (or 1 or 0), got "maybe"`},
		{name: "proxy: a bad boolean exits 2, in the command's words", args: []string{"proxy", "--upstream", "http://127.0.0.1:47040", "--fail-on-violation=yes"}, code: 2, err: `mockserver: --fail-on-violation: want true or false (or 1 or 0), got "yes"`},
		{name: "a stray argument exits 2", args: []string{"serve", "extra"}, code: 2, err: "unexpected argument"},
		{name: "proxy: an unknown flag exits 2 with the usage", args: []string{"proxy", "--bogus"}, code: 2, err: "-upstream"},
		{name: "proxy: a stray word exits 2 with the usage", args: []string{"proxy", "bogusword", "--upstream", "http://127.0.0.1:47040"}, code: 2, err: `unexpected argument "bogusword"`},
		{name: "proxy --help exits 0", args: []string{"proxy", "--help"}, out: "-upstream"},
		{name: "help proxy prints the proxy's help", args: []string{"help", "proxy"}, out: "-upstream"},
		{name: "help on an unknown subcommand exits 2", args: []string{"help", "prxy"}, code: 2, err: `unknown subcommand "prxy"`},
		{name: "help with more than one subcommand exits 2", args: []string{"help", "proxy", "extra"}, code: 2, err: "help takes one subcommand"},
		{name: "help help prints the usage", args: []string{"help", "help"}, out: "Usage:"},
		{name: "an unknown scenario is a flag error", args: []string{"--scenario", "nope"}, code: 2, err: ""},
		{name: "a bad value exits 2", args: []string{"--rate-limit", "abc"}, code: 2, err: ""},
		{name: "a rate limit a JavaScript client reads inexactly exits 2", args: []string{"--rate-limit", "9007199254740992"}, code: 2, err: ""},
		{name: "an admin token no header carries exits 2", args: []string{"--admin-token", strings.Repeat("a", 5000)}, code: 2, err: ""},
		{name: "proxy: a bad value exits 2", args: []string{"proxy", "--upstream", "ftp://x"}, code: 2, err: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			var out, errw bytes.Buffer
			err := run(ctx, append(tt.args, "--addr", "127.0.0.1:1"), noEnv, &out, &errw)
			var exit *exitError
			switch {
			case tt.code == 0 && err != nil:
				t.Fatalf("run: %v", err)
			case tt.code == 2 && (!errors.As(err, &exit) || exit.code != 2):
				t.Fatalf("run: %v, want exit 2", err)
			case tt.code == 1 && (err == nil || errors.As(err, &exit)):
				t.Fatalf("run: %v, want an error", err)
			}
			if !strings.Contains(out.String(), tt.out) || !strings.Contains(errw.String(), tt.err) {
				t.Errorf("stdout %q\nstderr %q\nwant %q / %q", out.String(), errw.String(), tt.out, tt.err)
			}
			if strings.Contains(out.String(), "listening on") {
				t.Error("a server was started")
			}
		})
	}
}

// A known flag given a value it cannot take is refused in one line, as a value refused after
// parsing is (--latency=abc): the usage is for an unknown flag or a stray word.
func TestABadFlagValueIsOneLine(t *testing.T) {
	for _, args := range [][]string{{"--lenient-content-type=maybe"}, {"--latency=abc"}, {"proxy", "--upstream", "http://127.0.0.1:47040", "--fail-on-violation=yes"}} {
		var out, errw bytes.Buffer
		_ = run(context.Background(), append(args, "--addr", "127.0.0.1:1"), noEnv, &out, &errw)
		if lines := strings.Count(strings.TrimSpace(errw.String()), "\n") + 1; lines != 1 || strings.Contains(errw.String(), "Usage:") {
			t.Errorf("%v: stderr is %d lines, want the one message:\n%s", args, lines, errw.String())
		}
	}
}

// The start-up lines show the dashboard and what the default world was built from.
func TestStartupLinesShowWhatWasLoaded(t *testing.T) {
	var out bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	w := &syncBuffer{b: &out}
	go func() {
		done <- run(ctx, []string{"--addr", "127.0.0.1:0", "--scenario", "empty"}, noEnv, w, &bytes.Buffer{})
	}()
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(w.String(), "controls (/__mock/)") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"dashboard: http://127.0.0.1:", "scenario empty", "isolated worlds", "controls (/__mock/): open"} {
		if !strings.Contains(w.String(), want) {
			t.Errorf("start-up lines lack %q:\n%s", want, w.String())
		}
	}
}

// syncBuffer is a buffer written by the command and read by the test.
type syncBuffer struct {
	mu sync.Mutex
	b  *bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// --scenarios loads a directory of scenario files; --scenario may name one of them, and a
// broken file stops the start naming its line.
func TestScenarioFlags(t *testing.T) {
	none := noEnv
	opts, err := parseFlags([]string{"--scenarios", "../../fixtures/scenarios", "--scenario", "launch"}, none, io.Discard)
	if err != nil || opts.worlds.scenario != "launch" || opts.worlds.scenarios["launch"] == nil {
		t.Fatalf("parse: %+v %v", opts.worlds, err)
	}
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("cards:\n  - title: x\n    priority: extreme\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := parseFlags([]string{"--scenario", bad}, none, io.Discard); err == nil || !strings.Contains(err.Error(), "line 3: cards[0]: priority") {
		t.Errorf("a broken scenario file: %v", err)
	}
	if _, err := parseFlags([]string{"--max-worlds", "-1"}, none, io.Discard); err == nil {
		t.Error("--max-worlds -1 accepted")
	}
}

// --seed takes what a JavaScript client reads back exactly from the manifest, and no more.
func TestSeedFlagBounds(t *testing.T) {
	for _, c := range []struct {
		seed string
		ok   bool
	}{{"9007199254740991", true}, {"-9007199254740991", true}, {"9007199254740992", false}, {"9223372036854775807", false}, {"0", false}} {
		_, err := parseFlags([]string{"--seed", c.seed}, noEnv, io.Discard)
		if (err == nil) != c.ok || err != nil && !strings.Contains(err.Error(), "--seed") {
			t.Errorf("--seed %s: %v, want ok %v", c.seed, err, c.ok)
		}
	}
}

// MOCK_STATE_FILE set but empty (a compose file's ${STATE} with the variable missing) is
// refused as --state-file "" is: it started with no state file, and the session was lost at the
// stop. A bad MOCK_SEED is named by its variable, as every other value from the environment.
func TestEmptyStateFileAndSeedFromTheEnvironment(t *testing.T) {
	env := func(k, v string) environ {
		return func(key string) (string, bool) {
			if key == k {
				return v, true
			}
			return "", false
		}
	}
	for _, c := range []struct {
		args []string
		env  environ
		want string
	}{
		{nil, env("MOCK_STATE_FILE", ""), "MOCK_STATE_FILE (--state-file): empty"},
		{[]string{"--state-file", ""}, noEnv, "--state-file: empty"},
		{nil, env("MOCK_SEED", "0"), "MOCK_SEED (--seed): want a seed other than 0"},
		{nil, env("MOCK_SEED", "9007199254740992"), "MOCK_SEED (--seed): want a seed between"},
	} {
		_, err := parseFlags(c.args, c.env, io.Discard)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v with %v: %v, want %q", c.args, c.want, err, c.want)
		}
	}
}

// Every value the environment gave that cannot be used is named by its variable, the range
// errors of MOCK_NOW and MOCK_ADDR too (they named --now and --addr, which nobody passed).
func TestRangeErrorsNameTheVariable(t *testing.T) {
	for _, c := range []struct{ key, value, want string }{
		{"MOCK_NOW", "9999-12-31T23:59:59Z", "MOCK_NOW (--now): want an instant"},
		{"MOCK_ADDR", "127.0.0.1:99999", "MOCK_ADDR (--addr): the port must be a number"},
	} {
		env := func(key string) (string, bool) {
			if key == c.key {
				return c.value, true
			}
			return "", false
		}
		if _, err := parseFlags(nil, env, io.Discard); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s=%s: %v, want %q", c.key, c.value, err, c.want)
		}
	}
}

// A scenario whose dates fall past year 9999 at --now cannot be built: a flag error (exit 2)
// naming the flags, not an internal failure (exit 1).
func TestAScenarioUnbuildableAtNowIsAFlagError(t *testing.T) {
	file := filepath.Join(t.TempDir(), "far.yaml")
	yml := "name: far\nbase: empty\nboards:\n  - ref: b\n    title: B\ngroups:\n  - ref: g\n    board: b\n    title: G\ncards:\n  - ref: c\n    group: g\n    title: C\n    due_date: now+400d\n"
	if err := os.WriteFile(file, []byte(yml), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, sub := range [][]string{{"fixtures"}, {}} {
		var out, errw bytes.Buffer
		err := run(context.Background(), append(sub, "--addr", "127.0.0.1:1", "--now", "9998-12-31T23:59:59Z", "--scenario", file), noEnv, &out, &errw)
		var exit *exitError
		if !errors.As(err, &exit) || exit.code != 2 {
			t.Errorf("%v: run: %v, want exit 2", sub, err)
		}
		if msg := errw.String() + fmt.Sprint(err); !strings.Contains(msg, "--now") || strings.Contains(msg, "new mock server") {
			t.Errorf("%v: the message does not name --now in the command's words: %s", sub, msg)
		}
	}
}

// A health check of an address nothing listens on says so, without the HTTP client's own
// restatement of the request; a scenario folder that does not exist is named as such.
func TestHealthcheckWordsARefusedConnection(t *testing.T) {
	err := run(context.Background(), []string{"healthcheck", "--addr", "127.0.0.1:1"}, noEnv, &bytes.Buffer{}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "nothing listens there (connection refused)") || strings.Contains(err.Error(), "dial tcp") {
		t.Errorf("healthcheck of a closed port: %v", err)
	}
	err = run(context.Background(), []string{"--addr", "127.0.0.1:1", "--scenarios", "/nonexistent-scenarios"}, noEnv, &bytes.Buffer{}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "--scenarios: /nonexistent-scenarios: no such folder") {
		t.Errorf("a scenario folder that does not exist: %v", err)
	}
}
