package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A second mock started on a --state-file a running mock uses is refused at start: each saved
// over the other's session at its stop, and a write one of them acknowledged was lost. Once
// the first stops, the file is free again, and the lock leaves nothing beside it.
func TestASecondMockOnTheSameStateFileIsRefused(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "world.json")
	_, stop := startMock(t, "--state-file", file)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second) // a second mock let start serves until then
	defer cancel()
	err := run(ctx, []string{"--addr", "127.0.0.1:0", "--state-file", file}, noEnv, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "another mock") || !strings.Contains(err.Error(), file) {
		t.Errorf("a second mock on the same state file: %v, want a refusal naming the file and the other mock", err)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	_, stop = startMock(t, "--state-file", file)
	if err := stop(); err != nil {
		t.Errorf("a mock on the file once the first stopped: %v", err)
	}
	left, _ := os.ReadDir(dir)
	for _, e := range left {
		if e.Name() != "world.json" {
			t.Errorf("%s left beside the state file", e.Name())
		}
	}
}
