package container

import (
	"context"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/testcontainers/testcontainers-go"
)

// Available reports nil when a Docker engine answers, else an error that says why not. Tests
// skip on that error (with its text as the reason) instead of passing silently.
func Available(ctx context.Context) (err error) {
	usePublishedHostDefault()
	defer func() {
		// testcontainers panics in a few discovery paths when no engine is configured.
		if r := recover(); r != nil {
			err = fmt.Errorf("docker engine: %v", r)
		}
	}()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	p, err := testcontainers.ProviderDefault.GetProvider()
	if err != nil {
		return fmt.Errorf("docker engine: %w", err)
	}
	defer func() { _ = p.Close() }()
	if err := p.Health(ctx); err != nil {
		return fmt.Errorf("docker engine: %w", err)
	}
	return nil
}

// EnvHostOverride is the testcontainers-go variable naming the host that published container
// ports are reached at.
const EnvHostOverride = "TESTCONTAINERS_HOST_OVERRIDE"

var publishedHostOnce sync.Once

// usePublishedHostDefault sets TESTCONTAINERS_HOST_OVERRIDE=localhost when it is unset and this
// process runs inside a container (/.dockerenv) whose network namespace also holds the engine:
// the engine testcontainers-go resolved is a local unix socket and its docker0 bridge is here.
// There testcontainers-go would otherwise take the default route's gateway as the host, where
// nothing is published, and every wait would time out after a minute. Elsewhere it changes
// nothing.
func usePublishedHostDefault() {
	publishedHostOnce.Do(func() {
		if _, set := os.LookupEnv(EnvHostOverride); set {
			return
		}
		if _, err := os.Stat("/.dockerenv"); err != nil {
			return
		}
		if _, err := net.InterfaceByName("docker0"); err != nil {
			return
		}
		if !localSocket() {
			return
		}
		_ = os.Setenv(EnvHostOverride, "localhost")
	})
}

// localSocket reports whether the engine testcontainers-go resolved (DOCKER_HOST, its
// properties file, the docker context or the default socket, in its order) is a unix socket.
func localSocket() (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	p, err := testcontainers.NewDockerProvider()
	if err != nil {
		return false
	}
	defer func() { _ = p.Close() }()
	return strings.HasPrefix(p.Client().DaemonHost(), "unix://")
}
