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
	"slices"
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
	ID ID
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
	{ID: ENV1, By: Suite | Proxy | Explore, Source: "Conventions (3)", EveryAnswer: true,
		Statement: "A success answer is a JSON object with `error` (a boolean), `message` (a string) and `data`."},
	{ID: ENV2, By: Suite | Proxy | Explore, Source: "Endpoints (error body shapes); Errors", EveryAnswer: true,
		Statement: "A 400, 404, 409 or 500 answer has body shape (a): `error` boolean, `message` string, `data` array."},
	{ID: ENV3, By: Suite | Proxy | Explore, Source: "Endpoints (error body shapes; 1); Errors", EveryAnswer: true,
		Statement: "A 401 or 429 answer has body shape (b): `error` and `message` and nothing else, except that a refusal of authenticate other than its 429 may also carry the fields the interface lists among authenticate's answer fields, `errors` (a list of strings) and `data`; a 403 has shape (a) or (b)."},
	{ID: ENV4, Source: "Endpoints (error body shapes); Errors", By: Suite | Proxy | Explore, EveryAnswer: true,
		Statement: "A 422 answer has body shape (c): `message` a string and `errors` an object, with a detail per failed field in whatever form the deployment chose."},
	{ID: DOC1, By: Suite | Proxy | Explore, Source: "Resources; Endpoints (as encoded in spec/openapi.yaml)", EveryAnswer: true,
		Statement: "Every answer matches the OpenAPI document: the fields it names have the types it gives them."},
	{ID: STATUS1, By: Suite | Proxy | Explore, Source: "Endpoints (the codes listed per operation)", EveryAnswer: true,
		Statement: "An operation answers only the statuses listed for it (413, for a body too large, is allowed everywhere). Operations whose codes are not listed (authenticate, master board create, card create, master group create, comment create, tag create) are not judged on their status."},
	{ID: STATUS2, Source: "Endpoints; Errors (201 row)",
		Statement: "A success is 201 on master card create and 200 on every other operation whose codes are listed; where codes are not listed any 2xx is a success, unless its body says `error: true`, which makes it a refusal."},
	{ID: DATA1, Source: "Endpoints; Resources",
		Statement: "A success carries in `data` what the operation names, with the types the interface gives (records, counters, lists, the pagination object)."},
	{ID: HDR1, By: Suite | Proxy | Explore, Source: "Endpoints (rate-limit headers)", EveryAnswer: true,
		Statement: "Every answer except a validation error carries `X-RateLimit-Limit` and `X-RateLimit-Remaining` as integers, Remaining between 0 and Limit."},
	{ID: HDR2, Source: "Endpoints (rate-limit headers); Errors (429)", By: Suite | Proxy | Explore, EveryAnswer: true,
		Statement: "A 429 answer carries `Retry-After` as a whole number of seconds."},
	{ID: LIMIT6, Source: "Limits (rate-limit headers: per minute; Retry-After until reset)", By: Suite | Proxy | Explore, EveryAnswer: true,
		Statement: "A 429 of a per-minute limit (every operation but authenticate, whose throttle of failed logins the interface does not time, and thumbnails/regenerate, whose window is 10 minutes) says `Retry-After` of at most 60 seconds: a window of a minute resets within one (61 is allowed for rounding up); and once the seconds it says (and one more) have passed, the caller is served again (the suite's window specs judge this half; the proxy and explore judge the first on every answer)."},
	{ID: UP1, Source: "Conventions (every operation answers)", By: Proxy,
		Statement: "The deployment answers every request of an operation with a whole HTTP answer: a status, headers and a body that does not break off (a proxy in front of it answers 502 when none comes, and flags an answer whose body breaks off)."},
	{ID: REQ1, Source: "Endpoints (request fields); Limits", By: Proxy, Client: true,
		Statement: "A client's request body is a JSON object, sent as `application/json`, that matches the operation's request schema: field types, required fields, enumerations, formats, lengths and ranges."},

	// Authentication.
	{ID: AUTH1, Source: "Authentication (1, 2)",
		Statement: "Every operation but authenticate and domain cart removal needs a bearer token: without one the answer is 401 in shape (b)."},
	{ID: AUTH2, Source: "Authentication (2)",
		Statement: "A bearer token the deployment did not issue is answered with 401 in shape (b)."},
	{ID: AUTH3, Source: "Authentication (3, 4)",
		Statement: "The superadmin (S) operations under /admin/ refuse a user who is not a superadmin with 403, in shape (a) or (b)."},
	{ID: AUTH4, Source: "Authentication (5); Resources (login result)",
		Statement: "Authenticate with valid credentials answers a login result whose `token` is a non-empty string."},
	{ID: AUTH5, Source: "What the service does (account)",
		Statement: "Authenticate with a wrong password is refused (an error status, or `error: true` in a 2xx, since its codes are not shown) and hands out no token."},
	{ID: AUTH6, By: Suite | Explore, Source: "Authentication (1, 2)",
		Statement: "The bearer token counts only in the form `Authorization: Bearer <token>`: a valid token without the `Bearer` scheme, under another scheme (`Basic`, `Token`), or the scheme with no token is answered with 401 in shape (b)."},
	{ID: AUTH7, By: Suite | Explore, Source: "Authentication (1, 2); Endpoints (1, 22)",
		Statement: "The public domain cart removal takes no token: an Authorization header, valid, unknown or malformed, does not change its answer, which is never 401 (its listed codes have none). Authenticate is public too, but its codes are not shown and an invalid token's 401 is stated without naming operations, so what it answers to such a header is not judged."},

	// Validation.
	{ID: ERR1, By: Suite | Explore, Source: "Errors (rule 1)",
		Statement: "A body field that breaks its type (a fraction is not an integer, nor is an integer written as text; neither the text \"true\" nor the number 1 is a boolean; a date-time or an e-mail address where the interface gives that format, and a date alone is no date-time), required flag, enumeration (a value in other capitals, or a plausible word the enumeration does not hold, such as a status \"done\", is outside it) or maximum length is answered with a validation error: 422 (where the operation's codes are not listed, any refusal), whose shape (c) is ENV-4's and whose keys are ERR-5's."},
	{ID: ERR2, Source: "Limits; Endpoints (min/max)",
		Statement: "A number below its minimum or above its maximum is a validation error, like ERR-1."},
	{ID: ERR3, Source: "Endpoints; Limits",
		Statement: "A value exactly at the bound of its constraint (longest length, smallest or largest number, each enumeration value), and null for a field the interface marks null, is valid: no validation error names the field."},
	{ID: ERR4, By: Suite | Explore, Source: "Errors (rule 2)",
		Statement: "On an operation that lists 404, a record that does not exist is answered with 404 in shape (a)."},
	{ID: ERR8, By: Suite | Proxy | Explore, Source: "Errors (404: resource not found; rule 2)",
		Statement: "A record that exists is found: on an operation that lists 404, a request whose ids all name records the caller may act on (records of its own project, the fixtures' or ones it created, and master records for the superadmin; a user's id aside, since the interface describes no user record) is not answered 404. A record the deployment has just created may take as long to be found as a list may take to show it (`CONFORMANCE_PUSH_WAIT`, 20 seconds by default)."},
	{ID: ID1, By: Suite | Explore, Source: "Errors (rule 2); Endpoints (the codes listed per operation)",
		Statement: "An id field naming a record that does not exist (a user's id aside: the interface describes no user record), sent by a caller allowed to call the operation, is answered in a status the operation lists, in that status's shape; it is a refusal, never a success, on an operation that lists 404, and, for a required field, on an operation whose codes are not shown (a create attached to nothing); where the field names the record an update, delete or action acts on, the refusal is 404."},
	{ID: SCOPE1, By: Suite | Explore, Source: "Endpoints (4, 7, 9, 10)",
		Statement: "An operation scoped to one kind of record refuses a record of another kind in an error status it lists, in that status's shape, and leaves the record as it was: tour card update takes master tour cards only, master card and master group update take master records only, board sync takes master boards only."},
	{ID: ERR5, Source: "Endpoints (body (c): detail per failed field)", By: Suite | Proxy | Explore, EveryAnswer: true,
		Statement: "The `errors` of a validation error name at least one field and, when a request sent as JSON (its Content-Type says so) breaks the rules of some of its fields, one of those fields."},
	{ID: ERR7, Source: "Errors (rule 1); Endpoints (request fields)", By: Explore,
		Statement: "A body that satisfies every field rule, sent by a caller allowed to act on the records it names, is not answered with a validation error."},
	{ID: ERR6, Source: "Errors (rule 1)", By: Suite | Proxy | Explore, EveryAnswer: true,
		Statement: "A request that breaks a field rule (type, required flag, enumeration, format, length or range) is never answered with a success."},

	// Rate limits.
	{ID: LIMIT1, By: Suite | Proxy, Source: "Limits (rate-limit headers)",
		Statement: "`X-RateLimit-Remaining` is what is left of the current window, so answers in a row count it down: three answers of one operation to one caller, asked for one after another within one request's share of the minute (60 seconds / `X-RateLimit-Limit`), cannot all leave it at the same non-zero value (a slower caller may rightly see it kept, as a window refills that share meanwhile), when the two minutes before them held fewer requests than `X-RateLimit-Limit`, none sent a minute before them (a sliding log lets the requests of a minute ago go at once, and a sliding-window counter weighs the last minute down: after a burst, answers in a row may keep Remaining however quickly they come)."},
	{ID: LIMIT2, Source: "Limits; Errors (429)",
		Statement: "`X-RateLimit-Limit` is the most requests a minute: more than twice that many requests within one minute meet a 429 in shape (b) with an integer `Retry-After`."},
	{ID: LIMIT3, By: Suite | Explore, Source: "Limits (thumbnail regeneration)",
		Statement: "At most 5 thumbnail regenerations succeed per project in 10 minutes: once 5 have succeeded for a project within the last 10 minutes, the next is 429 in shape (b) with `Retry-After`."},
	{ID: LIMIT4, By: Suite | Explore, Source: "Limits (rate-limit headers)",
		Statement: "Each answer in a window spends one request: an answer leaves at most `X-RateLimit-Limit` − 1 in `X-RateLimit-Remaining`, between two answers in a row in one window Remaining goes down by exactly one, `X-RateLimit-Limit` stays the same, and the last request a window allows says 0 are left (some success before the first 429 says Remaining 0), after which only a reset or a refill of the window lets more through."},
	{ID: LIMIT5, Source: "Limits (thumbnail regeneration; rate-limit headers)",
		Statement: "The `Retry-After` of a thumbnail 429 counts seconds to the end of a 10-minute window: at most 600, and once that many seconds have passed the project may regenerate again; the window then beginning lasts 10 minutes, so once 5 regenerations succeed in it the next 429 asks to wait more than a minute."},

	// Domain cart.
	{ID: CART1, By: Suite | Proxy | Explore, Source: "Endpoints (22); Resources (cart)",
		Statement: "Removing a cart item with its cart's session token answers 200 with `data.cart`; the item is gone, so removing it again is 404."},
	{ID: CART2, By: Suite | Proxy | Explore, Source: "Resources (cart); Endpoints (22)",
		Statement: "`item_count` follows the cart: each removal lowers it (by how much is not stated: a cart item's shape is not shown, so it may count lines or units). `total_price` is not judged: how a cart prices its items (a discount on many, say) is not shown, so a removal may even raise it."},
	{ID: CART3, By: Suite | Explore, Source: "Endpoints (22)",
		Statement: "The session token proves the item is in the cart being changed: a removal with another cart's token, or with one that only resembles the cart's own (a part of it, a character changed), is refused and leaves the item in its cart (its own token still removes it). A token that differs from the cart's only in letter case or trailing blanks is not judged: a database may compare text without them."},
	{ID: CART4, By: Suite | Explore, Source: "Errors (rule 3); States and transitions",
		Statement: "A cart locked for checkout refuses every removal with 409 in shape (a), and keeps its items."},

	// Transitions and effects.
	{ID: TRANS1, By: Suite | Proxy | Explore, Source: "States and transitions (master card / tour card status)",
		Statement: "Master card update and tour card update move the card to the status given; where the answer's card is an object with a `status`, it is that status, unless another update of the card overlapped the request (a deployment may read the card back after that update wrote it)."},
	{ID: TRANS2, Source: "States and transitions (conversation)",
		Statement: "Restoring an archived conversation that exists answers 200 with `data` an empty array."},
	{ID: TRANS3, By: Suite | Proxy | Explore, Source: "States and transitions (theme version); Endpoints (24)",
		Statement: "A successful deprecation of a theme version answers `theme_status` \"deprecated\" (that `version_id` is a string is the OpenAPI document's, DOC-1)."},
	{ID: TRANS4, By: Suite | Explore, Source: "Endpoints (24)",
		Statement: "A theme version that is not approved cannot be deprecated: the answer is a refusal status the operation lists (400, 403, 404 or 422, since which one is not shown; 409 belongs to carts), in that status's shape."},
	{ID: TRANS5, Source: "States and transitions (theme version)", By: Explore,
		Statement: "Once a theme version is deprecated, every later successful answer about it says deprecated."},
	{ID: LIST1, Source: "Endpoints (creates and lists: cards, tags, comments, master boards)", By: Suite | Proxy | Explore,
		Statement: "A successful create adds one entry to its list (cards, tags, a card's comments, master boards), and a refused create adds none; where other writers may add theirs meanwhile (traffic through the proxy, specs running beside), a list read after a successful create counts at least one more entry."},
	{ID: PUSH1, Source: "Endpoints (3, push_to_projects)",
		Statement: "A master card created with `push_to_projects` reaches the projects: the member's project lists one more card (in its card list or in the widget list of the master board's tool: which list shows such copies is not stated)."},
	{ID: SYNC1, By: Suite | Explore, Source: "Endpoints (10)",
		Statement: "A board sync re-syncs every project, adding the master board's cards they lack: a master card created without push reaches the member's project, and a second sync adds no card."},
	{ID: SNOOZE1, Source: "Endpoints (5, 8)",
		Statement: "A widget card snoozed into the future counts in `snoozed_count` and leaves the widget list when `include_snoozed` is false; with `include_snoozed` true it stays listed."},
	{ID: TOOL1, Source: "Endpoints (8)",
		Statement: "The widget list filters cards by tool: for a tool key no board holds it lists no card (or refuses the request: which tools a project may ask for is not stated)."},
	{ID: GROUP1, By: Suite | Proxy, Source: "Endpoints (11); Errors (rule 2)",
		Statement: "Deleting a group answers 200 with `data` an empty array; the group is gone, so deleting the same id again is 404. What becomes of a group's cards is not stated, so a group is emptied before it is deleted, and a refusal to delete a group that still holds cards is not judged, nor a 403 (which groups a member may delete is not stated)."},
	{ID: COMMENT1, By: Suite | Proxy, Source: "Endpoints (20); Resources (comment)",
		Statement: "A comment created on a card is counted by that card's comment list: its `total` grows; a reply carries its parent's id in `parent_comment_id`."},
	{ID: PAGE1, By: Suite | Proxy | Explore, Source: "Resources (pagination object); Endpoints (2)",
		Statement: "Pagination adds up: `per_page` and `current_page` are the values asked for, `total_pages` is `total` divided by `per_page` rounded up (0 or 1 for no comments), and a page lists `per_page` comments, or what is left on the last page; a page past the last lists none, or is the last page again with `current_page` saying so, or is refused with a status the operation lists (what it answers is not shown)."},
	{ID: ISO1, By: Suite | Explore, Source: "Authentication (3); the manifest's outsider, a user of another project",
		Statement: "A user of another project cannot act on the member's records: the request is refused with an error status the operation lists. Theme versions are not judged: the interface ties them to no project."},

	// Reference rules: our choices for gaps, never a verdict on a vendor.
	{ID: REFLIMIT, Source: "Limits (per-minute window: scope not shown)", Decision: "D14",
		Statement: "The window is kept per user and operation (every token of a user shares it, so logging in again does not reset it) and Retry-After is at most 60 seconds."},
	{ID: REFTHUMB, Source: "Limits (thumbnail accounting not shown)", Decision: "D15",
		Statement: "A refused regeneration answers Retry-After of at most 600 seconds, until the oldest of the five leaves the window."},
	{ID: REFGROUP, Source: "Endpoints (11: effect on cards not shown)", Decision: "D25",
		Statement: "Deleting a group takes its cards out of the lists."},
	{ID: REFCART, Source: "Endpoints (22: the refusal status of a wrong token not shown)", Decision: "D35",
		Statement: "A wrong session token is answered with 404; a locked cart answers 409 whatever the item."},
	{ID: REFID, Source: "Errors (rule 2: the status of an absent reference on operations without 404 not shown)", Decision: "D28",
		Statement: "An id naming no record of the caller's project is answered with 404 where the operation lists it and with 422 keyed by the field where it does not (comment list); so is a record of another project."},
	{ID: REFLIMITFRESH, Source: "Limits (window kind not shown)", Decision: "D14",
		Statement: "The window is fixed: when `X-RateLimit-Remaining` goes up between two answers, a new window began, and its first answer says Limit − 1."},
	{ID: REFCOUNTS, Source: "Resources (cart item shape not shown)", Decision: "D34",
		Statement: "`total_price` is the sum of the items' `price`, rounded to cents."},
	{ID: REFERRORS, Source: "Errors (text of message values and keys inside errors not shown)", Decision: "D5",
		Statement: "Each value of a validation error's `errors` is a list of sentences about that field."},
}

// ByID returns the rule with id.
func ByID(id ID) (Rule, bool) {
	for _, r := range All {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}

// IDs lists the ids of the registry, sorted.
func IDs() []ID {
	ids := make([]ID, 0, len(All))
	for _, r := range All {
		ids = append(ids, r.ID)
	}
	slices.Sort(ids)
	return ids
}

// Cite renders rule id for a failure message: its id, its statement and its source. An unknown
// id panics: it is a bug caught by the tests at start.
func Cite(id ID) string {
	r, ok := ByID(id)
	if !ok {
		panic(fmt.Sprintf("rules: no rule %q in the registry", id))
	}
	if r.Contract() {
		return fmt.Sprintf("rule %s: %s (interface: %s)", r.ID, r.Statement, r.Source)
	}
	return fmt.Sprintf("rule %s (the reference's choice): %s (gap: %s)", r.ID, r.Statement, r.Source)
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
