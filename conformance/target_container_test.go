package conformance_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/testcontainers/testcontainers-go"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/mockserver/container"
)

// The suite's third target: CONFORMANCE_IMAGE=<image> starts that image once for the whole run
// with the testcontainers-go module in mockserver/container. The hook is wired here, in a test
// file, so the conformance package itself never depends on Docker; the compiled suite
// (go test -c) includes it.
func init() {
	conformance.SetContainerStarter(startContainerTarget)
}

// startContainerTarget starts image and returns its base URL and a stop function that
// terminates the container; stop is returned with the error when a container was created, so
// the caller can remove it either way.
func startContainerTarget(ctx context.Context, image string) (baseURL string, stop func(), err error) {
	// No registry here: the reaper image cannot be pulled, so the container is terminated by stop.
	if _, set := os.LookupEnv("TESTCONTAINERS_RYUK_DISABLED"); !set {
		_ = os.Setenv("TESTCONTAINERS_RYUK_DISABLED", "true")
	}
	if err := container.Available(ctx); err != nil {
		return "", nil, fmt.Errorf("start container %s: %w", image, err)
	}
	ctr, err := container.Run(ctx, image, imageArgs())
	stop = func() {
		if err := testcontainers.TerminateContainer(ctr); err != nil {
			fmt.Fprintf(os.Stderr, "conformance: stop container %s: %v\n", image, err)
		}
	}
	if err != nil {
		return "", stop, fmt.Errorf("start container %s: %w", image, err)
	}
	baseURL, err = ctr.BaseURL(ctx)
	if err != nil {
		return "", stop, fmt.Errorf("start container %s: %w", image, err)
	}
	return baseURL, stop, nil
}

// imageArgs appends the flags of CONFORMANCE_IMAGE_ARGS to the mock's command.
func imageArgs() testcontainers.CustomizeRequestOption {
	return testcontainers.WithCmdArgs(strings.Fields(os.Getenv(conformance.EnvImageArgs))...)
}
