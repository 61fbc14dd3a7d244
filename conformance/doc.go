// Package conformance holds the helpers of the conformance suite: a Ginkgo v2 / Gomega suite that
// tells QA teams and vendors whether a deployment honours the interface of the service. The rules
// it checks are in rules.go, a registry with stable ids rendered to rules.md.
//
// The specs live in this directory's _test.go files (package conformance_test); the ordinary files
// hold what they share: the target and its environment (config.go, target.go), the table of the
// 24 operations (operations.go), an HTTP client that validates every request it sends and every
// answer it gets against the OpenAPI document of package spec and counts its exchanges per spec
// (client.go, record.go), the labels (labels.go) and profiles (profile.go: readonly, D110), the
// Gomega matchers whose failure messages name the operation, the request, the answer and the
// rule broken (matchers.go; the rules are package conformance/rules, cited through rules.go),
// the manifest (manifest.go, with its JSON Schema and an example), the per-operation summary
// written after the suite (summary.go), the self-contained HTML report (html.go), where reports
// go and what happens when one cannot be written (reportfiles.go, D111) and the JUnit grouping by
// operation (junit.go).
//
// Build the suite as one binary with `go test -c ./conformance -o build/conformance.test`.
//
// Labels: every spec is either `contract` (it rests only on what the interface states; the vendor
// profile is `--ginkgo.label-filter=contract`) or `reference` (it rests on one of our choices for a
// gap, cited by its D-id from docs/decisions.md). Each spec also carries `op:<operationId>`,
// `area:<area>` and `aspect:<aspect>`; specs that spend a rate limit are `Serial`.
//
// This package may import spec, fixtures and mockserver (for the in-process target); it must not
// import testcontainers-go (that is conformance/container's job).
package conformance
