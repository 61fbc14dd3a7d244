// Package container is a testcontainers-go module for the opsapi mock server: it starts an image
// built by `make image` (FROM scratch, the static cmd/mockserver binary) and waits until the mock
// answers GET /healthz.
//
//	ctr, err := container.Run(ctx, "opsapi-mock:dev", container.WithSeed(7))
//	defer testcontainers.TerminateContainer(ctr) // before checking err
//	if err != nil { ... }
//	base, err := ctr.BaseURL(ctx)
//
// It is the only package of the toolkit that imports testcontainers-go; the mock, the reference
// implementation and the conformance suite's library code must not import it. It lives with the mock it starts.
//
// Two environment facts matter where this runs:
//   - images FROM scratch have no shell, so the wait strategy is HTTP only (never a listening-port
//     check, which execs /bin/sh inside the container);
//   - on a machine with no image registry, the Ryuk reaper cannot be pulled: set
//     TESTCONTAINERS_RYUK_DISABLED=true and terminate containers explicitly.
package container

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/wait"
)

const (
	// Port is the port the mock listens on inside the container.
	Port = "4010/tcp"
	// DefaultImage is the reference `make image` builds.
	DefaultImage = "opsapi-mock:dev"
	// ListenAddr is the address the mock is told to listen on inside the container, in
	// EnvAddr (the image's default too).
	ListenAddr = "0.0.0.0:4010"
	// EnvAddr is the variable the mock (and its proxy subcommand) reads its address from.
	EnvAddr = "MOCK_ADDR"
	// ReadinessPath is the endpoint that answers 200 once the mock serves requests.
	ReadinessPath = "/healthz"
	// StartupTimeout bounds the wait for readiness; the mock serves within a fraction of a
	// second, so a longer wait means it is not going to start.
	StartupTimeout = 30 * time.Second
)

// Container is a running mock server.
type Container struct {
	testcontainers.Container
}

// Run starts the mock server image img and waits until GET /healthz on port 4010 answers 200.
// Options (WithSeed, WithRateLimit, or any testcontainers.ContainerCustomizer) apply after the
// module's defaults. On error it returns the partial container, if one was created, with the
// error, so the caller can register testcontainers.TerminateContainer before checking it.
func Run(ctx context.Context, img string, opts ...testcontainers.ContainerCustomizer) (*Container, error) {
	usePublishedHostDefault()
	moduleOpts := []testcontainers.ContainerCustomizer{
		testcontainers.WithExposedPorts(Port),
		// The address as a variable, as the image sets it, not a flag: the command line is the
		// caller's arguments alone, and a subcommand among them comes first.
		testcontainers.WithEnv(map[string]string{EnvAddr: ListenAddr}),
		testcontainers.WithWaitStrategy(
			wait.ForHTTP(ReadinessPath).
				WithPort(Port).
				WithStatusCodeMatcher(func(status int) bool { return status == 200 }).
				WithStartupTimeout(StartupTimeout),
		),
	}
	moduleOpts = append(moduleOpts, opts...)

	ctr, err := testcontainers.Run(ctx, img, moduleOpts...)
	var c *Container
	if ctr != nil {
		c = &Container{Container: ctr}
	}
	if err != nil {
		return c, fmt.Errorf("run mockserver: %w", err)
	}
	return c, nil
}

// BaseURL returns the URL the mock answers at from the host running the tests, such as
// http://localhost:32768 (no trailing slash).
func (c *Container) BaseURL(ctx context.Context) (string, error) {
	u, err := c.PortEndpoint(ctx, Port, "http")
	if err != nil {
		return "", fmt.Errorf("mockserver base url: %w", err)
	}
	return u, nil
}

// WithSeed selects the seeded world (the mock's --seed flag). Seed 0 is the mock's default.
func WithSeed(seed int64) testcontainers.CustomizeRequestOption {
	if seed == 0 {
		// The default is the flag left out: the mock refuses --seed 0, and the container exited 2.
		return func(*testcontainers.GenericContainerRequest) error { return nil }
	}
	return testcontainers.WithCmdArgs("--seed", strconv.FormatInt(seed, 10))
}

// WithRateLimit sets the number of requests per minute per caller (the mock's --rate-limit flag).
func WithRateLimit(perMinute int) testcontainers.CustomizeRequestOption {
	return testcontainers.WithCmdArgs("--rate-limit", strconv.Itoa(perMinute))
}
