package conformance

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/opsapi/mocktoolkit/internal/certerr"
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

// errContainerUnavailable is returned by startContainerTarget in a build without containers.
var errContainerUnavailable = errors.New("not available in this build")

// startContainerTarget starts the mock from a container image and returns its base URL. It is the
// hook mockserver/container wires; until then it reports errContainerUnavailable.
var startContainerTarget = func(ctx context.Context, image string) (baseURL string, stop func(), err error) {
	return "", nil, fmt.Errorf("start container %s: %w", image, errContainerUnavailable)
}

// SetContainerStarter replaces the hook that starts a target from CONFORMANCE_IMAGE. The container
// module calls it (from an init in a file of the suite) so this package needs no container
// dependency.
func SetContainerStarter(f func(ctx context.Context, image string) (string, func(), error)) {
	startContainerTarget = f
}

// startInProcessTarget serves the reference mock in this process. The suite's own test setup
// sets it (SetInProcessStarter), so this package never imports the mock it judges; unset, a
// run without CONFORMANCE_BASE_URL or CONFORMANCE_IMAGE has no target.
var startInProcessTarget = func(context.Context) (baseURL string, stop func(), err error) {
	return "", nil, fmt.Errorf("no in-process target in this build: set %s to the deployment under test", EnvBaseURL)
}

// SetInProcessStarter replaces the hook that serves the in-process target (the reference mock,
// from a file of the suite's tests).
func SetInProcessStarter(f func(ctx context.Context) (string, func(), error)) {
	startInProcessTarget = f
}

// StartTarget chooses the deployment under test once: CONFORMANCE_BASE_URL, else
// CONFORMANCE_IMAGE, else the in-process target (SetInProcessStarter). It fails with a clear
// error when the target does not answer.
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
		base, stop, err := startInProcessTarget(ctx)
		if stop != nil {
			t.Stop = stop
		}
		if err != nil {
			return t, err
		}
		t.BaseURL, t.Kind = strings.TrimRight(base, "/"), "in-process"
	}
	if err := reachable(ctx, t.BaseURL, 10*time.Second); err != nil {
		return t, err
	}
	return t, nil
}

// Ping makes one request to the target and reports an error at once if it gets no HTTP answer
// within timeout: for a deployment named by URL, which is expected to be up already.
func (t Target) Ping(ctx context.Context, timeout time.Duration) error {
	base := t.BaseURL
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/healthz", nil)
	if err != nil {
		return fmt.Errorf("target %s: %w", base, err)
	}
	resp, err := deployment.Do(req)
	if err != nil && certerr.Untrusted(err) {
		return fmt.Errorf("the suite does not trust the certificate of the deployment at %s (%s): %s. %s", base, EnvBaseURL, certerr.Reason(err), certerr.Advice(err))
	}
	if err != nil {
		return fmt.Errorf("the deployment at %s does not answer (%s): %w", base, EnvBaseURL, err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.Body.Close()
}

// reachable reports an error unless the server at base answers HTTP within wait. Any HTTP answer
// counts (a vendor's deployment need not serve /healthz); only a transport failure does not.
func reachable(ctx context.Context, base string, wait time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	var last error
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/healthz", nil)
		if err != nil {
			return fmt.Errorf("target %s: %w", base, err)
		}
		resp, err := deployment.Do(req)
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
