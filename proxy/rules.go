package proxy

// Party says whose fault a violation is.
type Party string

const (
	// Deployment violations are the upstream's: its answer breaks the contract.
	Deployment Party = "deployment"
	// Client violations are the caller's: its request breaks the contract.
	Client Party = "client"
)

// Rule is one contract rule a single exchange can show broken.
type Rule struct {
	// ID is the rule's stable id, as it appears in X-Contract-Violations and the reports.
	ID string `json:"id"`
	// Statement says the rule in one sentence.
	Statement string `json:"statement"`
	// Party is who breaks the rule when it is broken.
	Party Party `json:"party"`
}

// The rule ids. They are the one place the proxy names its rules; the table Rules says each.
const (
	StatusListed     = "STATUS-LISTED"
	ShapeSuccess     = "SHAPE-SUCCESS"
	ShapeA           = "SHAPE-A"
	ShapeB           = "SHAPE-B"
	ShapeAOrB        = "SHAPE-A-OR-B"
	ShapeC           = "SHAPE-C"
	ErrorsByField    = "ERRORS-BY-FIELD"
	HeadersRateLimit = "HEADERS-RATELIMIT"
	RetryAfter       = "RETRY-AFTER"
	AnswerSchema     = "ANSWER-SCHEMA"
	InvalidAccepted  = "INVALID-ACCEPTED"
	UpstreamAnswers  = "UPSTREAM-ANSWERS"
	RequestSchema    = "REQUEST-SCHEMA"
)

// Rules is the table of every rule the proxy checks (docs/decisions.md, D90–D98).
var Rules = []Rule{
	{StatusListed, "The status is one the operation lists (413 included); authenticate and the creates of master boards, cards, master groups, comments and tags may answer any status, since their codes are not shown.", Deployment},
	{ShapeSuccess, "A success (2xx) body is a JSON object with `error` false, `message` a string and `data` present.", Deployment},
	{ShapeA, "A 400, 404, 409 or 500 body is shape (a): `error` true, `message` a string and `data` an array.", Deployment},
	{ShapeB, "A 401 or 429 body is shape (b): `error` true and `message` a string, nothing else (authenticate may add its `errors` list).", Deployment},
	{ShapeAOrB, "A 403 body is shape (a) or shape (b).", Deployment},
	{ShapeC, "A 422 body is shape (c): `message` a string and `errors` an object whose every value is a list of strings.", Deployment},
	{ErrorsByField, "The `errors` of a 422 name at least one field, and every key is a field of the operation's request body.", Deployment},
	{HeadersRateLimit, "Every answer of an operation carries X-RateLimit-Limit and X-RateLimit-Remaining as non-negative integers, Remaining not above Limit (a 422 may leave them out, but if it sends them they must be integers).", Deployment},
	{RetryAfter, "A 429 carries Retry-After as a whole number of seconds.", Deployment},
	{AnswerSchema, "The body of an answer with a listed status matches the OpenAPI document's schema for that status: field names, types, enumerations and nullability.", Deployment},
	{InvalidAccepted, "A request that breaks a field rule (type, required, enumeration, format, length or range) is not answered with success.", Deployment},
	{UpstreamAnswers, "The deployment answers every request; the proxy answered 502 because it could not get an answer.", Deployment},
	{RequestSchema, "The request body is a JSON object that matches the operation's request schema: field types, required fields, enumerations, formats, lengths and ranges.", Client},
}

// rulesByID indexes Rules.
var rulesByID = func() map[string]Rule {
	m := make(map[string]Rule, len(Rules))
	for _, r := range Rules {
		m[r.ID] = r
	}
	return m
}()

// Violation is one rule broken by one exchange.
type Violation struct {
	Rule   string `json:"rule"`
	Party  Party  `json:"party"`
	Detail string `json:"detail"`
}

// violation builds a Violation of rule id with a detail.
func violation(id, detail string) Violation {
	return Violation{Rule: id, Party: rulesByID[id].Party, Detail: detail}
}
