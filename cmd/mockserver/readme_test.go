package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// readmeShellBlocks are the ```sh blocks of the README's section "Steering the mock".
func readmeShellBlocks(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	start := strings.Index(text, "## Steering the mock")
	if start < 0 {
		t.Fatal("README has no section Steering the mock")
	}
	section := text[start:]
	if end := strings.Index(section[3:], "\n## "); end >= 0 {
		section = section[:end+3]
	}
	var blocks []string
	for {
		_, rest, ok := strings.Cut(section, "```sh\n")
		if !ok {
			return blocks
		}
		block, after, _ := strings.Cut(rest, "```")
		blocks = append(blocks, block)
		section = after
	}
}

// The README's shell examples of "Steering the mock" run as written against a started mock,
// with M set to it: every command exits 0 (the examples check themselves with jq -e).
func TestReadmeSteeringExamplesRun(t *testing.T) {
	for _, tool := range []string{"bash", "curl", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("skipped: the README's examples need %s, which is not installed", tool)
		}
	}
	blocks := readmeShellBlocks(t)
	if len(blocks) < 3 {
		t.Fatalf("found %d sh blocks in Steering the mock, want at least 3", len(blocks))
	}
	url, stop := startMock(t)
	defer func() {
		if err := stop(); err != nil {
			t.Errorf("stop: %v", err)
		}
	}()
	dir := t.TempDir()
	for i, block := range blocks {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cmd := exec.CommandContext(ctx, "bash", "-euo", "pipefail", "-c", block)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "M="+url)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		cancel()
		if err != nil {
			t.Errorf("block %d failed: %v\n--- block\n%s\n--- output\n%s", i+1, err, block, out.String())
		}
	}
}
