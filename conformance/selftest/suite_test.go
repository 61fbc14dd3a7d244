package selftest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/report"
	"github.com/opsapi/mocktoolkit/conformance/rules"
	"github.com/opsapi/mocktoolkit/mockserver"
)

var update = flag.Bool("update", false, "rewrite ../testdata/specs.golden, ../testdata/selftest.golden and ../testdata/selftest-correct.golden")

// suiteBinary is the conformance suite built once for every test of the package.
var suiteBinary string

// EnvFullTests, set to 1 (make test and CI set it), runs the whole self-test sweep: every broken
// and every correct variant. Without it only a cheap subset runs, so `go test ./...` stays quick.
const EnvFullTests = "OPSAPI_FULL_TESTS"

// full reports whether the whole sweep runs.
func full() bool { return os.Getenv(EnvFullTests) == "1" }

// skipRest ends a test whose subset ran, saying how to run the rest.
func skipRest(t *testing.T, ran, of int, what string) {
	t.Helper()
	t.Skipf("ran %d of %d %s; the rest run under `make test` (or %s=1 go test ./conformance/selftest)", ran, of, what, EnvFullTests)
}

// needFull fails a golden rewrite (-update) that would record a partial sweep.
func needFull(t *testing.T) {
	t.Helper()
	if *update && !full() {
		t.Fatalf("-update rewrites the self-test verdicts, which needs the whole sweep: %s=1 go test ./conformance/selftest -update", EnvFullTests)
	}
}

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "conformance-selftest-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "selftest:", err)
		os.Exit(1)
	}
	suiteBinary = filepath.Join(dir, "conformance.test")
	build := exec.Command("go", "test", "-c", "-o", suiteBinary, "..")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "selftest: build the conformance suite:", err)
		_ = os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// specResult is one spec of a suite run.
type specResult struct {
	Name    string
	Labels  []string
	State   types.SpecState
	Failure string
	// Records are the exchanges the spec made, as the suite's client counted them.
	Records []conformance.ExchangeRecord
	// LeftOut is set for a spec the label filter left out of the run.
	LeftOut bool
}

// runSuite runs the suite binary with args (and CONFORMANCE_BASE_URL=base when base is not
// empty) and returns its specs from the JSON report, and whether the run passed.
func runSuite(t *testing.T, base string, args ...string) ([]specResult, bool, string) {
	t.Helper()
	return runSuiteEnv(t, base, nil, args...)
}

// runSuiteEnv is runSuite with extra environment variables (NAME=value) for the suite.
func runSuiteEnv(t *testing.T, base string, env []string, args ...string) ([]specResult, bool, string) {
	t.Helper()
	reportPath := filepath.Join(t.TempDir(), "report.json")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, suiteBinary, append([]string{"-ginkgo.no-color", "-ginkgo.json-report=" + reportPath}, args...)...)
	// One process unless env says otherwise: the variants run side by side already, and
	// TestParallelRunKeepsVerdicts holds the parallel run to the same verdicts.
	// The mock and its variants carry out a push before they answer (the queued one says how
	// long it waits): a broken variant that pushes nothing need not cost the default wait.
	cmd.Env = append(append(os.Environ(), "CONFORMANCE_BASE_URL="+base, "CONFORMANCE_PROFILE=", "CONFORMANCE_PARALLEL=1", "CONFORMANCE_PUSH_WAIT=2s"), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	runErr := cmd.Run()
	raw, err := os.ReadFile(reportPath)
	if err != nil {
		t.Fatalf("run the suite: no JSON report (%v); output:\n%s", err, out.String())
	}
	var reports []types.Report
	if err := json.Unmarshal(raw, &reports); err != nil {
		t.Fatalf("read the JSON report: %v", err)
	}
	var specs []specResult
	for _, r := range reports {
		for _, sr := range r.SpecReports {
			if sr.LeafNodeType != types.NodeTypeIt {
				continue
			}
			specs = append(specs, specResult{Name: sr.FullText(), Labels: sr.Labels(), State: sr.State, Failure: sr.Failure.Message,
				Records: conformance.Records(sr), LeftOut: report.LeftOutByFilter(sr)})
		}
	}
	return specs, runErr == nil, out.String()
}

