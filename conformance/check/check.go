// Package check is the one contract checker: pure functions that judge one exchange (an
// operation's request and its answer) against the rules one exchange can show broken, and a
// small tracker of the rules that span the exchanges of one caller. The conformance suite's
// matchers, the validating proxy and explore mode all judge through it, so one broken fact gets
// one rule id whoever finds it.
//
// It imports only spec, conformance/rules, kin-openapi, the standard library and small readers of
// JSON text it shares with the mock (internal/jsonone, jsonnest, jsonnum, prefer, text): never Ginkgo,
// never the mock.
package check

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/opsapi/mocktoolkit/conformance/rules"
	"github.com/opsapi/mocktoolkit/internal/prefer"
	"github.com/opsapi/mocktoolkit/spec"
)

// Exchange is one request of an operation and its answer, as a caller saw them.
type Exchange struct {
	// Op is the operation the request was sent to.
	Op spec.Operation
	// ReqHeader and ReqBody are the request as sent.
	ReqHeader http.Header
	ReqBody   []byte
	// ReqPartial says ReqBody is only the start of the request body: its fields are not judged.
	ReqPartial bool
	// Status, Header and Body are the answer.
	Status int
	Header http.Header
	Body   []byte
	// BodyPartial says Body is only the start of the answer: its shape is not judged.
	BodyPartial bool
}

// Violation is one rule an exchange breaks.
type Violation struct {
	Rule   rules.ID `json:"rule"`
	Detail string   `json:"detail"`
	// Op is the operation that broke the rule when it is not the judged exchange's own: a list
	// that does not count what was created shows LIST-1 (COMMENT-1), which the creates before
	// it broke. Reports charge the rule to it, as the suite's and explore's do.
	Op string `json:"operation,omitempty"`
}

func (v Violation) String() string { return string(v.Rule) + ": " + v.Detail }

// Judge returns every rule ex breaks, in the registry's order: the request against its schema
// (REQ-1, a client's rule), the status (STATUS-1), the rate-limit headers (HDR-1, HDR-2), a
// success for a broken request (ERR-6), the envelope of the status (ENV-1 to ENV-4), the keys
// of a validation error (ERR-5), the answer against the OpenAPI document (DOC-1), a page's
// arithmetic (PAGE-1), a removed cart item that is still in the cart (CART-1) and a deprecation
// that does not answer "deprecated" (TRANS-3). A body nested
// past what JSON readers read is judged as Readable reads it.
func Judge(ctx context.Context, ex Exchange) []Violation {
	ex.Body, _ = Readable(ex.Body)
	var vs []Violation
	var broken []string
	if !ex.ReqPartial {
		var req []Violation
		req, broken = Request(ctx, ex.Op, ex.ReqHeader, ex.ReqBody)
		vs = append(vs, req...)
	}
	if !refusedPreference(ex) && !refusedWorld(ex) {
		vs = append(vs, Status(ex.Op, ex.Status)...)
	}
	vs = append(vs, Headers(ex.Status, ex.Header)...)
	vs = append(vs, MinuteRetryAfter(ex.Op, ex.Status, ex.Header)...)
	refused := RefusedInSuccess(ex.Op, ex.Status, ex.Body)
	if len(broken) > 0 && ex.Status >= 200 && ex.Status < 300 && !refused {
		vs = append(vs, Violation{Rule: rules.ERR6, Detail: fmt.Sprintf("the request breaks a field rule (%s), yet the answer is %d", strings.Join(broken, ", "), ex.Status)})
	}
	if !ex.BodyPartial {
		keyed := broken
		if t, _ := spec.RequestBodyType(ex.ReqHeader); t != spec.BodyJSON || encoded(ex.ReqHeader) {
			// The request is not plain JSON by its Content-Type (the client's fault, REQ-1) or is
			// sent compressed (whether a deployment reads compressed requests is not shown): a
			// refusal may name the header rather than the fields of a body it did not read.
			keyed = nil
		}
		shape := Envelope(ex.Op, ex.Status, ex.Body)
		switch {
		case len(shape) == 0 && ex.Status == http.StatusUnprocessableEntity:
			shape = KeyedBy(ex.Body, keyed)
		case len(shape) == 0 && refused && len(keyed) > 0:
			// Where the codes are not shown, any refusal of a field rule is the validation
			// error (ERR-1, D209), its `errors` naming the field as a 422's would.
			shape = RefusalKeyedBy(ex.Body, keyed)
		}
		vs = append(vs, shape...)
		judged := ex.Op.Declared(ex.Status) || successStatus(ex.Op, ex.Status) != ex.Status
		if len(shape) == 0 && judged && !refused { // the document's 2xx schema is the success's
			vs = append(vs, Answer(ctx, ex)...)
		}
		if len(shape) == 0 && len(broken) == 0 {
			vs = append(vs, Deprecated(ex)...)
		}
		if judged := len(shape) == 0 && ex.Status == http.StatusOK && !refused && !ex.ReqPartial; judged && ex.Op.ID == "domainCartRemove" {
			if cart, ok := ReadCart(ex.Body); ok {
				_, item := removedItem(ex.ReqBody)
				vs = append(vs, ItemGone(item, cart)...)
			}
		} else if page, ok := ReadPage(ex.ReqBody, ex.Body); judged && len(broken) == 0 && ok {
			vs = append(vs, Pagination(page)...)
		}
	}
	return Ordered(vs)
}

