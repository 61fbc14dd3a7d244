package conformance

// The interface rules the specs check, quoted with their section of ../shared/interface.md, and
// the decisions (docs/decisions.md) reference specs rest on. Assertions pass them as Gomega's
// optional description, so a failure names the rule broken.
const (
	RuleConventions3 = "interface §Conventions 3: a success body has `error` (boolean), `message` (string) and `data`"
	RuleShapeA       = "interface §Endpoints, error body shape (a): `error` boolean, `message` string, `data` array"
	RuleShapeB       = "interface §Endpoints, error body shape (b): `error`, `message` only (401, 403, 429)"
	RuleShapeC       = "interface §Endpoints, error body shape (c): validation: `message` string and `errors` object"
	RuleHeaders      = "interface §Endpoints: every response carries headers `X-RateLimit-Limit` (integer) and `X-RateLimit-Remaining` (integer)"
	RuleRetryAfter   = "interface §Endpoints: a 429 response also carries `Retry-After` (integer seconds); §Errors: 429 is shape (b) with Retry-After"
	RuleRemaining    = "interface §Limits: `X-RateLimit-Remaining` is the number left in the current window; `X-RateLimit-Limit` is the maximum requests per minute"
	RuleLimit429     = "interface §Errors: 429 Rate limit exceeded, shape (b) with `Retry-After`"
	RuleThumbLimit   = "interface §Limits: thumbnail regeneration, 5 requests per project per 10 minutes"
	RuleAuth1        = "interface §Authentication rule 1: every operation except /v1/authenticate and domain-cart/remove requires an `Authorization: Bearer <ACCESS_TOKEN>` header"
	RuleAuth2        = "interface §Authentication rule 2: a missing or invalid bearer token yields an unauthenticated response (401), shape (b)"
	RuleAuth3        = "interface §Authentication rules 3-4: operations under /admin/ marked S require superadmin access; insufficient permissions yield 403, shape (a) or (b)"
	RuleLogin        = "interface §What the service does: authenticate authenticates a user by e-mail and password (a wrong password authenticates no one)"
	RuleAuth5        = "interface §Authentication rule 5: the authenticate operation returns a `token` in its data"
	RuleErrors1      = "interface §Errors rule 1: when a body field violates its type, required flag, enumeration or maximum length, the response is a validation error (422, shape (c)) with `errors` keyed by field"
	RuleErrors1Body  = "interface §Errors rule 1 and §Endpoints (codes of this operation not shown): a field violation answers a validation error body, shape (c), with `errors` keyed by field"
	RuleLimits       = "interface §Limits: the field's minimum/maximum; a value past it is a validation error (422, shape (c)) keyed by field"
	RuleBoundOK      = "interface §Endpoints/§Limits: a value at the bound of its constraint is valid, so it must not answer a validation error for that field"
	RuleErrors2      = "interface §Errors rule 2: when the requested record does not exist, 404 (shape (a)) is returned on operations that list 404"
	RuleErrors3      = "interface §Errors rule 3: when a cart item removal targets a cart locked for checkout, 409 (shape (a)) is returned"
	RuleCart22       = "interface §Endpoints 22: the `session_token` proves that the item belongs to the cart being changed; the answer is `data.cart`"
	RuleListedCodes  = "interface §Endpoints: the response codes listed for the operation"
	RuleSuccess      = "interface §Endpoints: the operation's success answer and its `data`"
	RuleSpecDocument = "interface §Resources and §Endpoints, as encoded in the OpenAPI document (spec/openapi.yaml): the answer must match it"
	RuleDeprecate    = "interface §States and transitions: a theme version with approval_status approved moves to theme_status deprecated; only a version with approval_status approved can be deprecated (§Endpoints 24)"
	RuleRestore      = "interface §States and transitions: an archived conversation whose conversation_id exists is restored (§Endpoints 12: 200, `data` an empty array)"
	RuleStatusMove   = "interface §States and transitions: master card / tour card status moves to the given status"
	RuleSync         = "interface §Endpoints 10: re-syncs all projects; `data.synced_count`, `data.boards_created`, `data.skipped_no_access` are integers"
	RuleGroupsDelete = "interface §Endpoints 11: 200, `data` is an empty array"
)
