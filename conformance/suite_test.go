package conformance_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/fixtures"
)

// EnvProfile narrows the run to a label filter (e.g. "contract") when no
// --ginkgo.label-filter is given, so every spec still appears in the reports as skipped.
const EnvProfile = "CONFORMANCE_PROFILE"

var (
	cfg      Config
	client   *Client
	manifest fixtures.Manifest
)

func TestConformance(t *testing.T) {
	RegisterFailHandler(Fail)
	suiteConfig, reporterConfig := GinkgoConfiguration()
	if p := os.Getenv(EnvProfile); p != "" && suiteConfig.LabelFilter == "" {
		suiteConfig.LabelFilter = p
	}
	RunSpecs(t, "Conformance", suiteConfig, reporterConfig)
}

// The target is chosen once, on the first process; every parallel process gets its base URL.
var _ = SynchronizedBeforeSuite(func(ctx SpecContext) []byte {
	c, err := LoadConfig(os.Getenv)
	must(err, "read the environment")
	target, err := StartTarget(ctx, c)
	DeferCleanup(target.Stop)
	must(err, "the deployment under test must answer")
	_, err = LoadManifest(ctx, c, target.BaseURL)
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