// Deployment keeps the violations of vs that are the deployment's (every rule but those that
// bind the client).
func Deployment(vs []Violation) []Violation {
	var out []Violation
	for _, v := range vs {
		if r, _ := rules.ByID(v.Rule); !r.Client {
			out = append(out, v)
		}
	}
	return out
}

// IDs lists the distinct rule ids of vs, in order.
func IDs(vs []Violation) []rules.ID {
	var ids []rules.ID
	for _, v := range vs {
		if !slices.Contains(ids, v.Rule) {
			ids = append(ids, v.Rule)
		}
	}
	return ids
}

// Ordered sorts vs in the registry's order, keeping their order within a rule.
func Ordered(vs []Violation) []Violation {
	rank := make(map[rules.ID]int, len(rules.All))
	for i, r := range rules.All {
		rank[r.ID] = i
	}
	slices.SortStableFunc(vs, func(a, b Violation) int { return rank[a.Rule] - rank[b.Rule] })
	return vs
}

// Status is STATUS-1: an operation whose codes the interface shows answers only those (or 413,
// which the document declares everywhere, D41); the others are not judged on their status.
func Status(op spec.Operation, status int) []Violation {
	if !op.CodesShown() || op.Declared(status) {
		return nil
	}
	codes := make([]string, len(op.Codes))
	for i, c := range op.Codes {
		codes[i] = strconv.Itoa(c)
	}
	return []Violation{{Rule: rules.STATUS1, Detail: fmt.Sprintf("%s answered %d; it lists %s", op.ID, status, strings.Join(codes, ", "))}}
}

// Headers is HDR-1 (both rate-limit headers, one integer each, Remaining at most Limit; a
// validation error may leave them out, as the interface lists no headers for it, D92) and HDR-2
// (a 429 carries Retry-After in whole seconds).
func Headers(status int, h http.Header) []Violation {
	var vs []Violation
	_, limitWhy := HeaderInt(h, "X-RateLimit-Limit")
	_, remWhy := HeaderInt(h, "X-RateLimit-Remaining")
	optional := status == http.StatusUnprocessableEntity
	for _, why := range []string{limitWhy, remWhy} {
		if why != "" && !(optional && strings.HasSuffix(why, "is missing")) {
			vs = append(vs, Violation{Rule: rules.HDR1, Detail: why})
		}
	}
	if limit, rem := sentDigits(h, "X-RateLimit-Limit"), sentDigits(h, "X-RateLimit-Remaining"); limitWhy == "" && remWhy == "" && digitsAbove(rem, limit) {
		// Compared and quoted as sent: read as int64, two values past it were both its
		// largest, and a Remaining above its Limit passed.
		vs = append(vs, Violation{Rule: rules.HDR1, Detail: fmt.Sprintf("X-RateLimit-Remaining %s is above X-RateLimit-Limit %s", clipDigits(rem), clipDigits(limit))})
	}
	if status == http.StatusTooManyRequests {
		if _, why := HeaderInt(h, "Retry-After"); why != "" {
			vs = append(vs, Violation{Rule: rules.HDR2, Detail: why})
		}
	}
	return vs
}

// maxMinuteRetryAfter is the longest Retry-After a per-minute window may say (LIMIT-6): 60
// seconds, and one more for an implementation that rounds up.
const maxMinuteRetryAfter = 61

