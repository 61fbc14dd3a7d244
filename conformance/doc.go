// Package conformance holds the helpers of the conformance suite: a Ginkgo v2 / Gomega suite that
// tells QA teams and vendors whether a deployment honours the interface of the service. The specs
// live in this directory's _test.go files (package conformance_test); this package is what they
// share, in the order a run meets it:
//
//   - The target: Config reads the suite's environment (Env*), StartTarget chooses the
//     deployment under test (a URL, the mock's image, or the in-process reference mock wired by
//     a test file, SetInProcessStarter), and Config.LoadManifest reads what the suite may act on
//     there (package conformance/manifest).
//   - The client: Client sends each Request with its Intent, checks every request against the
//     OpenAPI document and judges every answer through the one contract checker the proxy and
//     explore mode share (package conformance/check).
//   - Exchanges: each call is an Exchange; a Recorder counts them per spec as ExchangeRecords.
//   - Matchers: Gomega matchers (Have*, ConformToSpec, KeepTheContract), thin callers of the
//     checker, whose failure messages name the operation, the request, the answer and the rule
//     broken (Cite; the rules are package conformance/rules, by their typed ids).
//   - Operations: the 24 operations (Op*, Operations, Areas), read from the OpenAPI document's
//     operation model (spec.Operation), and the probe matrix generated from it (Probe*, IDField).
//   - Labels: every spec is either contract (it rests only on what the interface states; the
//     vendor profile is `--ginkgo.label-filter=contract`) or reference (it rests on one of our
//     choices for a gap, cited by its D-id from docs/decisions.md), and carries op:<operationId>,
//     area:<area>, aspect:<aspect> and an effect label (Contract, Reference, Writes, …); a
//     replayed flow (package conformance/flow) is labelled by FlowLabels.
//   - The run: Run is how the label filter and the readonly profile (D110) narrow the suite;
//     ParallelRun runs the specs CONFORMANCE_PARALLEL at a time as Ginkgo parallel processes
//     (no ginkgo CLI needed). What a run reports is package conformance/report.
//
// Build the suite as one binary with `go test -c ./conformance -o build/conformance.test`.
//
// This package may import spec and fixtures; it must not import mockserver (the judge does not
// import the judged: the in-process target is wired by a test file, SetInProcessStarter) nor
// testcontainers-go (the mock's container module, mockserver/container, is wired the same way,
// SetContainerStarter).
package conformance
