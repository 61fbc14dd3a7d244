package conformance

import (
	"fmt"
	"sort"
	"strings"
)

// A Rule is one rule the suite checks, in our own words, with the section of the interface it
// comes from. Contract rules rest only on what the interface states; reference rules rest on one
// of our choices for a gap (docs/decisions.md), named by Decision.
//
// Every contract spec carries a `rule:<ID>` label for each rule it checks, and every failure
// message cites the rule (Cite), so a vendor needs no other document to read a verdict. The
// registry is rendered to conformance/rules.md (go test ./conformance/selftest -run TestRulesDocument
// -update).
type Rule struct {
	// ID is stable: specs, labels and reports name rules by it.
	ID string
	// Statement says what a deployment must do, in our words.
	Statement string
	// Source names the section of the interface the rule comes from.
	Source string
	// Decision is the D-id of docs/decisions.md a reference rule rests on; empty for contract
	// rules.
	Decision string
	// EveryAnswer marks a rule the suite checks on every answer it receives (whatever the spec),
	// so no spec needs to name it.
	EveryAnswer bool
}

// Contract reports whether the rule rests only on what the interface states.
func (r Rule) Contract() bool { return r.Decision == "" }

// Rules is the registry, grouped by theme. Ids never change meaning; a retired rule keeps its id
// out of use.
var Rules = []Rule{
	// Envelope and statuses.
	{ID: "ENV-1", Source: "Conventions (3)",
		Statement: "A success answer is a JSON object with `error` (a boolean), `message` (a string) and `data`."},
	{ID: "ENV-2", Source: "Endpoints (error body shapes); Errors",
		Statement: "A 400, 404, 409 or 500 answer has body shape (a): `error` boolean, `message` string, `data` array."},
	{ID: "ENV-3", Source: "Endpoints (error body shapes); Errors",
		Statement: "A 401 or 429 answer has body shape (b): `error` and `message` and nothing else; a 403 has shape (a) or (b)."},
	{ID: "DOC-1", Source: "Resources; Endpoints (as encoded in spec/openapi.yaml)", EveryAnswer: true,
		Statement: "Every answer matches the OpenAPI document: the fields it names have the types it gives them."},
	{ID: "STATUS-1", Source: "Endpoints (the codes listed per operation)", EveryAnswer: true,
		Statement: "An operation answers only the statuses listed for it (413, for a body too large, is allowed everywhere). Operations whose codes are not listed (authenticate, master board create, card create, master group create, comment create, tag create) are not judged on their status."},
	{ID: "STATUS-2", Source: "Endpoints; Errors (201 row)",
		Statement: "A success is 201 on master card create and 200 on every other operation whose codes are listed; where codes are not listed any 2xx is a success."},
	{ID: "DATA-1", Source: "Endpoints; Resources",
		Statement: "A success carries in `data` what the operation names, with the types the interface gives (records, counters, lists, the pagination object)."},
	{ID: "HDR-1", Source: "Endpoints (rate-limit headers)",
		Statement: "Every answer except a validation error carries `X-RateLimit-Limit` and `X-RateLimit-Remaining` as integers, Remaining between 0 and Limit."},

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
	{ID: "ERR-1", Source: "Errors (rule 1)",
		Statement: "A body field that breaks its type, required flag, enumeration or maximum length is answered with a validation error: 422 in shape (c), `errors` keyed by the field (where the operation's codes are not listed, the shape (c) body alone is judged)."},
	{ID: "ERR-2", Source: "Limits; Endpoints (min/max)",
		Statement: "A number below its minimum or above its maximum is a validation error keyed by the field, like ERR-1."},
	{ID: "ERR-3", Source: "Endpoints; Limits",
		Statement: "A value exactly at the bound of its constraint (longest length, smallest or largest number, each enumeration value) is valid: no validation error names the field."},
	{ID: "ERR-4", Source: "Errors (rule 2)",
		Statement: "On an operation that lists 404, a record that does not exist is answered with 404 in shape (a)."},

	// Rate limits.
	{ID: "LIMIT-1", Source: "Limits (rate-limit headers)",
		Statement: "`X-RateLimit-Remaining` is what is left of the current window: two answers in a row in one window count down."},
	{ID: "LIMIT-2", Source: "Limits; Errors (429)",
		Statement: "`X-RateLimit-Limit` is the most requests a minute: more than twice that many requests within one minute meet a 429 in shape (b) with an integer `Retry-After`."},
	{ID: "LIMIT-3", Source: "Limits (thumbnail regeneration)",
		Statement: "At most 5 thumbnail regenerations succeed per project in 10 minutes: once 5 have succeeded for a project within the last 10 minutes, the next is 429 in shape (b) with `Retry-After`."},

	// Domain cart.
	{ID: "CART-1", Source: "Endpoints (22); Resources (cart)",
		Statement: "Removing a cart item with its cart's session token answers 200 with `data.cart`; the item is gone, so removing it again is 404."},
	{ID: "CART-2", Source: "Resources (cart); Endpoints (22)",
		Statement: "`item_count` follows the cart: it is the number of entries of `items`, and each removal lowers it by one without raising `total_price`."},
	{ID: "CART-3", Source: "Endpoints (22)",
		Statement: "The session token proves the item is in the cart being changed: a removal with another cart's token is refused and leaves the item in its cart (its own token still removes it)."},
	{ID: "CART-4", Source: "Errors (rule 3); States and transitions",
		Statement: "A cart locked for checkout refuses every removal with 409 in shape (a), and keeps its items."},

	// Transitions and effects.
	{ID: "TRANS-1", Source: "States and transitions (master card / tour card status)",
		Statement: "Master card update and tour card update move the card to the status given; where the answer's card is an object with a `status`, it is that status."},
	{ID: "TRANS-2", Source: "States and transitions (conversation)",
		Statement: "Restoring an archived conversation that exists answers 200 with `data` an empty array."},
	{ID: "TRANS-3", Source: "States and transitions (theme version); Endpoints (24)",
		Statement: "Deprecating an approved theme version answers `theme_status` \"deprecated\" and `version_id` as a string."},
	{ID: "TRANS-4", Source: "Endpoints (24)",
		Statement: "A theme version that is not approved cannot be deprecated: the answer is a refusal status the operation lists (400, 403 or 422; 409 belongs to carts), in that status's shape."},
	{ID: "PUSH-1", Source: "Endpoints (3, push_to_projects)",
		Statement: "A master card created with `push_to_projects` reaches the projects: the member's project lists one more card."},
	{ID: "SYNC-1", Source: "Endpoints (10)",
		Statement: "A board sync re-syncs every project, adding the master board's cards they lack: a master card created without push reaches the member's project, and a second sync adds no card."},
	{ID: "SNOOZE-1", Source: "Endpoints (5, 8)",
		Statement: "A widget card snoozed into the future counts in `snoozed_count` and leaves the widget list when `include_snoozed` is false; with `include_snoozed` true it stays listed."},
	{ID: "GROUP-1", Source: "Endpoints (11); Errors (rule 2)",
		Statement: "Deleting a group answers 200 with `data` an empty array; the group is gone, so deleting the same id again is 404."},
	{ID: "COMMENT-1", Source: "Endpoints (20); Resources (comment)",
		Statement: "A comment created on a card is counted by that card's comment list: its `total` grows; a reply carries its parent's id in `parent_comment_id`."},
	{ID: "PAGE-1", Source: "Resources (pagination object); Endpoints (2)",
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

// RuleByID returns the rule with id.
func RuleByID(id string) (Rule, bool) {
	for _, r := range Rules {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}

// Cite renders rule id for a failure message: its id, its statement and its source. An unknown
// id panics: it is a suite bug caught by the suite's own tests at start.
func Cite(id string) string {
	r, ok := RuleByID(id)
	if !ok {
		panic(fmt.Sprintf("conformance: no rule %q in the registry", id))
	}
	if r.Contract() {
		return fmt.Sprintf("rule %s: %s (interface: %s)", r.ID, r.Statement, r.Source)
	}
	return fmt.Sprintf("rule %s (reference, %s): %s (gap: %s)", r.ID, r.Decision, r.Statement, r.Source)
}

// The citations the specs pass as Gomega's optional description.
var (
	RuleConventions3 = Cite("ENV-1")
	RuleShapeA       = Cite("ENV-2")
	RuleShapeB       = Cite("ENV-3")
	RuleSpecDocument = Cite("DOC-1")
	RuleListedCodes  = Cite("STATUS-2")
	RuleSuccess      = Cite("DATA-1")
	RuleHeaders      = Cite("HDR-1")
	RuleRemaining    = Cite("LIMIT-1")
	RuleLimit429     = Cite("LIMIT-2")
	RuleRetryAfter   = Cite("LIMIT-2")
	RuleThumbLimit   = Cite("LIMIT-3")
	RuleAuth1        = Cite("AUTH-1")
	RuleAuth2        = Cite("AUTH-2")
	RuleAuth3        = Cite("AUTH-3")
	RuleAuth5        = Cite("AUTH-4")
	RuleLogin        = Cite("AUTH-5")
	RuleErrors1      = Cite("ERR-1")
	RuleErrors1Body  = Cite("ERR-1")
	RuleLimits       = Cite("ERR-2")
	RuleBoundOK      = Cite("ERR-3")
	RuleErrors2      = Cite("ERR-4")
	RuleCart22       = Cite("CART-1")
	RuleCartCounts   = Cite("CART-2")
	RuleCartToken    = Cite("CART-3")
	RuleErrors3      = Cite("CART-4")
	RuleStatusMove   = Cite("TRANS-1")
	RuleRestore      = Cite("TRANS-2")
	RuleDeprecate    = Cite("TRANS-3")
	RuleNotApproved  = Cite("TRANS-4")
	RulePush         = Cite("PUSH-1")
	RuleSync         = Cite("SYNC-1")
	RuleSnooze       = Cite("SNOOZE-1")
	RuleGroupsDelete = Cite("GROUP-1")
	RuleComments     = Cite("COMMENT-1")
	RulePagination   = Cite("PAGE-1")
	RuleIsolation    = Cite("ISO-1")
	RuleStatus       = Cite("STATUS-1")
)

// RulesMarkdown renders the registry as the Markdown of conformance/rules.md.
func RulesMarkdown() string {
	var b strings.Builder
	b.WriteString("# Conformance rules\n\n")
	b.WriteString("<!-- Generated from conformance/rules.go; regenerate with `go test ./conformance/selftest -run TestRulesDocument -update` (or `make conformance-golden`). -->\n\n")
	b.WriteString("The rules the conformance suite checks, in our words, with the section of the interface each\n")
	b.WriteString("comes from. A spec carries a `rule:<id>` label per rule it checks, and a failure message cites\n")
	b.WriteString("the rule. **Contract** rules rest only on what the interface states: they are the verdict\n")
	b.WriteString("(`--ginkgo.label-filter=contract`). **Reference** rules rest on one of our choices for a gap\n")
	b.WriteString("(`docs/decisions.md`, by D-id) and never judge a vendor.\n\n")
	for _, contract := range []bool{true, false} {
		if contract {
			b.WriteString("## Contract rules\n\n| Id | Rule | Interface section |\n|---|---|---|\n")
		} else {
			b.WriteString("\n## Reference rules\n\n| Id | Choice | Gap | Decision |\n|---|---|---|---|\n")
		}
		for _, r := range Rules {
			if r.Contract() != contract {
				continue
			}
			st := strings.ReplaceAll(r.Statement, "|", "\\|")
			if r.EveryAnswer {
				st += " *(Checked on every answer.)*"
			}
			if contract {
				fmt.Fprintf(&b, "| %s | %s | %s |\n", r.ID, st, r.Source)
			} else {
				fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", r.ID, st, r.Source, r.Decision)
			}
		}
	}
	return b.String()
}

// RuleIDs lists the ids of the registry, sorted.
func RuleIDs() []string {
	ids := make([]string, 0, len(Rules))
	for _, r := range Rules {
		ids = append(ids, r.ID)
	}
	sort.Strings(ids)
	return ids
}