// MinuteRetryAfter is LIMIT-6: a 429 of a per-minute limit says Retry-After of at most a
// minute. authenticate (a throttle of failed logins, timed by nobody) and thumbnailsRegenerate
// (a ten-minute window, LIMIT-5) are not per-minute limits.
func MinuteRetryAfter(op spec.Operation, status int, h http.Header) []Violation {
	if status != http.StatusTooManyRequests || op.ID == "authenticate" || op.ID == "thumbnailsRegenerate" {
		return nil
	}
	if n, why := HeaderInt(h, "Retry-After"); why == "" && n > maxMinuteRetryAfter {
		// Quoted as sent: a value past int64 read as its largest was quoted so.
		return []Violation{{Rule: rules.LIMIT6, Detail: fmt.Sprintf("Retry-After is %s seconds, yet %s's limit is per minute: its window resets within 60", clipDigits(sentDigits(h, "Retry-After")), op.ID)}}
	}
	return nil
}

// HeaderInt reads a header that must be sent once as a non-negative integer; why says what is
// wrong with it ("" when nothing is).
func HeaderInt(h http.Header, name string) (n int64, why string) {
	values := h.Values(name)
	switch {
	case len(values) == 0:
		return 0, name + " is missing"
	case len(values) > 1:
		return 0, fmt.Sprintf("%s is sent %d times", name, len(values))
	}
	v := strings.TrimSpace(values[0])
	if !Digits(v) {
		return 0, fmt.Sprintf("%s is %q, not a non-negative integer", name, values[0])
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil { // an integer all the same: read as the largest there is
		return math.MaxInt64, ""
	}
	return n, ""
}

// sentDigits is the integer header name as sent, without surrounding space or leading zeros
// (HeaderInt said it is digits).
func sentDigits(h http.Header, name string) string {
	d := strings.TrimLeft(strings.TrimSpace(h.Get(name)), "0")
	if d == "" {
		return "0"
	}
	return d
}

// digitsAbove tells whether the integer a is above b, both written in digits without leading
// zeros, of any length.
func digitsAbove(a, b string) bool {
	if len(a) != len(b) {
		return len(a) > len(b)
	}
	return a > b
}

// clipDigits quotes an integer of any length in at most 40 digits.
func clipDigits(d string) string {
	if len(d) > 40 {
		return d[:40] + "…"
	}
	return d
}

// Digits tells whether s is one or more ASCII digits and nothing else: an integer header value
// as HTTP writes it (RFC 9110's delay-seconds, 1*DIGIT), not "+5" or "-0", which strconv reads.
func Digits(s string) bool {
	if s == "" {
		return false
	}
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// encoded tells a request body sent with a Content-Encoding other than identity.
func encoded(h http.Header) bool {
	for _, v := range h.Values("Content-Encoding") {
		for _, c := range strings.Split(v, ",") {
			if c = strings.TrimSpace(c); c != "" && !strings.EqualFold(c, "identity") {
				return true
			}
		}
	}
	return false
}

// refusedWorld tells a mock's refusal of a request naming a world (X-Mock-World) it cannot
// serve: 400 for a bad name or the header twice (the client addressed a mock's world wrongly),
// 503 when every world is busy (the mock's own capacity). Neither is an answer of the API, so
// its status is not judged (STATUS-1), as refusedPreference; the mock marks both.
func refusedWorld(ex Exchange) bool {
	return (ex.Status == http.StatusBadRequest || ex.Status == http.StatusServiceUnavailable) &&
		len(ex.ReqHeader.Values(WorldHeader)) > 0 && ex.Header.Get(prefer.Refused) == prefer.RefusedWorld
}

// WorldHeader names a mock's world (the mock's X-Mock-World): a client may address a mock's
// worlds through the proxy by it, and each world holds records of its own.
const WorldHeader = "X-Mock-World"

// refusedPreference tells a mock's 400 to a `Prefer: code=` the operation does not list: the
// client asked the mock for an answer the API never gives, and was told so; that 400 is no
// answer of the API, so its status is not judged (STATUS-1). Only a 400 the mock marked as its
// refusal: a deployment ignores Prefer, and its 400 is judged as any other.
func refusedPreference(ex Exchange) bool {
	code, ok := prefer.Code(ex.ReqHeader)
	if !ok || ex.Status != http.StatusBadRequest || ex.Header.Get(prefer.Refused) != prefer.RefusedCode {
		return false
	}
	n, ok := prefer.Status(code)
	return !ok || !prefer.Forceable(ex.Op.Statuses, n)
}
