// Package proxy is a validating reverse proxy: it forwards every request to a real deployment
// of the interface and checks each exchange of the 24 operations against the contract, through
// the one contract checker the conformance suite and explore mode judge with (package
// conformance/check), so one broken fact gets the same rule id from all three; the checker's
// tracker also judges the rules that span one caller's exchanges (LIMIT-1, LIST-1, COMMENT-1),
// the removals from one cart (CART-1, CART-2) and a card's status updates that overlap (TRANS-1;
// D123). The rules are the registry's (package conformance/rules, rendered to
// conformance/rules.md); rules.go lists those the proxy checks.
//
// For each request the proxy
//
//  1. reads ahead up to Config.MaxBody bytes (1 MiB) of the request body, a bounded copy for
//     checking; the upstream still receives every byte, a larger body passes unchecked;
//  2. forwards the request with net/http/httputil.ReverseProxy: method, path, query, headers
//     and body as the client sent them (X-Forwarded-* included, none added), Host set to the
//     upstream's; a path that is not one of the 24 operations is forwarded too, unchecked;
//  3. on the answer, reads ahead up to MaxBody bytes of its body (decoding gzip for the checks
//     only), checks the request (the client's rule REQ-1) and the answer (status,
//     envelope shape, rate-limit headers, Retry-After, body schema: the deployment's rules) and,
//     by the caller's bearer token, the answer against the caller's earlier ones, and adds
//     X-Contract-Violations with the ids of the rules broken;
//  4. streams the answer on: status, headers and body bytes as the upstream sent them;
//  5. journals the exchange, credentials redacted, and counts it for the reports.
//
// When no answer comes from the upstream it answers 502 in shape (a) with a message naming
// the upstream and the failure (rule UP-1).
//
// The proxy's own pages live under /__proxy/ and are never forwarded: the dashboard
// (GET /__proxy/), the journal (GET /__proxy/exchanges) and the rule table (GET /__proxy/rules).
// Reports: Report, WriteJSONReport and WriteJUnitReport. Choices: docs/decisions.md, D90–D98, D120–D123.
//
// A ScenarioRecorder in front of the proxy keeps the records its successful answers show and
// writes them as a scenario the mock starts from (mockserver proxy --record-scenario; D174–D177).
//
// It reads the operation model from package spec and judges through conformance/check, and
// must not import mockserver, reference, fixtures or the suite (package conformance, Ginkgo);
// its tests use the mock as an upstream.
package proxy
