package explore

// A Rule is one property explore mode checks, in our own words. Ids are stable: failure
// messages, reproductions and the self-test's golden file name them.
type Rule struct {
	ID        string
	Statement string
}

// The ids of the properties (see Rules for their statements).
const (
	RuleSpecAnswer      = "SPEC-ANSWER"
	RuleStatusListed    = "STATUS-LISTED"
	RuleShape           = "SHAPE"
	RuleHeaders         = "HEADERS"
	RuleRetryAfter      = "RETRY-AFTER"
	RuleInvalidField    = "INVALID-FIELD"
	RuleValidAccepted   = "VALID-ACCEPTED"
	RuleNotFound        = "NOT-FOUND"
	RuleListCount       = "LIST-COUNT"
	RuleCommentPages    = "COMMENT-PAGES"
	RuleCartTotals      = "CART-TOTALS"
	RuleCartGone        = "CART-GONE"
	RuleCartToken       = "CART-TOKEN"
	RuleCartLocked      = "CART-LOCKED"
	RuleSyncIdempotent  = "SYNC-IDEMPOTENT"
	RuleDeprecateOnly   = "DEPRECATE-APPROVED"
	RuleDeprecatedStays = "DEPRECATED-STAYS"
	RuleThumbLimit      = "THUMB-LIMIT"
	RuleStatusMoves     = "STATUS-MOVES"
)

// Rules is the one table of explore mode's properties: what each checks, stated from the
// interface alone (never from a gap choice of docs/decisions.md).
var Rules = []Rule{
	// Checked on every answer.
	{RuleSpecAnswer, "Every answer matches the OpenAPI document for its operation and status: body, types and declared headers."},
	{RuleStatusListed, "An operation answers only the statuses the interface lists for it (or 413); operations whose codes the interface does not show are not judged on status."},
	{RuleShape, "The body has the shape its status calls for: the success envelope on 2xx, (a) on 400, 404, 409 and 500, (b) on 401 and 429, (a) or (b) on 403, (c) on 422."},
	{RuleHeaders, "Every answer but a validation error carries integer X-RateLimit-Limit and X-RateLimit-Remaining, the remaining count between 0 and the limit."},
	{RuleRetryAfter, "A 429 answer carries Retry-After in whole seconds."},
	// Checked on generated requests.
	{RuleInvalidField, "A body that breaks one field's type, required flag, enumeration or bound is refused with a validation error whose errors object is keyed by that field: status 422 where the operation lists it, any status where its codes are not shown, 400 where it lists no 422."},
	{RuleValidAccepted, "A body that satisfies every field rule, sent by a caller allowed to act on the records it names, is not answered with a validation error."},
	{RuleNotFound, "A request naming a record that does not exist answers 404 on operations that list 404."},
	// Checked by the model over sequences of calls.
	{RuleListCount, "A successful create adds exactly one record to its list (cards, tags, a card's comments, master boards); a refused create adds none."},
	{RuleCommentPages, "A page of comments never holds more comments than the per_page asked for."},
	{RuleCartTotals, "After a successful cart item removal the item is gone from the cart's items, item_count is one less than the cart's previous answer and total_price is not higher."},
	{RuleCartGone, "Removing a cart item that was already removed answers 404."},
	{RuleCartToken, "A cart item cannot be removed with the session token of another cart."},
	{RuleCartLocked, "Removing an item from a cart locked for checkout answers 409."},
	{RuleSyncIdempotent, "A master board sync repeated at once adds no card to a project: the member's card count does not change."},
	{RuleDeprecateOnly, "A theme version that is not approved is never deprecated: deprecating it is refused."},
	{RuleDeprecatedStays, "Once a theme version is deprecated, every later successful answer for it says deprecated."},
	{RuleThumbLimit, "No more than 5 thumbnail regenerations of one project are accepted within 10 minutes."},
	{RuleStatusMoves, "A successful tour card or master card update that sets status answers the card (when it answers it as an object) with that status."},
}

// Statement returns the statement of the rule id ("" when there is none).
func Statement(id string) string {
	for _, r := range Rules {
		if r.ID == id {
			return r.Statement
		}
	}
	return ""
}
