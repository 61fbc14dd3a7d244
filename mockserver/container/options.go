package container

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/testcontainers/testcontainers-go"

	"github.com/opsapi/mocktoolkit/mockclient"
)

// Options matching the mock's flags (mockserver --help). Each appends to the command line.

// WithAdminToken requires token in X-Mock-Admin-Token on every /__mock/ endpoint
// (--admin-token); give the same token to Client with mockclient.WithAdminToken.
func WithAdminToken(token string) testcontainers.CustomizeRequestOption {
	return testcontainers.WithCmdArgs("--admin-token", token)
}

// WithLatency delays every operation: "250ms" or a range such as "100ms-400ms" (--latency).
func WithLatency(latency string) testcontainers.CustomizeRequestOption {
	return testcontainers.WithCmdArgs("--latency", latency)
}

// WithScenario starts every world from a shipped scenario: default, empty, busy or edge
// (--scenario).
func WithScenario(name string) testcontainers.CustomizeRequestOption {
	return testcontainers.WithCmdArgs("--scenario", name)
}

// WithScenarioFile copies a scenario file (YAML or JSON) from the host into the container and
// starts every world from it (--scenario FILE).
func WithScenarioFile(hostPath string) testcontainers.CustomizeRequestOption {
	inside := path.Join("/scenarios", filepath.Base(hostPath))
	return func(req *testcontainers.GenericContainerRequest) error {
		if err := testcontainers.WithFiles(testcontainers.ContainerFile{HostFilePath: hostPath, ContainerFilePath: inside, FileMode: 0o644})(req); err != nil {
			return err
		}
		return testcontainers.WithCmdArgs("--scenario", inside)(req)
	}
}

// WithNow starts the mock's clock at t (--now).
func WithNow(t time.Time) testcontainers.CustomizeRequestOption {
	return testcontainers.WithCmdArgs("--now", t.UTC().Format(time.RFC3339))
}

// WithMaxWorlds bounds the named worlds the mock keeps; 0 turns them off (--max-worlds).
func WithMaxWorlds(n int) testcontainers.CustomizeRequestOption {
	return testcontainers.WithCmdArgs("--max-worlds", strconv.Itoa(n))
}

// WithMaxRecords caps the cards, comments and tags of a project (--max-records).
func WithMaxRecords(n int) testcontainers.CustomizeRequestOption {
	return testcontainers.WithCmdArgs("--max-records", strconv.Itoa(n))
}

// WithMaxStateMB bounds, in MiB, what the records of every world hold together
// (--max-state-mb).
func WithMaxStateMB(n int) testcontainers.CustomizeRequestOption {
	return testcontainers.WithCmdArgs("--max-state-mb", strconv.Itoa(n))
}

// WithCORSOrigins lists the origins browsers may call from; listed origins may also call the
// mock's own endpoints and send credentials (--cors-origins).
func WithCORSOrigins(origins ...string) testcontainers.CustomizeRequestOption {
	return testcontainers.WithCmdArgs("--cors-origins", strings.Join(origins, ","))
}

// WithAllowedHosts lists host names, besides localhost and IP addresses, the mock's own
// endpoints answer (--allowed-hosts); needed when tests reach the container by a DNS name.
func WithAllowedHosts(hosts ...string) testcontainers.CustomizeRequestOption {
	return testcontainers.WithCmdArgs("--allowed-hosts", strings.Join(hosts, ","))
}

// Client returns a mockclient.Client of the running mock (its default world; use World for
// another).
func (c *Container) Client(ctx context.Context, opts ...mockclient.Option) (*mockclient.Client, error) {
	base, err := c.BaseURL(ctx)
	if err != nil {
		return nil, fmt.Errorf("mockserver client: %w", err)
	}
	return mockclient.New(base, opts...), nil
}
