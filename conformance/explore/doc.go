// Package explore is the conformance suite's explore mode: it generates requests from the
// OpenAPI document (package spec) and sequences of calls over a model of what the interface
// states, checks every answer against the properties of Rules, and, when one fails, shrinks the
// failing sequence to the fewest calls (pgregory.net/rapid) and prints it as a shell script
// (curl) and as a Go spec to paste into the suite.
//
// It acts only on the records the fixture manifest names and on those the run itself created,
// and reads counts before acting, so it tolerates a target that already ran other specs. In
// differential mode it replays every sequence against the in-process reference mock as well and
// reports where the two differ on contract-level outcomes.
//
// It imports conformance (the client, the operations), conformance/check (the one contract
// checker), spec and fixtures; the reference of differential mode comes in as an http.Handler
// (Options.Reference), so it must not import mockserver, reference or the suite's test files.
package explore
