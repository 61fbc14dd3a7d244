// Package selftest proves the power of the conformance suite: its tests build the suite as a
// binary, run it (the contract profile) against the correct reference mock, which must pass, and
// against broken variants of it, each a middleware that breaks one rule of the interface, which
// must each fail; they record which spec caught which break. They run it against correct
// variants too, other choices the interface permits, which must each pass. They also keep the golden list of
// the suite's spec names (testdata/specs.golden, one level up) and check that names are unique.
//
// The package has no code outside its tests.
package selftest
