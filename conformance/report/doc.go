// Package report turns a conformance run's Ginkgo report into what its reader sees: the
// per-operation and per-aspect summary printed after the suite (summary.go), the self-contained
// HTML page (html.go), the JUnit report grouped by operation (junit.go), and where the reports go
// and what happens when one cannot be written (files.go, D111).
//
// It reads the suite's model (operations, aspects, labels, rules, exchange records) from package
// conformance; conformance never imports it.
package report
