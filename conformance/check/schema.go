package check

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"

	"github.com/opsapi/mocktoolkit/conformance/rules"
	"github.com/opsapi/mocktoolkit/internal/jsonone"
	"github.com/opsapi/mocktoolkit/spec"
)

// maxDetails is how many schema failures a violation's detail names.
const maxDetails = 5

// options are the one set of kin-openapi options every check uses: authentication is judged by
// the rules, not the document; every failure is collected; a status the operation does not
// declare is a failure.
func options() *openapi3filter.Options {
	return &openapi3filter.Options{
		AuthenticationFunc:    openapi3filter.NoopAuthenticationFunc,
		MultiError:            true,
		IncludeResponseStatus: true,
	}
}

// validationRequest is the request kin-openapi judges: the caller's headers with the body read
// as JSON whatever its Content-Type (D91), and an empty body read as {} (D2).
func validationRequest(ctx context.Context, route *routers.Route, h http.Header, body []byte) (*http.Request, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://check.invalid"+route.Path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header = h.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	req.Header.Set("Content-Type", "application/json")
	return req, nil
}

// Request is REQ-1: the request body against the operation's request schema. broken lists the
// top-level fields whose rules the request breaks (for ERR-5 and ERR-6).
func Request(ctx context.Context, op spec.Operation, h http.Header, body []byte) (vs []Violation, broken []string) {
	req, err := validationRequest(ctx, op.Route, h, body)
	if err != nil {
		return nil, nil
	}
	if why := notOneJSONText(body); why != "" {
		// A client's rule only, as the fractions below: a deployment whose reader takes the
		// first value, or reads a lone surrogate as U+FFFD, is not held to refuse it.
		return []Violation{{Rule: rules.REQ1, Detail: why}}, nil
	}
	verr := openapi3filter.ValidateRequest(ctx, &openapi3filter.RequestValidationInput{Request: req, Route: op.Route, Options: options()})
	fractions := spec.NotIntegers(op.Request, body) // float64 reads 1e-400 as 0 and 1.0000000000000000001 as 1
	if verr == nil && len(fractions) == 0 {
		return nil, nil
	}
	if verr == nil {
		whys := make([]string, len(fractions))
		for i, f := range fractions {
			whys[i] = f + ": not an integer"
		}
		// A client's rule only: not in broken, so a deployment whose JSON reader rounds such a
		// number (many do) is not held to refuse it (ERR-6); the suite's own near misses are 1.5.
		return []Violation{{Rule: rules.REQ1, Detail: summarise(whys)}}, nil
	}
	fields := spec.SchemaErrors(verr)
	if len(fields) == 0 {
		return []Violation{{Rule: rules.REQ1, Detail: requestProblem(verr)}}, nil
	}
	whys := make([]string, 0, len(fields))
	for _, e := range fields {
		where := spec.Field(e)
		if where == "" {
			where = "body"
		}
		whys = append(whys, where+": "+reason(e))
		if where != "body" && !slices.Contains(broken, where) {
			broken = append(broken, where)
		}
	}
	for _, f := range fractions {
		if !slices.Contains(broken, f) {
			whys = append(whys, f+": not an integer")
		}
	}
	return []Violation{{Rule: rules.REQ1, Detail: summarise(whys)}}, broken
}

// notOneJSONText says why body, which may parse, is not one JSON text of valid Unicode: a value
// with more after it, or text with a lone surrogate escape or bytes that are not UTF-8 (RFC
// 8259 8.1, 8.2); "" when it is one, or when it does not parse at all (the validator says so).
func notOneJSONText(body []byte) string {
	if _, err := jsonone.Decode(body); errors.Is(err, jsonone.ErrMore) {
		return "the body holds more after its JSON value"
	} else if err != nil {
		return ""
	}
	if bad := spec.InvalidText(body); len(bad) > 0 {
		return strings.Join(bad, ", ") + ": text that is not valid Unicode (a lone surrogate escape, or bytes that are not UTF-8)"
	}
	return ""
}

// requestProblem words a request failure that is about no field (a body that is not JSON).
func requestProblem(err error) string {
	var re *openapi3filter.RequestError
	if errors.As(err, &re) {
		var pe *openapi3filter.ParseError
		if errors.As(re.Err, &pe) {
			return "the body is not JSON"
		}
		if re.Reason != "" {
			return re.Reason
		}
	}
	return firstLine(err.Error())
}

// Answer is DOC-1: the answer's body against the document's schema for its status. The
// headers are HDR-1's and HDR-2's to judge, so the document's header schemas are left out
// (kin-openapi stops at the first header failure, before the body).
func Answer(ctx context.Context, ex Exchange) []Violation {
	route := bodyRoute(ex.Op.Route)
	req, err := validationRequest(ctx, route, ex.ReqHeader, ex.ReqBody)
	if err != nil {
		return nil
	}
	status := successStatus(ex.Op, ex.Status)
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, Route: route, Options: options()},
		Status:                 status,
		Header:                 jsonLabelled(ex.Header),
		Options:                options(),
	}
	in.SetBodyBytes(ex.Body)
	verr := openapi3filter.ValidateResponse(ctx, in)
	var whys []string
	// float64, the validator's reading, takes 1.0000000000000000001 for 1 and 1e-400 for 0.
	for _, at := range spec.NotIntegers(answerSchema(route, status), ex.Body) {
		whys = append(whys, "/"+strings.NewReplacer(".", "/", "[", "/", "]", "").Replace(at)+": value must be an integer")
	}
	if verr == nil && len(whys) == 0 {
		return nil
	}
	fields := spec.SchemaErrors(verr)
	if verr != nil && len(fields) == 0 {
		var re *openapi3filter.ResponseError
		why := firstLine(verr.Error())
		if errors.As(verr, &re) && re.Reason != "" {
			why = re.Reason
		}
		return []Violation{{Rule: rules.DOC1, Detail: why}}
	}
	for _, e := range fields {
		whys = append(whys, "/"+strings.Join(e.JSONPointer(), "/")+": "+reason(e))
	}
	return []Violation{{Rule: rules.DOC1, Detail: summarise(whys)}}
}

