package container_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/internal/fulltest"
	"github.com/opsapi/mocktoolkit/mockserver/container"
)

const (
	// EnvMockImage names an already built mock image to test instead of building DefaultImage.
	EnvMockImage = "MOCK_IMAGE"
	// EnvRequireDocker, when set (CI with a Docker engine), turns the skip for a missing engine
	// into a failure, so a broken engine cannot pass as a skipped test.
	EnvRequireDocker = "REQUIRE_DOCKER"
)

func TestMain(m *testing.M) {
	// No registry here: the reaper image cannot be pulled. Every test terminates its container.
	if _, set := os.LookupEnv("TESTCONTAINERS_RYUK_DISABLED"); !set {
		_ = os.Setenv("TESTCONTAINERS_RYUK_DISABLED", "true")
	}
	os.Exit(m.Run())
}

var (
	imageOnce sync.Once
	imageRef  string
	imageErr  error
)

// mockImage returns the image to test, skipping the test outside the full loop (fulltest) and when no Docker engine answers (failing
// instead when REQUIRE_DOCKER is set). Unless MOCK_IMAGE names one, it builds DefaultImage once
// per run with `make image` at the module root, so `go test ./...` tests the current code from a
// fresh clone.
func mockImage(t *testing.T) string {
	t.Helper()
	fulltest.Require(t, "this container test")
	if err := container.Available(context.Background()); err != nil {
		if os.Getenv(EnvRequireDocker) != "" {
			t.Fatalf("%s is set but no Docker engine is reachable: %v", EnvRequireDocker, err)
		}
		t.Skipf("skipped: no Docker engine is reachable, so the mock image cannot be started: %v", err)
	}
	imageOnce.Do(func() { imageRef, imageErr = buildImage() })
	if imageErr != nil {
		t.Fatalf("build the mock image: %v", imageErr)
	}
	return imageRef
}

func buildImage() (string, error) {
	if img := os.Getenv(EnvMockImage); img != "" {
		return img, nil
	}
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "make", "--no-print-directory", "-s", "image", "MOCK_IMAGE="+container.DefaultImage)
	cmd.Dir = root
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", &buildError{err: err, output: stdout.String() + stderr.String()}
	}
	lines := strings.Fields(stdout.String())
	if len(lines) == 0 {
		return "", &buildError{err: os.ErrNotExist, output: stderr.String()}
	}
	return lines[len(lines)-1], nil
}

type buildError struct {
	err    error
	output string
}

func (e *buildError) Error() string { return "make image: " + e.err.Error() + "\n" + e.output }

// moduleRoot is the directory of go.mod, found with `go env GOMOD`.
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", err
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", os.ErrNotExist
	}
	return filepath.Dir(gomod), nil
}