// TestSpecNames keeps the golden list of full spec names and their labels, and checks that every
// name is unique and every spec has exactly one of the contract and reference labels.
func TestSpecNames(t *testing.T) {
	specs, ok, out := runSuite(t, "http://127.0.0.1:1", "-ginkgo.dry-run")
	if !ok {
		t.Fatalf("dry run failed:\n%s", out)
	}
	seen := map[string]bool{}
	lines := make([]string, 0, len(specs))
	for _, s := range specs {
		if seen[s.Name] {
			t.Errorf("two specs are named %q", s.Name)
		}
		seen[s.Name] = true
		profiles := 0
		for _, l := range s.Labels {
			if l == "contract" || l == "reference" {
				profiles++
			}
		}
		if profiles != 1 {
			t.Errorf("spec %q has labels %v: it needs exactly one of contract and reference", s.Name, s.Labels)
		}
		if effects := len(report.LabelValues(s.Labels, "effect")); effects != 1 {
			t.Errorf("spec %q has labels %v: it needs exactly one effect label (%s or %s)", s.Name, s.Labels, conformance.LabelEffectRead, conformance.LabelEffectWrite)
		}
		lines = append(lines, fmt.Sprintf("%s [%s]", s.Name, strings.Join(s.Labels, ", ")))
	}
	checkRuleLabels(t, specs)
	sort.Strings(lines)
	got := strings.Join(lines, "\n") + "\n"
	golden := filepath.Join("..", "testdata", "specs.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (regenerate with go test ./conformance/selftest -run TestSpecNames -update)", err)
	}
	if string(want) != got {
		t.Errorf("the suite's spec names differ from %s; review and regenerate with go test ./conformance/selftest -run TestSpecNames -update\n%s", golden, diffLines(string(want), got))
	}
}

func diffLines(want, got string) string {
	w, g := map[string]bool{}, map[string]bool{}
	for _, l := range strings.Split(want, "\n") {
		w[l] = true
	}
	for _, l := range strings.Split(got, "\n") {
		g[l] = true
	}
	var b strings.Builder
	for l := range w {
		if !g[l] {
			fmt.Fprintf(&b, "- %s\n", l)
		}
	}
	for l := range g {
		if !w[l] {
			fmt.Fprintf(&b, "+ %s\n", l)
		}
	}
	return b.String()
}

