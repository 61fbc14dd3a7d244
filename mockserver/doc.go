// Package mockserver serves package reference over HTTP: the interface's 24 operations at
// their paths, in the interface's envelopes, with its authentication, rate limits and
// validation, over a seeded world from package fixtures.
//
// It is the HTTP adapter only: the rules live in reference. New returns a *Server, an
// http.Handler that embedding tests hold to steer the mock from Go (Snapshot, LoadState, Reset,
// Manifest, Advance on the default world; World(name) for another). One table lists the API
// surface: a row per operationId with its handler; the operation's path, access (public,
// bearer, superadmin), listed statuses and request schema come from the spec's operation model
// (spec.Operations). One envelope writer encodes every answer and maps reference error codes to
// HTTP statuses; reference/messages.go is the one writer of field failures.
//
// Every request passes, in this order:
//
//  1. recover: a panic becomes a logged 500 in shape (a), never a dropped connection;
//  2. request id: X-Request-Id is echoed or assigned;
//  3. log: one line per request, through the configured logger;
//  4. world (D100): the /__worlds/<name> prefix is taken off the path as sent (or X-Mock-World
//     read) and the request's world bound once and counted in flight; a world is created on
//     first use only by a request the mock admits (Host, Origin, admin token, no cross-site
//     no-CORS load: 403, D141); a bad name answers 400 shape (a) at route match, and 503 when
//     every world is busy and none may go;
//  5. CORS: every answer to an allowed Origin carries Access-Control-Allow-Origin and
//     Access-Control-Expose-Headers (the rate-limit headers, Retry-After); a preflight OPTIONS
//     on a known path answers 204 with the allowed methods, the requested headers and the
//     rate-limit headers, before any auth; /__mock/ answers listed origins only (D103);
//  6. journal: requests to the API (not to the mock's own endpoints) and their answers are
//     kept, exactly the last N per world within a bound shared by every world (D143),
//     credentials redacted by what their names mean (D142), for GET /__mock/requests;
//  7. route match: an unknown path answers 404 and a known path with another method 405
//     (with Allow), both in shape (a) and with the rate-limit headers of the client address;
//     the mock's own endpoints under /__mock/ answer only safe hosts and, for changes, their
//     own or listed origins (403 shape (b), D103), and need the admin token when one is set
//     (401 shape (b));
//  8. rate limit: the world's records are bound once for the whole request, then
//     X-RateLimit-Limit and X-RateLimit-Remaining go on every answer of an operation; once
//     spent, 429 shape (b) with Retry-After (per user, or per client address on public
//     operations and without a valid token, in the request's world; D14);
//  9. steer: the delay of --latency and of a matching fault rule, then a status forced by
//     `Prefer: code=NNN` or by the rule, in the interface's shape for it; no state changes;
//  10. auth: 401 shape (b) without a valid bearer token, 403 shape (b) for a non-superadmin on
//     a superadmin operation; decided before the body is read;
//  11. body: at most 1 MiB (413), one JSON object (400 otherwise), decoded once; empty counts
//     as {} (D2);
//  12. validation against the OpenAPI document with kin-openapi, the one field validator:
//     422 shape (c), errors keyed by field (D5), null and blank required fields worded as
//     missing (D44);
//  13. the operation's row on the reference store, whose error codes map to status in
//     the envelope writer's one table.
//
// Steps 11 and 12 answer only statuses the operation lists: where its codes have no 400, an
// unreadable body is 422 keyed by the fields the operation requires (D2); where they have no
// 422, failed fields are 400 shape (a) (D30).
//
// The mock's own endpoints (the controls: worlds, reset, clock, faults, journal, snapshots,
// the dashboard at GET /__mock/, the spec at /openapi.json and /openapi.yaml) are described
// in the README, "Steering the mock".
//
// It must not be imported by reference or fixtures.
package mockserver
