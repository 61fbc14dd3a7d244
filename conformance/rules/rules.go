// Package rules is the registry of the rules the conformance suite and the validating proxy
// check, in our own words, with stable ids: one table both read (the suite cites a rule in its
// labels and failure messages, the proxy in X-Contract-Violations and its reports), rendered
// to conformance/rules.md.
//
// It imports nothing but the standard library: the proxy uses it without the suite's test
// dependencies (Ginkgo, Gomega).
package rules

import (
	"fmt"
	"sort"
	"strings"
)

// Checker says who checks a rule.
type Checker uint8

const (
	// Suite rules are checked by specs of the conformance suite (each cites it in a rule:<id>
	// label), or on every answer the suite gets (Rule.EveryAnswer).
	Suite Checker = 1 << iota
	// Proxy rules are checked by the validating proxy (package proxy) on every exchange.
	Proxy
	// Explore rules are checked by explore mode (package conformance/explore) on generated
	// requests and sequences.
	Explore
)

// A Rule is one rule, in our own words, with the section of the interface it comes from.
// Contract rules rest only on what the interface states; reference rules rest on one of our
// choices for a gap (docs/decisions.md), named by Decision.
type Rule struct {
	// ID is stable: specs, labels, proxy headers and reports name rules by it.
	ID string
	// Statement says what a deployment (or, for a Client rule, a client) must do, in our words.
	Statement string
	// Source names the section of the interface the rule comes from.
	Source string
	// Decision is the D-id of docs/decisions.md a reference rule rests on; empty for contract
	// rules.
	Decision string
	// EveryAnswer marks a rule the suite checks on every answer it receives (whatever the spec),
	// so no spec needs to name it.
	EveryAnswer bool
	// By says who checks the rule; zero means the suite only. A rule the suite does not check
	// (By is Proxy or Explore) needs no spec.
	By Checker
	// Client marks a rule that binds the client, not the deployment (the proxy reports it as the
	// client's).
	Client bool
}

// Contract reports whether the rule rests only on what the interface states.
func (r Rule) Contract() bool { return r.Decision == "" }

// CheckedBy reports whether c checks the rule.
func (r Rule) CheckedBy(c Checker) bool {
	by := r.By
	if by == 0 {
		by = Suite
	}
	return by&c != 0
}

