package conformance

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// Target is the deployment under test.
type Target struct {
	// BaseURL is the base URL all paths are appended to (no trailing slash).
	BaseURL string
	// Kind says where it came from: "url", "image" or "in-process".
	Kind string
	// Stop releases what StartTarget started; it is never nil.
	Stop func()
}

// ErrContainerUnavailable is returned by startContainerTarget in a build without containers.
var ErrContainerUnavailable = errors.New("not available in this build")

// startContainerTarget starts the mock from a container image and returns its base URL. It is the
// hook conformance/container wires; until then it reports ErrContainerUnavailable.
var startContainerTarget = func(ctx context.Context, image string) (baseURL string, stop func(), err error) {
	return "", nil, fmt.Errorf("start container %s: %w", image, ErrContainerUnavailable)
}

// SetContainerStarter replaces the hook that starts a target from CONFORMANCE_IMAGE. The container
// module calls it (from an init in a file of the suite) so this package needs no container
// dependency.
func SetContainerStarter(f func(ctx context.Context, image string) (string, func(), error)) {
	startContainerTarget = f
}

// StartTarget chooses the deployment under test once: CONFORMANCE_BASE_URL, else
// CONFORMANCE_IMAGE, else the reference mock in process (mockserver.New behind httptest). It
// fails with a clear error when the target does not answer.
func StartTarget(ctx context.Context, cfg Config) (Target, error) {
	t := Target{Stop: func() {}}
	switch {
	case cfg.BaseURL != "":
		t.BaseURL, t.Kind = strings.TrimRight(cfg.BaseURL, "/"), "url"
	case cfg.Image != "":
		base, stop, err := startContainerTarget(ctx, cfg.Image)
		if stop != nil {
			t.Stop = stop
		}
		if err != nil {
			return t, fmt.Errorf("start target from %s: %w", EnvImage, err)
		}
		t.BaseURL, t.Kind = strings.TrimRight(base, "/"), "image"
	default:
		h, err := mockserver.New(mockserver.Config{})
		if err != nil {
			return t, fmt.Errorf("start in-process mock: %w", err)
		}
		srv := httptest.NewServer(h)
		t.BaseURL, t.Kind, t.Stop = srv.URL, "in-process", srv.Close
	}
	if err := Reachable(ctx, t.BaseURL, 10*time.Second); err != nil {
		return t, err
	}
	return t, nil
}

// Probe makes one request to base and reports an error at once if it gets no HTTP answer
// within timeout: for a deployment named by URL, which is expected to be up already.
func Probe(ctx context.Context, base string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/healthz", nil)
	if err != nil {
		return fmt.Errorf("target %s: %w", base, err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("the deployment at %s does not answer (%s): %w", base, EnvBaseURL, err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.Body.Close()
}

// Reachable reports an error unless the server at base answers HTTP within wait. Any HTTP answer
// counts (a vendor's deployment need not serve /healthz); only a transport failure does not.
func Reachable(ctx context.Context, base string, wait time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	var last error
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/healthz", nil)
		if err != nil {
			return fmt.Errorf("target %s: %w", base, err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
			return nil
		}
		last = err
		select {
		case <-ctx.Done():
			return fmt.Errorf("target %s is unreachable (set %s to a running deployment): %w", base, EnvBaseURL, last)
		case <-time.After(200 * time.Millisecond):
		}
	}
}
