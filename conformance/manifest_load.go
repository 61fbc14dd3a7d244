package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/opsapi/mocktoolkit/conformance/manifest"
)

// LoadManifest reads the fixture manifest from cfg.ManifestFile when set, else from
// GET <base>/__mock/fixtures. What it lacks is listed by manifest.Check; the suite decides with
// manifest.Needs whether the run may go on without it.
func (cfg Config) LoadManifest(ctx context.Context, base string) (manifest.Manifest, error) {
	var (
		m      manifest.Manifest
		raw    []byte
		source string
		err    error
	)
	if cfg.ManifestFile != "" {
		source = cfg.ManifestFile
		raw, err = manifest.ReadFile(cfg.ManifestFile)
		if err != nil {
			return m, fmt.Errorf("load manifest: %w", err)
		}
		if err := manifest.Validate(raw); err != nil {
			return m, fmt.Errorf("load manifest from %s: %w", source, err)
		}
	} else {
		source = base + "/__mock/fixtures"
		raw, err = fetch(ctx, source, cfg.AdminToken)
		if err != nil {
			return m, fmt.Errorf("load manifest from %s (for a deployment other than the mock, write one and name it in %s): %w", source, EnvManifest, err)
		}
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	if err := dec.Decode(&m); err != nil {
		return m, fmt.Errorf("load manifest from %s: %w", source, err)
	}
	reportSecrets.NoteBody(raw)
	return m, nil
}

func fetch(ctx context.Context, url, adminToken string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	if adminToken != "" {
		req.Header.Set("X-Mock-Admin-Token", adminToken) // the mock's --admin-token (D66)
	}
	resp, err := deployment.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return nil, err
	}
	if why := redirected(resp); why != "" {
		return nil, fmt.Errorf("%s", why)
	}
	switch {
	case (resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden) && adminToken == "":
		return nil, fmt.Errorf("status %d: the mock guards its own endpoints with --admin-token; set %s to that token", resp.StatusCode, EnvAdminToken)
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return nil, fmt.Errorf("status %d: %s is not the mock's --admin-token", resp.StatusCode, EnvAdminToken)
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("status %d: %s", resp.StatusCode, deploymentText(string(body), 200))
	}
	return body, nil
}
