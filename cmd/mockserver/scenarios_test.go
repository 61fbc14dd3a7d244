package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A directory of scenario files with several broken ones, and a FIFO named like a scenario,
// stops the start at once naming every problem of every file; nothing of it loads (D145).
func TestScenarioDirReportsEveryProblem(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"good.yaml":  "name: good\n",
		"one.yaml":   "cards:\n  - title: [a]\n",
		"two.yaml":   "tags:\n  - name: t\n    position: \"7\"\n",
		"three.json": `{"name": "three", "name": "again"}`,
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.yaml"), 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := parseFlags([]string{"--scenarios", dir}, func(string) string { return "" }, io.Discard)
		done <- err
	}()
	var err error
	select {
	case err = <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the start hangs on a FIFO named like a scenario")
	}
	if err == nil {
		t.Fatal("a directory with broken scenario files loaded")
	}
	for _, want := range []string{"one.yaml: line 2: cards[0]: title", "two.yaml: line 3: tags[0]: position", "three.json: line 1: name is given twice", "pipe.yaml: not a regular file"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q\nwant it to hold %q", err, want)
		}
	}
}