// All is the registry, grouped by theme. Ids never change meaning; a retired rule keeps its id
// out of use.
var All = []Rule{
	// Envelope and statuses.
	{ID: "ENV-1", By: Suite | Proxy | Explore, Source: "Conventions (3)",
		Statement: "A success answer is a JSON object with `error` (a boolean), `message` (a string) and `data`."},
	{ID: "ENV-2", By: Suite | Proxy | Explore, Source: "Endpoints (error body shapes); Errors",
		Statement: "A 400, 404, 409 or 500 answer has body shape (a): `error` boolean, `message` string, `data` array."},
	{ID: "ENV-3", By: Suite | Proxy | Explore, Source: "Endpoints (error body shapes); Errors",
		Statement: "A 401 or 429 answer has body shape (b): `error` and `message` and nothing else; a 403 has shape (a) or (b)."},
	{ID: "ENV-4", Source: "Endpoints (error body shapes); Errors", By: Proxy | Explore,
		Statement: "A 422 answer has body shape (c): `message` a string and `errors` an object whose every value is a list of strings."},
	{ID: "DOC-1", By: Suite | Proxy | Explore, Source: "Resources; Endpoints (as encoded in spec/openapi.yaml)", EveryAnswer: true,
		Statement: "Every answer matches the OpenAPI document: the fields it names have the types it gives them."},
	{ID: "STATUS-1", By: Suite | Proxy | Explore, Source: "Endpoints (the codes listed per operation)", EveryAnswer: true,
		Statement: "An operation answers only the statuses listed for it (413, for a body too large, is allowed everywhere). Operations whose codes are not listed (authenticate, master board create, card create, master group create, comment create, tag create) are not judged on their status."},
	{ID: "STATUS-2", Source: "Endpoints; Errors (201 row)",
		Statement: "A success is 201 on master card create and 200 on every other operation whose codes are listed; where codes are not listed any 2xx is a success."},
	{ID: "DATA-1", Source: "Endpoints; Resources",
		Statement: "A success carries in `data` what the operation names, with the types the interface gives (records, counters, lists, the pagination object)."},
	{ID: "HDR-1", By: Suite | Proxy | Explore, Source: "Endpoints (rate-limit headers)",
		Statement: "Every answer except a validation error carries `X-RateLimit-Limit` and `X-RateLimit-Remaining` as integers, Remaining between 0 and Limit."},
	{ID: "HDR-2", Source: "Endpoints (rate-limit headers); Errors (429)", By: Proxy | Explore,
		Statement: "A 429 answer carries `Retry-After` as a whole number of seconds."},
	{ID: "UP-1", Source: "Conventions (every operation answers)", By: Proxy,
		Statement: "The deployment answers every request of an operation with an HTTP answer (a proxy in front of it otherwise answers 502)."},
	{ID: "REQ-1", Source: "Endpoints (request fields); Limits", By: Proxy, Client: true,
		Statement: "A client's request body is a JSON object that matches the operation's request schema: field types, required fields, enumerations, formats, lengths and ranges."},

	// Authentication.
	{ID: "AUTH-1", Source: "Authentication (1, 2)",
		Statement: "Every operation but authenticate and domain cart removal needs a bearer token: without one the answer is 401 in shape (b)."},
	{ID: "AUTH-2", Source: "Authentication (2)",
		Statement: "A bearer token the deployment did not issue is answered with 401 in shape (b)."},
	{ID: "AUTH-3", Source: "Authentication (3, 4)",
		Statement: "The superadmin (S) operations under /admin/ refuse a user who is not a superadmin with 403, in shape (a) or (b)."},
	{ID: "AUTH-4", Source: "Authentication (5); Resources (login result)",
		Statement: "Authenticate with valid credentials answers a login result whose `token` is a non-empty string."},
	{ID: "AUTH-5", Source: "What the service does (account)",
		Statement: "Authenticate with a wrong password is refused (an error status) and hands out no token."},

	// Validation.
	{ID: "ERR-1", By: Suite | Explore, Source: "Errors (rule 1)",
		Statement: "A body field that breaks its type, required flag, enumeration or maximum length is answered with a validation error: 422 in shape (c), `errors` keyed by the field (where the operation's codes are not listed, the shape (c) body alone is judged)."},
	{ID: "ERR-2", Source: "Limits; Endpoints (min/max)",
		Statement: "A number below its minimum or above its maximum is a validation error keyed by the field, like ERR-1."},
	{ID: "ERR-3", Source: "Endpoints; Limits",
		Statement: "A value exactly at the bound of its constraint (longest length, smallest or largest number, each enumeration value) is valid: no validation error names the field."},
	{ID: "ERR-4", By: Suite | Explore, Source: "Errors (rule 2)",
		Statement: "On an operation that lists 404, a record that does not exist is answered with 404 in shape (a)."},
	{ID: "ERR-5", Source: "Endpoints (body (c): detail per failed field)", By: Proxy,
		Statement: "The `errors` of a validation error name at least one field and, when the request breaks the rules of some of its fields, one of those fields."},
	{ID: "ERR-7", Source: "Errors (rule 1); Endpoints (request fields)", By: Explore,
		Statement: "A body that satisfies every field rule, sent by a caller allowed to act on the records it names, is not answered with a validation error."},
	{ID: "ERR-6", Source: "Errors (rule 1)", By: Proxy,
		Statement: "A request that breaks a field rule (type, required flag, enumeration, format, length or range) is never answered with a success."},

	// Rate limits.
	{ID: "LIMIT-1", Source: "Limits (rate-limit headers)",
		Statement: "`X-RateLimit-Remaining` is what is left of the current window: two answers in a row in one window count down."},
	{ID: "LIMIT-2", Source: "Limits; Errors (429)",
		Statement: "`X-RateLimit-Limit` is the most requests a minute: more than twice that many requests within one minute meet a 429 in shape (b) with an integer `Retry-After`."},
	{ID: "LIMIT-3", By: Suite | Explore, Source: "Limits (thumbnail regeneration)",
		Statement: "At most 5 thumbnail regenerations succeed per project in 10 minutes: once 5 have succeeded for a project within the last 10 minutes, the next is 429 in shape (b) with `Retry-After`."},

	// Domain cart.
	{ID: "CART-1", By: Suite | Explore, Source: "Endpoints (22); Resources (cart)",
		Statement: "Removing a cart item with its cart's session token answers 200 with `data.cart`; the item is gone, so removing it again is 404."},
	{ID: "CART-2", By: Suite | Explore, Source: "Resources (cart); Endpoints (22)",
		Statement: "`item_count` follows the cart: it is the number of entries of `items`, and each removal lowers it by one without raising `total_price`."},
	{ID: "CART-3", By: Suite | Explore, Source: "Endpoints (22)",
		Statement: "The session token proves the item is in the cart being changed: a removal with another cart's token is refused and leaves the item in its cart (its own token still removes it)."},
	{ID: "CART-4", By: Suite | Explore, Source: "Errors (rule 3); States and transitions",
		Statement: "A cart locked for checkout refuses every removal with 409 in shape (a), and keeps its items."},

	// Transitions and effects.
	{ID: "TRANS-1", By: Suite | Explore, Source: "States and transitions (master card / tour card status)",
		Statement: "Master card update and tour card update move the card to the status given; where the answer's card is an object with a `status`, it is that status."},
	{ID: "TRANS-2", Source: "States and transitions (conversation)",
		Statement: "Restoring an archived conversation that exists answers 200 with `data` an empty array."},
	{ID: "TRANS-3", Source: "States and transitions (theme version); Endpoints (24)",
		Statement: "Deprecating an approved theme version answers `theme_status` \"deprecated\" and `version_id` as a string."},
	{ID: "TRANS-4", By: Suite | Explore, Source: "Endpoints (24)",
		Statement: "A theme version that is not approved cannot be deprecated: the answer is a refusal status the operation lists (400, 403 or 422; 409 belongs to carts), in that status's shape."},
	{ID: "TRANS-5", Source: "States and transitions (theme version)", By: Explore,
		Statement: "Once a theme version is deprecated, every later successful answer about it says deprecated."},
	{ID: "LIST-1", Source: "Endpoints (creates and lists: cards, tags, comments, master boards)", By: Explore,
		Statement: "A successful create adds exactly one entry to its list (cards, tags, a card's comments, master boards), and a refused create adds none."},
	{ID: "PUSH-1", Source: "Endpoints (3, push_to_projects)",
		Statement: "A master card created with `push_to_projects` reaches the projects: the member's project lists one more card."},
	{ID: "SYNC-1", By: Suite | Explore, Source: "Endpoints (10)",
		Statement: "A board sync re-syncs every project, adding the master board's cards they lack: a master card created without push reaches the member's project, and a second sync adds no card."},
	{ID: "SNOOZE-1", Source: "Endpoints (5, 8)",
		Statement: "A widget card snoozed into the future counts in `snoozed_count` and leaves the widget list when `include_snoozed` is false; with `include_snoozed` true it stays listed."},
	{ID: "GROUP-1", Source: "Endpoints (11); Errors (rule 2)",
		Statement: "Deleting a group answers 200 with `data` an empty array; the group is gone, so deleting the same id again is 404."},
	{ID: "COMMENT-1", Source: "Endpoints (20); Resources (comment)",
		Statement: "A comment created on a card is counted by that card's comment list: its `total` grows; a reply carries its parent's id in `parent_comment_id`."},
	{ID: "PAGE-1", By: Suite | Explore, Source: "Resources (pagination object); Endpoints (2)",
		Statement: "Pagination adds up: `per_page` and `current_page` are the values asked for, `total_pages` is `total` divided by `per_page` rounded up (0 or 1 for no comments), and a page lists `per_page` comments, or what is left on the last page, or none past it."},
	{ID: "ISO-1", Source: "Authentication (3); the manifest's outsider, a user of another project",
		Statement: "A user of another project cannot act on the member's records: the request is refused with an error status the operation lists."},

	// Reference rules: our choices for gaps, never a verdict on a vendor.
	{ID: "REF-LIMIT", Source: "Limits (per-minute window: scope not shown)", Decision: "D14",
		Statement: "The window is kept per user and operation (every token of a user shares it, so logging in again does not reset it) and Retry-After is at most 60 seconds."},
	{ID: "REF-THUMB", Source: "Limits (thumbnail accounting not shown)", Decision: "D15",
		Statement: "A refused regeneration answers Retry-After of at most 600 seconds, until the oldest of the five leaves the window."},
	{ID: "REF-GROUP", Source: "Endpoints (11: effect on cards not shown)", Decision: "D25",
		Statement: "Deleting a group takes its cards out of the lists."},
	{ID: "REF-CART", Source: "Endpoints (22: the refusal status of a wrong token not shown)", Decision: "D35",
		Statement: "A wrong session token is answered with 404; a locked cart answers 409 whatever the item."},
	{ID: "REF-COUNTS", Source: "Resources (cart item shape not shown)", Decision: "D34",
		Statement: "`total_price` is the sum of the items' `price`, rounded to cents."},
}

