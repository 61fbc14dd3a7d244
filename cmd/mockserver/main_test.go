package main

import (
	"bufio"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// asCommand is set in the environment of the test binary run as the mockserver command itself
// (startProcess): a test then has a mock in a process of its own, scheduled apart from it.
const asCommand = "MOCKSERVER_TEST_AS_COMMAND"

func TestMain(m *testing.M) {
	if os.Getenv(asCommand) == "1" {
		os.Args = append([]string{"mockserver"}, strings.Fields(os.Getenv(asCommand+"_ARGS"))...)
		main()
		return
	}
	os.Exit(m.Run())
}

// startProcess runs the command with args in a process of its own (the test binary as
// mockserver) and returns the base URL it listens on; the process is killed at cleanup.
func startProcess(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), asCommand+"=1", asCommand+"_ARGS="+strings.Join(append([]string{"--addr", "127.0.0.1:0"}, args...), " "))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := bufio.NewScanner(out)
	if !lines.Scan() {
		t.Fatal("the command printed nothing")
	}
	_, url, ok := strings.Cut(lines.Text(), "listening on ")
	if !ok {
		t.Fatalf("first line %q names no address", lines.Text())
	}
	url, _, _ = strings.Cut(url, " ")
	go func() {
		for lines.Scan() {
		}
	}()
	return url
}
