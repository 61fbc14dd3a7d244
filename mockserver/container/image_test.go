package container_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/wait"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/mockserver/container"
)

// runImage runs the mock image as `docker run img args…` would, with opts, and terminates it
// when the test ends, whatever happened.
func runImage(t *testing.T, opts ...testcontainers.ContainerCustomizer) testcontainers.Container {
	t.Helper()
	img := mockImage(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ctr, err := testcontainers.Run(ctx, img, opts...)
	t.Cleanup(func() {
		if err := testcontainers.TerminateContainer(ctr); err != nil {
			t.Errorf("terminate: %v", err)
		}
	})
	if err != nil {
		t.Fatalf("run %s: %v", img, err)
	}
	return ctr
}

// exited runs the image with args to its end and returns its exit code and output.
func exited(t *testing.T, args ...string) (int, string) {
	t.Helper()
	ctr := runImage(t, testcontainers.WithCmd(args...), testcontainers.WithWaitStrategy(wait.ForExit().WithExitTimeout(time.Minute)))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st, err := ctr.State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	logs, err := ctr.Logs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = logs.Close() }()
	out, err := io.ReadAll(logs)
	if err != nil {
		t.Fatal(err)
	}
	return st.ExitCode, string(out)
}

// The image's command line is the mock's: a subcommand after the image name runs (with a flag
// in ENTRYPOINT, every one of them exited 2 "unexpected argument").
func TestImageRunsSubcommands(t *testing.T) {
	t.Parallel()
	t.Run("fixtures prints the manifest of the seed asked for", func(t *testing.T) {
		t.Parallel()
		code, out := exited(t, "fixtures", "--seed", "7")
		var m fixtures.Manifest
		if i := strings.IndexByte(out, '{'); code != 0 || i < 0 || json.NewDecoder(strings.NewReader(out[i:])).Decode(&m) != nil || m.Seed != 7 {
			t.Errorf("fixtures --seed 7: exit %d, seed %d, output:\n%s", code, m.Seed, out)
		}
	})
	t.Run("help prints the usage", func(t *testing.T) {
		t.Parallel()
		if code, out := exited(t, "help"); code != 0 || !strings.Contains(out, "mockserver proxy") {
			t.Errorf("help: exit %d, output:\n%s", code, out)
		}
	})
	t.Run("proxy serves on the image's address", func(t *testing.T) {
		t.Parallel()
		ctr := runImage(t, testcontainers.WithExposedPorts(container.Port),
			testcontainers.WithCmd("proxy", "--upstream", "http://upstream.invalid"),
			testcontainers.WithWaitStrategy(wait.ForHTTP("/__proxy/").WithPort(container.Port).WithStartupTimeout(container.StartupTimeout)))
		base, err := ctr.PortEndpoint(context.Background(), container.Port, "http")
		if err != nil {
			t.Fatal(err)
		}
		if a := do(t, http.MethodGet, base+"/__proxy/exchanges", nil); a.status != http.StatusOK {
			t.Errorf("GET /__proxy/exchanges: %d %s", a.status, a.body)
		}
	})
}

// MOCK_ADDR given to the container is the address the mock listens on (the image's own
// default, 0.0.0.0:4010, is only a default: a flag in ENTRYPOINT beat it silently).
func TestImageHonoursMockAddr(t *testing.T) {
	t.Parallel()
	const port = "5000/tcp"
	ctr := runImage(t, testcontainers.WithExposedPorts(port, container.Port),
		testcontainers.WithEnv(map[string]string{container.EnvAddr: "0.0.0.0:5000"}),
		testcontainers.WithWaitStrategy(wait.ForHTTP(container.ReadinessPath).WithPort(port).WithStartupTimeout(container.StartupTimeout)))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	base, err := ctr.PortEndpoint(ctx, port, "http")
	if err != nil {
		t.Fatal(err)
	}
	if m := manifest(t, base); m.Seed == 0 {
		t.Errorf("no manifest on port 5000: %+v", m)
	}
	other, err := ctr.PortEndpoint(ctx, container.Port, "http")
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, other+container.ReadinessPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res, err := http.DefaultClient.Do(req); err == nil {
		_ = res.Body.Close()
		t.Errorf("GET /healthz on 4010 answered %d: the mock listens there too", res.StatusCode)
	}
}
