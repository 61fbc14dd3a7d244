package repotest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// readmeBlock returns the first fenced block of kind (sh, go) after heading in the README.
func readmeBlock(t *testing.T, heading, kind string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("README has no heading %q", heading)
	}
	_, rest, ok := strings.Cut(section, "```"+kind+"\n")
	if !ok {
		t.Fatalf("README's %q has no %s block", heading, kind)
	}
	block, _, _ := strings.Cut(rest, "```")
	return block
}

// A user's own module gets mockclient the way the README says: its shell block runs as written
// in a fresh module (TOOLKIT naming this clone; go mod tidy fetches what the module cache lacks
// from the Go module proxy, as a user's would: the test-only modules of the dependencies are not
// in a fresh machine's cache), and a program using the README's first call builds and runs.
func TestReadmeGoClientInstall(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	dir := t.TempDir()
	run := func(name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "TOOLKIT="+root(t), "GOFLAGS=-mod=mod", "GOWORK=off")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
		return string(out)
	}
	run(goCmd, "mod", "init", "example.com/app")
	first, _, _ := strings.Cut(strings.TrimSpace(readmeBlock(t, "### The Go client", "go")), "\n")
	main := "package main\n\nimport (\n\t\"fmt\"\n\n\t\"github.com/opsapi/mocktoolkit/mockclient\"\n)\n\nfunc main() {\n\t" + first + "\n\tfmt.Println(c.BaseURL())\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	run("bash", "-euc", readmeBlock(t, "### The Go client", "shell"))
	if out := run(goCmd, "run", "."); !strings.Contains(out, "/__worlds/worker-1") {
		t.Errorf("the program printed %q, want the world's base URL", out)
	}
}

// The Go version the README asks for is go.mod's.
func TestReadmeGoVersionIsGoMods(t *testing.T) {
	mod, err := os.ReadFile(filepath.Join(root(t), "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	var version string
	for _, line := range strings.Split(string(mod), "\n") {
		if v, ok := strings.CutPrefix(line, "go "); ok {
			version = strings.TrimSpace(v)
		}
	}
	readme, _ := os.ReadFile(filepath.Join(root(t), "README.md"))
	if version == "" || !strings.Contains(string(readme), "Requirements: Go "+version+" ") {
		t.Errorf("go.mod asks for go %s; the README's requirements do not say Go %s", version, version)
	}
}
