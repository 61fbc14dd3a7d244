// Package fulltest gates the slow tests of the full loop — the container tests and the whole
// conformance self-test — so that `go test ./...` stays a quick loop. `make test` (and so CI)
// sets OPSAPI_FULL_TESTS=1 and runs everything.
package fulltest

import (
	"os"
	"path/filepath"
	"testing"
)

// Env is the variable that turns the full loop on.
const Env = "OPSAPI_FULL_TESTS"

// Enabled reports whether the full loop is on.
func Enabled() bool { return os.Getenv(Env) != "" }

// Require skips t unless the full loop is on, naming the commands that run it.
func Require(t testing.TB, what string) {
	t.Helper()
	if !Enabled() {
		t.Skipf("%s runs in the full loop only: make test, or %s=1 go test %s", what, Env, packageDir())
	}
}

// packageDir is the test's package directory relative to the module root ("./mockserver/container").
func packageDir() string {
	wd, err := os.Getwd()
	if err != nil {
		return "./..."
	}
	for root := wd; root != filepath.Dir(root); root = filepath.Dir(root) {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			rel, _ := filepath.Rel(root, wd)
			return "./" + filepath.ToSlash(rel)
		}
	}
	return "./..."
}