// reason is a schema failure's reason as REQ-1's and DOC-1's details give it. kin-openapi reads
// every number as float64 and words one past its range (1e400, an id of thousands of digits) in
// Go's terms, "cannot convert json.Number to float64", quoting nothing of the value; that one is
// reworded, and stays a failure as before (no field of the document holds such a number).
func reason(e *openapi3.SchemaError) string {
	if n, ok := e.Value.(json.Number); ok && errors.Is(e.Origin, strconv.ErrRange) {
		return NumberPastRange(n.String())
	}
	return e.Reason
}

// maxNumberQuoted bounds the number literal NumberPastRange quotes: one JSON number may be a
// hundred thousand digits long, and a detail is copied into every report.
const maxNumberQuoted = 60

// NumberPastRange words a JSON number past float64's range, which kin-openapi, the mock and
// most clients' JSON readers cannot hold: "holds the number 1e400, past the largest a JSON
// reader keeps (about 1.8e308)", the literal as written (num) cut to 60 bytes. The checker and
// the proxy's recorder word this case alike.
func NumberPastRange(num string) string {
	quoted := num
	if len(quoted) > maxNumberQuoted {
		quoted = quoted[:maxNumberQuoted] + "…" // a JSON number is ASCII: any byte is a boundary
	}
	if strings.HasPrefix(num, "-") {
		return "holds the number " + quoted + ", past the lowest a JSON reader keeps (about -1.8e308)"
	}
	return "holds the number " + quoted + ", past the largest a JSON reader keeps (about 1.8e308)"
}

// jsonLabelled is h with a +json media type (application/problem+json, application/hal+json)
// read as application/json, the document's: the interface is JSON over HTTP and names no
// answer media type, so any JSON one is the contract's; what is not JSON stays as it came.
func jsonLabelled(h http.Header) http.Header {
	mt, params, err := mime.ParseMediaType(h.Get("Content-Type"))
	if err != nil || !strings.HasPrefix(mt, "application/") || !strings.HasSuffix(mt, "+json") {
		return h
	}
	h = h.Clone()
	h.Set("Content-Type", mime.FormatMediaType("application/json", params))
	return h
}

// successStatus is the status whose schema judges an answer of status: the status itself, or,
// for a success the document does not list on an operation whose codes are not shown (a create
// answering 201 where the document has its 200), the operation's documented success: its
// body is stated whatever the status, and was left unjudged.
func successStatus(op spec.Operation, status int) int {
	responses := op.Route.Operation.Responses
	if status < 200 || status > 299 || op.CodesShown() || responses.Status(status) != nil {
		return status
	}
	for code := 200; code < 300; code++ {
		if responses.Status(code) != nil {
			return code
		}
	}
	return status
}

// answerSchema is the document's JSON body schema for status on route (its default answer's
// when the status is not listed), or nil.
func answerSchema(route *routers.Route, status int) *openapi3.Schema {
	ref := route.Operation.Responses.Status(status)
	if ref == nil {
		ref = route.Operation.Responses.Default()
	}
	if ref == nil || ref.Value == nil {
		return nil
	}
	mt := ref.Value.Content.Get("application/json")
	if mt == nil || mt.Schema == nil {
		return nil
	}
	return mt.Schema.Value
}

// bodyRoutes caches, per route of the document, a copy whose responses declare no headers.
var bodyRoutes sync.Map // *routers.Route -> *routers.Route

// bodyRoute copies route with an operation whose responses declare no headers. The document
// is shared, so nothing of it is modified.
func bodyRoute(route *routers.Route) *routers.Route {
	if r, ok := bodyRoutes.Load(route); ok {
		return r.(*routers.Route)
	}
	op := *route.Operation
	responses := openapi3.NewResponsesWithCapacity(route.Operation.Responses.Len())
	for code, ref := range route.Operation.Responses.Map() {
		if ref == nil || ref.Value == nil {
			continue
		}
		resp := *ref.Value
		resp.Headers = nil
		responses.Set(code, &openapi3.ResponseRef{Value: &resp})
	}
	op.Responses = responses
	r := *route
	r.Operation = &op
	actual, _ := bodyRoutes.LoadOrStore(route, &r)
	return actual.(*routers.Route)
}

// summarise joins the first maxDetails reasons and counts the rest.
func summarise(whys []string) string {
	// kin-openapi may meet one problem on several paths of its search (a field under oneOf,
	// a nullable integer): each is worded once.
	seen := make(map[string]bool, len(whys))
	whys = slices.DeleteFunc(slices.Clone(whys), func(w string) bool {
		dup := seen[w]
		seen[w] = true
		return dup
	})
	if len(whys) <= maxDetails {
		return strings.Join(whys, "; ")
	}
	return fmt.Sprintf("%s; and %d more", strings.Join(whys[:maxDetails], "; "), len(whys)-maxDetails)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