// ByID returns the rule with id.
func ByID(id string) (Rule, bool) {
	for _, r := range All {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}

// IDs lists the ids of the registry, sorted.
func IDs() []string {
	ids := make([]string, 0, len(All))
	for _, r := range All {
		ids = append(ids, r.ID)
	}
	sort.Strings(ids)
	return ids
}

// Cite renders rule id for a failure message: its id, its statement and its source. An unknown
// id panics: it is a bug caught by the tests at start.
func Cite(id string) string {
	r, ok := ByID(id)
	if !ok {
		panic(fmt.Sprintf("rules: no rule %q in the registry", id))
	}
	if r.Contract() {
		return fmt.Sprintf("rule %s: %s (interface: %s)", r.ID, r.Statement, r.Source)
	}
	return fmt.Sprintf("rule %s (reference, %s): %s (gap: %s)", r.ID, r.Decision, r.Statement, r.Source)
}

// checkedBy renders who checks r, for rules.md.
func checkedBy(r Rule) string {
	var who []string
	if r.CheckedBy(Suite) {
		who = append(who, "suite")
	}
	if r.CheckedBy(Proxy) {
		who = append(who, "proxy")
	}
	if r.CheckedBy(Explore) {
		who = append(who, "explore")
	}
	s := strings.Join(who, ", ")
	if r.Client {
		s += " (binds the client)"
	}
	return s
}

// Markdown renders the registry as the Markdown of conformance/rules.md.
func Markdown() string {
	var b strings.Builder
	b.WriteString("# Conformance rules\n\n")
	b.WriteString("<!-- Generated from conformance/rules/rules.go; regenerate with `go test ./conformance/selftest -run TestRulesDocument -update` (or `make conformance-golden`). -->\n\n")
	b.WriteString("The rules the conformance suite and the validating proxy check, in our words, with the section\n")
	b.WriteString("of the interface each comes from. A spec carries a `rule:<id>` label per rule it checks, a\n")
	b.WriteString("failure message cites the rule, and the proxy names broken rules by id in `X-Contract-Violations`.\n")
	b.WriteString("**Contract** rules rest only on what the interface states: they are the verdict\n")
	b.WriteString("(`--ginkgo.label-filter=contract`). **Reference** rules rest on one of our choices for a gap\n")
	b.WriteString("(`docs/decisions.md`, by D-id) and never judge a vendor. *Checked by*: the suite (a spec, or\n")
	b.WriteString("every answer), the proxy (every exchange it forwards), or both.\n\n")
	for _, contract := range []bool{true, false} {
		if contract {
			b.WriteString("## Contract rules\n\n| Id | Rule | Interface section | Checked by |\n|---|---|---|---|\n")
		} else {
			b.WriteString("\n## Reference rules\n\n| Id | Choice | Gap | Decision | Checked by |\n|---|---|---|---|---|\n")
		}
		for _, r := range All {
			if r.Contract() != contract {
				continue
			}
			st := strings.ReplaceAll(r.Statement, "|", "\\|")
			if r.EveryAnswer {
				st += " *(Checked on every answer.)*"
			}
			if contract {
				fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", r.ID, st, r.Source, checkedBy(r))
			} else {
				fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", r.ID, st, r.Source, r.Decision, checkedBy(r))
			}
		}
	}
	return b.String()
}
