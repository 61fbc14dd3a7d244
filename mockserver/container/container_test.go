package container_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/wait"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/mockserver/container"
)

// start runs the mock image with opts and returns its base URL; the container is terminated
// when the test ends, whatever happened.
func start(t *testing.T, opts ...testcontainers.ContainerCustomizer) (*container.Container, string) {
	t.Helper()
	img := mockImage(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ctr, err := container.Run(ctx, img, opts...)
	t.Cleanup(func() {
		if err := testcontainers.TerminateContainer(ctr); err != nil {
			t.Errorf("terminate: %v", err)
		}
	})
	if err != nil {
		t.Fatalf("start %s: %v", img, err)
	}
	base, err := ctr.BaseURL(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return ctr, base
}

type answer struct {
	status int
	header http.Header
	body   []byte
}

func do(t *testing.T, method, url string, body any) answer {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: read body: %v", method, url, err)
	}
	return answer{status: resp.StatusCode, header: resp.Header, body: b}
}

func manifest(t *testing.T, base string) fixtures.Manifest {
	t.Helper()
	a := do(t, http.MethodGet, base+"/__mock/fixtures", nil)
	if a.status != http.StatusOK {
		t.Fatalf("GET /__mock/fixtures: status %d, body %s", a.status, a.body)
	}
	var m fixtures.Manifest
	if err := json.Unmarshal(a.body, &m); err != nil {
		t.Fatalf("GET /__mock/fixtures: %v in %s", err, a.body)
	}
	return m
}

func TestRun(t *testing.T) {
	t.Parallel()
	ctr, base := start(t)

	t.Run("answers at an http base URL without a trailing slash", func(t *testing.T) {
		if !strings.HasPrefix(base, "http://") || strings.HasSuffix(base, "/") {
			t.Errorf("BaseURL = %q", base)
		}
	})
	t.Run("is ready: GET /healthz answers 200", func(t *testing.T) {
		if a := do(t, http.MethodGet, base+"/healthz", nil); a.status != http.StatusOK {
			t.Errorf("status %d, body %s", a.status, a.body)
		}
	})
	t.Run("serves the fixture manifest and the member can authenticate", func(t *testing.T) {
		m := manifest(t, base)
		if m.Users.Member.Email == "" {
			t.Fatalf("manifest has no member credentials: %+v", m.Users)
		}
		a := do(t, http.MethodPost, base+"/v1/authenticate", map[string]string{
			"email": m.Users.Member.Email, "password": m.Users.Member.Password,
		})
		if a.status != http.StatusOK {
			t.Fatalf("POST /v1/authenticate: status %d, body %s", a.status, a.body)
		}
		var login struct {
			Error bool `json:"error"`
			Data  struct {
				Token string `json:"token"`
			} `json:"data"`
		}
		if err := json.Unmarshal(a.body, &login); err != nil {
			t.Fatalf("POST /v1/authenticate: %v in %s", err, a.body)
		}
		if login.Error || login.Data.Token == "" {
			t.Errorf("POST /v1/authenticate: no token in %s", a.body)
		}
	})
	t.Run("runs as the non-root user 65532", func(t *testing.T) {
		in, err := ctr.Inspect(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if in.Config.User != "65532:65532" {
			t.Errorf("user %q, want 65532:65532", in.Config.User)
		}
	})
}

func TestWithSeed(t *testing.T) {
	t.Parallel()
	const seed = 424242
	_, base := start(t, container.WithSeed(seed))
	if m := manifest(t, base); m.Seed != seed {
		t.Errorf("manifest seed %d, want %d", m.Seed, seed)
	}
}

func TestWithRateLimit(t *testing.T) {
	t.Parallel()
	const limit = 7
	_, base := start(t, container.WithRateLimit(limit))
	a := do(t, http.MethodPost, base+"/v1/authenticate", map[string]string{
		"email": "nobody@example.com", "password": "wrong",
	})
	if got := a.header.Get("X-RateLimit-Limit"); got != strconv.Itoa(limit) {
		t.Errorf("X-RateLimit-Limit %q, want %d (status %d, body %s)", got, limit, a.status, a.body)
	}
}

func TestRunReturnsThePartialContainerOnError(t *testing.T) {
	t.Parallel()
	img := mockImage(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// A readiness path the mock never answers with 200: the wait fails after the container started.
	ctr, err := container.Run(ctx, img, testcontainers.WithWaitStrategy(
		wait.ForHTTP("/never-ready").WithPort(container.Port).WithStartupTimeout(3*time.Second),
	))
	t.Cleanup(func() {
		if err := testcontainers.TerminateContainer(ctr); err != nil {
			t.Errorf("terminate: %v", err)
		}
	})
	if err == nil {
		t.Fatal("Run succeeded, want a readiness error")
	}
	if !strings.HasPrefix(err.Error(), "run mockserver: ") {
		t.Errorf("error %q does not start with %q", err, "run mockserver: ")
	}
	if ctr == nil {
		t.Error("Run returned no container with its error: the caller cannot terminate it")
	}
}
