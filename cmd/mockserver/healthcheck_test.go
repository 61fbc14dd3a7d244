package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `mockserver healthcheck` is the image's HEALTHCHECK (FROM scratch: no shell, no curl): exit 0
// when the mock at --addr answers GET /healthz, an error naming the address when nothing does,
// and an address on every interface (MOCK_ADDR=0.0.0.0:4010 in the image) asked on loopback.
func TestHealthcheck(t *testing.T) {
	url, stop := startMock(t)
	defer func() { _ = stop() }()
	addr := strings.TrimPrefix(url, "http://")
	var out bytes.Buffer
	if err := run(context.Background(), []string{"healthcheck", "--addr", addr}, noEnv, &out, io.Discard); err != nil || !strings.Contains(out.String(), "healthy") {
		t.Errorf("healthcheck of a running mock: %v %q", err, out.String())
	}
	_, port, _ := net.SplitHostPort(addr)
	everywhere := func(key string) (string, bool) { return "0.0.0.0:" + port, key == "MOCK_ADDR" }
	if err := run(context.Background(), []string{"healthcheck"}, everywhere, io.Discard, io.Discard); err != nil {
		t.Errorf("healthcheck of MOCK_ADDR=0.0.0.0:%s: %v", port, err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	if err := run(context.Background(), []string{"healthcheck", "--addr", closed}, noEnv, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), closed) {
		t.Errorf("healthcheck with nothing listening: %v, want an error naming %s", err, closed)
	}
	// A value the command cannot use exits 2, in serve's words (1 is "unhealthy" to a
	// container runtime); an unknown flag too, in the command's words, not Go's.
	for _, bad := range [][]string{{"--addr", "nohost"}, {"--addr", "127.0.0.1:99999"}, {"--bogus"}} {
		var stderr bytes.Buffer
		err := run(context.Background(), append([]string{"healthcheck"}, bad...), noEnv, io.Discard, &stderr)
		var exit *exitError
		if !errors.As(err, &exit) || exit.code != 2 || !strings.Contains(err.Error()+stderr.String(), "--") || strings.Contains(stderr.String(), "provided but not defined") {
			t.Errorf("healthcheck %v: %v, %q; want exit 2 in the command's words", bad, err, stderr.String())
		}
	}
	var help bytes.Buffer
	if err := run(context.Background(), []string{"help", "healthcheck"}, noEnv, &help, io.Discard); err != nil || !strings.Contains(help.String(), "mockserver healthcheck") {
		t.Errorf("help healthcheck: %v %q", err, help.String())
	}
	// A stray word is a usage error (exit 2), as for every subcommand: it exited 0.
	var stderr bytes.Buffer
	err = run(context.Background(), []string{"healthcheck", "--addr", addr, "extra"}, noEnv, io.Discard, &stderr)
	var exit *exitError
	if !errors.As(err, &exit) || exit.code != 2 || !strings.Contains(stderr.String(), `"extra"`) {
		t.Errorf("healthcheck with a stray argument: %v, %q; want exit 2 naming it", err, stderr.String())
	}
}

// In the image the mock is the container's first process: an --addr on its command line
// (docker run image --addr 0.0.0.0:5000, or proxy … --addr) is where the health check asks,
// not MOCK_ADDR's 4010, which left the container unhealthy for good.
func TestHealthcheckFollowsTheContainersAddr(t *testing.T) {
	url, stop := startMock(t)
	defer func() { _ = stop() }()
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(url, "http://"))
	imageEnv := func(key string) (string, bool) { return "0.0.0.0:4010", key == "MOCK_ADDR" }
	for _, cmdline := range []string{
		"/mockserver\x00--addr\x000.0.0.0:" + port + "\x00",
		"/mockserver\x00proxy\x00--upstream\x00http://mock:4010\x00-addr=0.0.0.0:" + port + "\x00",
	} {
		f := filepath.Join(t.TempDir(), "cmdline")
		if err := os.WriteFile(f, []byte(cmdline), 0o644); err != nil {
			t.Fatal(err)
		}
		old := containerCmdline
		containerCmdline = f
		err := run(context.Background(), []string{"healthcheck"}, imageEnv, io.Discard, io.Discard)
		containerCmdline = old
		if err != nil {
			t.Errorf("healthcheck in a container started as %q: %v", strings.ReplaceAll(cmdline, "\x00", " "), err)
		}
	}
}
