package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runProxyArgs runs `mockserver proxy` with args and returns its error, failing when it starts
// (a refused path must stop it before it listens).
func runProxyArgs(t *testing.T, args ...string) error {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, append([]string{"proxy", "--addr", "127.0.0.1:0", "--upstream", "http://127.0.0.1:1"}, args...), noEnv, io.Discard, io.Discard)
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(3 * time.Second):
		cancel()
		<-done
		t.Fatalf("proxy %v started; want it refused at start", args)
		return nil
	}
}

// A --record-scenario the stop could not write is refused at start, naming the path (D195).
func TestRecordScenarioPathCheckedAtStart(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "dangling.yaml")
	if err := os.Symlink("/nonexistent/dir/x.yaml", dangling); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{dangling, "/nonexistent/dir"},
		{dir, "not a regular file"},
		{fifo, "not a regular file"},
		{"/nonexistent/x.yaml", "/nonexistent"},
		{filepath.Join(file, "x.yaml"), "not a directory"},
	} {
		err := runProxyArgs(t, "--record-scenario", tc.path)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "--record-scenario") {
			t.Errorf("--record-scenario %s: %v, want a refusal saying %q", tc.path, err, tc.want)
		}
	}
}

// A report written to the recording's file is refused at start (D195).
func TestRecordScenarioAndReportSameFileRefused(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, flag := range []string{"--report-json", "--report-junit"} {
		err := runProxyArgs(t, "--record-scenario", "same.out", flag, filepath.Join(dir, ".", "same.out"))
		if err == nil || !strings.Contains(err.Error(), "same file") {
			t.Errorf("--record-scenario same.out %s same.out: %v, want a refusal", flag, err)
		}
	}
}

// A symbolic link to the report's file is the same file, whether the file exists yet or not.
func TestRecordScenarioThroughALinkToTheReportRefused(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(dir, "report.json"), filepath.Join(dir, "link.json")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	err := runProxyArgs(t, "--record-scenario", filepath.Join(dir, "link.json"), "--report-json", filepath.Join(dir, "report.json"))
	if err == nil || !strings.Contains(err.Error(), "same file") {
		t.Fatalf("a recording through a link to the report: %v, want a refusal", err)
	}
}

// Two names of one file (a hard link) are the same file: the JSON report written through one
// was overwritten by the JUnit report written through the other.
func TestReportsThroughAHardLinkRefused(t *testing.T) {
	dir := t.TempDir()
	json, xml := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.xml")
	if err := os.WriteFile(json, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(json, xml); err != nil {
		t.Skip("no hard links here:", err)
	}
	err := runProxyArgs(t, "--report-json", json, "--report-junit", xml)
	if err == nil || !strings.Contains(err.Error(), "same file") {
		t.Fatalf("reports through two names of one file: %v, want a refusal", err)
	}
}
