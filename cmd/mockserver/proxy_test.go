package main

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// startProxyCmd runs `mockserver proxy` with env and args until the returned stop is called.
func startProxyCmd(t *testing.T, env map[string]string, args ...string) (string, func() error) {
	t.Helper()
	return startCmd(t, env, append([]string{"proxy", "--addr", "127.0.0.1:0"}, args...)...)
}

// upstreamMock serves the reference mock; with broken set, its answers lack X-RateLimit-Remaining.
func upstreamMock(t *testing.T, broken bool) string {
	t.Helper()
	m, err := mockserver.New(mockserver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	var h http.Handler = m
	if broken {
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { m.ServeHTTP(noRemaining{w}, r) })
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

type noRemaining struct{ http.ResponseWriter }

func (n noRemaining) WriteHeader(status int) {
	n.Header().Del("X-RateLimit-Remaining")
	n.ResponseWriter.WriteHeader(status)
}

func callCardsList(t *testing.T, base string) *http.Response {
	t.Helper()
	res, err := http.Post(base+"/services/operations/v1/operations/cards/list", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res
}

// --fail-on-violation: the stop returns an error (exit 1) when the deployment broke a rule,
// and nil (exit 0) when it did not; without the flag a violation never fails the run. The
// reports are written at stop either way.
func TestProxyCommandFailOnViolation(t *testing.T) {
	for _, tc := range []struct {
		name     string
		broken   bool
		flags    []string
		wantFail bool
	}{
		{"fails on a deployment violation", true, []string{"--fail-on-violation"}, true},
		{"passes a clean deployment", false, []string{"--fail-on-violation"}, false},
		{"does not fail without the flag", true, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			jsonFile, junitFile := filepath.Join(dir, "report.json"), filepath.Join(dir, "junit.xml")
			args := append([]string{"--upstream", upstreamMock(t, tc.broken), "--report-json", jsonFile, "--report-junit", junitFile}, tc.flags...)
			base, stop := startProxyCmd(t, nil, args...)
			res := callCardsList(t, base)
			if got := res.Header.Get("X-Contract-Violations") != ""; got != tc.broken {
				t.Errorf("X-Contract-Violations %q on a broken=%v upstream", res.Header.Get("X-Contract-Violations"), tc.broken)
			}
			err := stop()
			if (err != nil) != tc.wantFail {
				t.Fatalf("run returned %v, want a failure: %v", err, tc.wantFail)
			}
			if tc.wantFail && !strings.Contains(err.Error(), "broke the contract 1 time (cardsList HDR-1)") {
				t.Errorf("the failure %q does not name the operation and rule", err)
			}
			checkReports(t, jsonFile, junitFile, tc.broken)
		})
	}
}

func checkReports(t *testing.T, jsonFile, junitFile string, broken bool) {
	t.Helper()
	b, err := os.ReadFile(jsonFile)
	if err != nil {
		t.Fatalf("the JSON report was not written: %v", err)
	}
	var r struct {
		Exchanges            int `json:"exchanges"`
		DeploymentViolations int `json:"deployment_violations"`
	}
	if err := json.Unmarshal(b, &r); err != nil || r.Exchanges != 1 || (r.DeploymentViolations > 0) != broken {
		t.Errorf("JSON report %s (%v)", b, err)
	}
	x, err := os.ReadFile(junitFile)
	if err != nil {
		t.Fatalf("the JUnit report was not written: %v", err)
	}
	var suites struct {
		Failures int `xml:"failures,attr"`
	}
	if err := xml.Unmarshal(x, &suites); err != nil || (suites.Failures > 0) != broken {
		t.Errorf("JUnit report %s (%v)", x, err)
	}
}

// The upstream comes from MOCK_PROXY_UPSTREAM when --upstream is not given; without either the
// command refuses to start.
func TestProxyCommandUpstream(t *testing.T) {
	base, stop := startProxyCmd(t, map[string]string{"MOCK_PROXY_UPSTREAM": upstreamMock(t, false)})
	if res := callCardsList(t, base); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("cards/list without a token through the proxy: %d, want the mock's 401", res.StatusCode)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	err := run(context.Background(), []string{"proxy"}, noEnv, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "--upstream") {
		t.Errorf("run without an upstream returned %v, want an error naming --upstream", err)
	}
	err = run(context.Background(), []string{"proxy", "--upstream", "ftp://example.com"}, noEnv, io.Discard, io.Discard)
	if err == nil {
		t.Error("run with an ftp upstream returned nil, want an error")
	}
}

// The start lines say what the proxy does at stop: the reports it writes and whether a
// deployment's violation fails it. A CI gate a missing variable left off
// (MOCK_PROXY_FAIL_ON_VIOLATION= in a compose file) ran silently, exiting 0.
func TestProxyStartSaysWhatItDoesAtStop(t *testing.T) {
	off := stopOutputs(proxyOptions{})
	if !strings.Contains(off, "no report written") || !strings.Contains(off, "--fail-on-violation is off") {
		t.Errorf("no reports, no gate: %q", off)
	}
	on := stopOutputs(proxyOptions{reportJUnit: "rep/junit.xml", reportJSON: "rep/r.json", failOnViolation: true})
	for _, want := range []string{"JUnit report rep/junit.xml", "JSON report rep/r.json", "exits 1 if the deployment broke the contract"} {
		if !strings.Contains(on, want) {
			t.Errorf("reports and gate: %q, want %q in it", on, want)
		}
	}
}
