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

// A lock that no longer guards the state file at the stop (its lock file removed, so a second
// mock could start on the file; or the path, a symlink, pointed at another file) is not saved
// over: the world goes beside it, and the stop says where. Both mocks saved over one file, and
// a write one of them acknowledged was lost; the first also removed the second's live lock.
func TestAStateFileNoLongerLockedIsNotSavedOver(t *testing.T) {
	t.Run("the lock removed", func(t *testing.T) {
		dir := t.TempDir()
		file := filepath.Join(dir, "w.json")
		_, stopA := startMock(t, "--state-file", file)
		if err := os.Remove(file + ".lock"); err != nil {
			t.Fatal(err)
		}
		_, stopB := startMock(t, "--state-file", file)
		errA := stopA()
		if errA == nil || !strings.Contains(errA.Error(), "was removed or replaced") || !strings.Contains(errA.Error(), "saved to") {
			t.Errorf("the first mock's stop: %v, want its world saved aside, saying why", errA)
		}
		if _, err := os.Stat(file + ".lock"); err != nil {
			t.Errorf("the first mock's stop removed the second's live lock: %v", err)
		}
		if err := stopB(); err != nil {
			t.Fatal(err)
		}
		aside, _ := filepath.Glob(filepath.Join(dir, "w.unsaved-*.json"))
		if len(aside) != 1 {
			t.Errorf("%d worlds saved aside, want the first mock's", len(aside))
		}
	})
	t.Run("the symlink pointed elsewhere", func(t *testing.T) {
		dir := t.TempDir()
		for _, d := range []string{"real", "other"} {
			if err := os.Mkdir(filepath.Join(dir, d), 0o700); err != nil {
				t.Fatal(err)
			}
		}
		link := filepath.Join(dir, "l.json")
		if err := os.Symlink("real/w.json", link); err != nil {
			t.Fatal(err)
		}
		_, stop := startMock(t, "--state-file", link)
		if err := os.Remove(link); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("other/w.json", link); err != nil {
			t.Fatal(err)
		}
		if err := stop(); err == nil || !strings.Contains(err.Error(), "not the file") {
			t.Errorf("the stop after the link moved: %v, want the world saved aside, saying why", err)
		}
		if _, err := os.Stat(filepath.Join(dir, "other", "w.json")); err == nil {
			t.Error("the world was saved into the file the link names now")
		}
	})
}