// startMock serves the reference mock, wrapped by wrap when not nil, for one test.
func startMock(t *testing.T, wrap func(h httpHandler) httpHandler) string {
	t.Helper()
	mock, err := mockserver.New(mockserver.Config{})
	if err != nil {
		t.Fatalf("mockserver.New: %v", err)
	}
	var h httpHandler = mock // whatever type New returns, it is served as a handler
	if wrap != nil {
		h = wrap(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestRulesDocument keeps ../rules.md the rendering of the rule registry.
func TestRulesDocument(t *testing.T) {
	path := filepath.Join("..", "rules.md")
	got := rules.Markdown()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil || string(want) != got {
		t.Errorf("%s is not the rendering of the rule registry (%v); regenerate with go test ./conformance/selftest -run TestRulesDocument -update\n%s", path, err, diffLines(string(want), got))
	}
}

// checkRuleLabels fails t when a contract spec names no rule, a spec names a rule the registry
// lacks, or a rule the suite checks (other than those checked on every answer) has no spec;
// rules only the proxy checks need none.
func checkRuleLabels(t *testing.T, specs []specResult) {
	t.Helper()
	cited := map[string]int{}
	for _, s := range specs {
		ids := report.LabelValues(s.Labels, "rule")
		contract := slices.Contains(s.Labels, conformance.LabelContract)
		exploring := slices.Contains(s.Labels, conformance.LabelExplore)
		if contract && len(ids) == 0 {
			t.Errorf("contract spec %q cites no rule (add its rule ids to Contract(...))", s.Name)
		}
		for _, id := range ids {
			r, ok := rules.ByID(rules.ID(id))
			switch {
			case !ok:
				t.Errorf("spec %q cites rule %s, which the registry lacks", s.Name, id)
			case contract && !r.Contract():
				t.Errorf("contract spec %q cites reference rule %s (%s)", s.Name, id, r.Decision)
			case exploring && !r.CheckedBy(rules.Explore):
				t.Errorf("the explore spec cites rule %s, which the registry does not mark as checked by explore mode", id)
			}
			if !exploring { // the explore spec runs only when asked; it stands in for no fixed spec
				cited[id]++
			}
		}
	}
	for _, r := range rules.All {
		if !r.CheckedBy(rules.Suite) {
			// Checked only by the validating proxy or explore mode: no spec is expected, and
			// none may claim it.
			if cited[string(r.ID)] > 0 {
				t.Errorf("rule %s is not marked as checked by the suite, yet %d specs cite it", r.ID, cited[string(r.ID)])
			}
			continue
		}
		if cited[string(r.ID)] == 0 && !r.EveryAnswer {
			t.Errorf("rule %s has no spec: %s", r.ID, r.Statement)
		}
	}
}

// checkEffectLabels holds the effect labels of the specs that ran to the exchanges they made
// (conformance.EffectLabelProblems, D110).
func checkEffectLabels(t *testing.T, specs []specResult) {
	t.Helper()
	checked := 0
	for _, s := range specs {
		if s.LeftOut {
			continue
		}
		checked++
		for _, p := range report.EffectLabelProblems(s.Labels, s.State, s.Records) {
			t.Errorf("spec %q: %s", s.Name, p)
		}
	}
	if checked == 0 {
		t.Errorf("no spec ran: the effect labels were not checked")
	}
}

// A run whose label filter selects no spec (a typo, a flow folder not named) fails, saying so:
// it checked nothing, and a CI run must not turn green on it.
func TestRunSelectingNoSpecFails(t *testing.T) {
	t.Parallel()
	_, ok, out := runSuite(t, startMock(t, nil), "-ginkgo.label-filter=contracts")
	if ok || !strings.Contains(out, "no spec was selected") {
		t.Errorf("a run selecting no spec: passed %v; want a failure saying no spec was selected\n%s", ok, tail(out, 2000))
	}
}

// A deployment that goes down mid-run (its port refuses connections) ends the run with one line
// saying it stopped answering, as a hanging one does, rather than fail every spec left with
// "connection refused".
func TestDeploymentGoneMidRunEndsTheRun(t *testing.T) {
	t.Parallel()
	mock, err := mockserver.New(mockserver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	var srv *httptest.Server
	var n atomic.Int64
	var once sync.Once
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 300 {
			once.Do(func() { go srv.Close() })
		}
		mock.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	specs, ok, out := runSuite(t, srv.URL, "-ginkgo.label-filter=contract")
	failed := 0
	for _, s := range specs {
		if s.State.Is(types.SpecStateFailureStates) {
			failed++
		}
	}
	if ok || !strings.Contains(out, "stopped answering") || failed > 10 {
		t.Errorf("a deployment gone mid-run: passed %v, %d specs failed; want the run ended with one line saying it stopped answering\n%s", ok, failed, tail(out, 3000))
	}
}

// A deployment that answers every operation 429 ends the run with one line saying so once a
// few requests were still refused after their waits: each spec left would otherwise wait out
// its retries and skip, for hours.
func TestDeploymentRefusingEverythingEndsTheRun(t *testing.T) {
	t.Parallel()
	mock, err := mockserver.New(mockserver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost { // its manifest and health check
			mock.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", "1")
		w.Header().Set("X-RateLimit-Limit", "60")
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte(`{"message":"Too many requests."}`))
	}))
	t.Cleanup(srv.Close)
	started := time.Now()
	_, ok, out := runSuiteEnv(t, srv.URL, []string{"CONFORMANCE_RETRY_MAX=2", "CONFORMANCE_PARALLEL=1"}, "-ginkgo.label-filter=contract")
	if ok || !strings.Contains(out, "refuses every request with 429") {
		t.Errorf("a deployment refusing everything: passed %v after %s; want the run ended with one line saying so\n%s", ok, time.Since(started).Round(time.Second), tail(out, 3000))
	}
}

// A manifest whose credentials the deployment refuses is caught once, at the start, naming the
// user: every spec of that user would otherwise fail as the deployment's fault (AUTH-4), the run
// crawling through the login throttle.
func TestManifestCredentialsAreCheckedAtStart(t *testing.T) {
	t.Parallel()
	base := startMock(t, nil)
	m, err := conformance.Config{}.LoadManifest(context.Background(), base)
	if err != nil {
		t.Fatal(err)
	}
	if err := (conformance.Config{}).CheckLogins(context.Background(), base, m); err != nil {
		t.Fatalf("the mock's own manifest: %v", err)
	}
	m.Users.Member.Password = "WrongPassw0rd"
	err = (conformance.Config{}).CheckLogins(context.Background(), base, m)
	if err == nil || !strings.Contains(err.Error(), "users.member") || strings.Contains(err.Error(), "users.superadmin") {
		t.Errorf("a wrong member password: %v; want the member named, and only it", err)
	}
	m.Tokens.Member = "a-token-the-manifest-gives"
	if err := (conformance.Config{}).CheckLogins(context.Background(), base, m); err != nil {
		t.Errorf("a user with a token in the manifest is not logged in, yet: %v", err)
	}
}
