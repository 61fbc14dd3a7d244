// Package reference is the stateful, in-memory reference implementation of every operation of
// the interface (the Operations, Account, Domain and Website Service Interface): projects, users
// and tokens, boards, groups, cards, tags, comments, master templates with push and sync,
// conversations, anonymous domain carts, website entities and theme versions.
//
// It holds the domain only: types, rules, state transitions and typed error codes (see Error).
// It never imports net/http; the HTTP adapter lives in package mockserver, which maps the error
// codes of this package to HTTP status codes in one table.
//
// A Store is safe for concurrent use. Values are copied in and out; no method hands out a
// pointer into the store. Time comes in through WithClock and randomness through WithRandom,
// never from time.Now or a global source inside a rule.
//
// Choices for the gaps of the interface are documented in docs/decisions.md and cited here as
// D1, D2, ...
package reference
