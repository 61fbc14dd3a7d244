package conformance_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/opsapi/mocktoolkit/conformance"
)

// EnvProfile narrows the run to a label filter (e.g. "contract") when no
// --ginkgo.label-filter is given, so every spec still appears in the reports as skipped.
const EnvProfile = "CONFORMANCE_PROFILE"

var (
	cfg      Config
	client   *Client
	manifest Manifest
	// missing lists what the manifest lacks (CheckManifest); specs needing it skip.
	missing []string
)

func TestConformance(t *testing.T) {
	RegisterFailHandler(Fail)
	suiteConfig, reporterConfig := GinkgoConfiguration()
	if p := os.Getenv(EnvProfile); p != "" && suiteConfig.LabelFilter == "" {
		suiteConfig.LabelFilter = p
	}
	if c, err := LoadConfig(os.Getenv); err == nil && c.BaseURL != "" && !suiteConfig.DryRun {
		// An unreachable deployment fails the run at once, in one line, before any spec.
		if err := Probe(context.Background(), strings.TrimRight(c.BaseURL, "/"), 5*time.Second); err != nil {
			fmt.Fprintf(os.Stderr, "conformance: %v\n", err)
			t.FailNow()
		}
	}
	labelFilter = suiteConfig.LabelFilter
	RunSpecs(t, "Conformance", suiteConfig, reporterConfig)
	// The JUnit report exists here when this process wrote it (not under the ginkgo CLI's -p,
	// which merges the processes' reports itself).
	if path := reporterConfig.JUnitReport; path != "" && fileExists(path) {
		if err := GroupJUnitByOperation(path); err != nil {
			t.Errorf("group the JUnit report by operation: %v", err)
		}
	}
}

// labelFilter is the run's label filter.
var labelFilter string

// checkPartialManifest accepts a manifest that lacks parts only when the label filter leaves
// out every operation whose specs use them; it returns what is missing.
func checkPartialManifest(m Manifest) ([]string, error) {
	missing := CheckManifest(m)
	if len(missing) == 0 {
		return nil, nil
	}
	var inRun []string
	for _, op := range Operations {
		if need := MissingFor(op.ID, missing); len(need) > 0 && OperationInRun(labelFilter, op) {
			inRun = append(inRun, fmt.Sprintf("%s (needs %s)", op.ID, strings.Join(need, ", ")))
		}
	}
	if len(inRun) > 0 {
		return missing, fmt.Errorf("the manifest lacks %s; the run includes operations that need it: %s (complete the manifest, or leave them out with the label filter, e.g. '&& !op:%s')",
			strings.Join(missing, "; "), strings.Join(inRun, "; "), strings.SplitN(inRun[0], " ", 2)[0])
	}
	fmt.Fprintf(GinkgoWriter, "the manifest lacks %s; the label filter leaves out every operation that needs it\n", strings.Join(missing, "; "))
	return missing, nil
}

// The target is chosen once, on the first process; every parallel process gets its base URL.
var _ = SynchronizedBeforeSuite(func(ctx SpecContext) []byte {
	c, err := LoadConfig(os.Getenv)
	must(err, "read the environment")
	target, err := StartTarget(ctx, c)
	DeferCleanup(target.Stop)
	must(err, "the deployment under test must answer")
	m, err := LoadManifest(ctx, c, target.BaseURL)
	must(err, "the fixture manifest must name what the suite acts on")
	_, err = checkPartialManifest(m)
	must(err, "the fixture manifest must name what the suite acts on")
	fmt.Fprintf(GinkgoWriter, "conformance target: %s (%s)\n", target.BaseURL, target.Kind)
	return []byte(target.BaseURL)
}, func(ctx SpecContext, base []byte) {
	var err error
	cfg, err = LoadConfig(os.Getenv)
	must(err, "read the environment")
	client, err = NewClient(ctx, string(base), cfg)
	must(err, "make the client")
	client.Logf = func(format string, args ...any) { fmt.Fprintf(GinkgoWriter, format+"\n", args...) }
	manifest, err = LoadManifest(ctx, cfg, string(base))
	must(err, "load the fixture manifest")
	missing = CheckManifest(manifest)
})

// The per-operation and per-aspect summary, on standard output and in CONFORMANCE_SUMMARY.
var _ = ReportAfterSuite("conformance summary", func(report Report) {
	s := Summarize(report)
	_ = s.Write(os.Stdout)
	if path := os.Getenv(EnvSummary); path != "" {
		f, err := os.Create(path)
		Expect(err).NotTo(HaveOccurred())
		defer f.Close()
		Expect(s.Write(f)).To(Succeed())
	}
})

// bg is the context of requests made outside a spec's own context.
var bg = context.Background()

// must fails the setup with a plain message when err is not nil.
func must(err error, what string) {
	GinkgoHelper()
	if err != nil {
		Fail(fmt.Sprintf("%s: %s", what, err))
	}
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
