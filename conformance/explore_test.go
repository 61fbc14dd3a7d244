package conformance_test

import (
	"fmt"
	"os"
	"strings"

	. "github.com/onsi/ginkgo/v2"

	. "github.com/opsapi/mocktoolkit/conformance" //nolint:revive // the suite reads as the interface does
	"github.com/opsapi/mocktoolkit/conformance/explore"
	"github.com/opsapi/mocktoolkit/conformance/report"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// Explore mode (package explore): with CONFORMANCE_EXPLORE=N the suite runs N cases generated
// from the OpenAPI document — single requests valid or invalid in one field, and sequences over
// a model of what the interface states — against the target the suite chose, after the fixed
// specs (Serial, lowest priority), or alone with --ginkgo.label-filter=explore. Every property it
// checks is in explore.Rules, stated from the interface only, so the spec is contract. Its
// records are the manifest's and its own; it spends cart items, the thumbnail window and
// approved versions as the fixed specs do (run it last, or against a fresh deployment).
var _ = Describe("Explore mode", func() {
	It("holds every property on generated requests and sequences of calls", Explore(exploreRuleIDs()), Serial, SpecPriority(-1), func(ctx SpecContext) {
		opts, err := explore.OptionsFromEnv(os.Getenv)
		must(err, "read the explore variables")
		if opts.Cases == 0 {
			Skip(fmt.Sprintf("explore mode is off: set %s=N to run N generated cases (%s fixes the seed)", explore.EnvCases, explore.EnvSeed))
		}
		opts.Log = GinkgoWriter
		opts.Settle = cfg.PushWait
		if opts.Settle == 0 {
			opts.Settle = -1 // CONFORMANCE_PUSH_WAIT=0s: no wait
		}
		// Progress goes straight to the terminal: GinkgoWriter shows only after the spec.
		opts.Progress = os.Stderr
		if opts.Diff {
			// The reference is built from the seed the target's manifest names (a mock world reset
			// to another seed), else the default one: its records and users are the target's only
			// when the target is the mock; against any other deployment differences in what
			// depends on records (logins among them) are expected.
			ref, err := mockserver.New(mockserver.Config{RateLimit: 1 << 30, Seed: manifest.Seed})
			must(err, "start the reference of differential mode")
			opts.Reference = ref
		}
		res, err := explore.Run(ctx, client, manifest.Manifest, opts)
		must(err, "explore mode could not finish its run")
		summary := fmt.Sprintf("explore mode: seed %d (%s=%d reproduces it), %s", res.Seed, explore.EnvSeed, res.Seed, res.Counts())
		if len(missing) > 0 {
			// A partial manifest: the steps that act on what it lacks were never taken, and
			// their rules went unjudged; a pass must not read as covering them.
			summary += fmt.Sprintf("; the manifest lacks %s: the steps acting on them were not taken, and their rules not judged", strings.Join(missing, "; "))
		}
		if opts.Diff {
			summary += fmt.Sprintf("; against the reference: %d differences", len(res.Diffs))
			if len(res.Diffs) > 0 {
				summary += "\n  " + strings.Join(res.Diffs, "\n  ")
			}
		}
		AddReportEntry("explore", summary, ReportEntryVisibilityAlways)
		if res.Failure != nil {
			AddReportEntry(report.ReportEntryExploreOp, res.Failure.Op(), ReportEntryVisibilityNever)
			Fail(fmt.Sprintf("case %d of the run broke a property; shrunk:\n%s", res.FoundAt, res.Failure.Report()))
		}
	})
})

// exploreRuleIDs are the registry ids explore mode checks.
func exploreRuleIDs() []string {
	ids := make([]string, len(explore.Rules))
	for i, r := range explore.Rules {
		ids[i] = string(r.ID)
	}
	return ids
}
