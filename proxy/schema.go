package proxy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"

	"github.com/opsapi/mocktoolkit/spec"
)

// maxDetails is how many schema failures a violation's detail names.
const maxDetails = 5

// validationRequest is the request kin-openapi judges: the client's headers with the body read
// as JSON whatever its Content-Type (D91), and an empty body read as {} (D2).
func validationRequest(ctx context.Context, ex *exchange, route *routers.Route) (*http.Request, error) {
	body := ex.reqBody
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://proxy.invalid"+route.Path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header = ex.reqHeader.Clone()
	req.Header.Set("Content-Type", "application/json")
	return req, nil
}

func validationOptions() *openapi3filter.Options {
	return &openapi3filter.Options{
		AuthenticationFunc:    openapi3filter.NoopAuthenticationFunc,
		MultiError:            true,
		IncludeResponseStatus: true,
	}
}

// checkRequest is REQ-1. broken lists the top-level fields whose rules the request breaks
// (for ERR-5 and ERR-6).
func checkRequest(ctx context.Context, ex *exchange) (vs []Violation, broken []string) {
	req, err := validationRequest(ctx, ex, ex.op.route)
	if err != nil {
		return nil, nil
	}
	in := &openapi3filter.RequestValidationInput{Request: req, Route: ex.op.route, Options: validationOptions()}
	verr := openapi3filter.ValidateRequest(ctx, in)
	if verr == nil {
		return nil, nil
	}
	fields := spec.SchemaErrors(verr)
	if len(fields) == 0 {
		return []Violation{violation(RequestSchema, requestProblem(verr))}, nil
	}
	whys := make([]string, 0, len(fields))
	for _, e := range fields {
		where := spec.Field(e)
		if where == "" {
			where = "body"
		}
		whys = append(whys, where+": "+e.Reason)
		if where != "body" && !slices.Contains(broken, where) {
			broken = append(broken, where)
		}
	}
	return []Violation{violation(RequestSchema, summarise(whys))}, broken
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

// checkAnswer is DOC-1: the body against the document's schema for the status.
func checkAnswer(ctx context.Context, ex *exchange) []Violation {
	req, err := validationRequest(ctx, ex, ex.op.bodyRoute)
	if err != nil {
		return nil
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, Route: ex.op.bodyRoute, Options: validationOptions()},
		Status:                 ex.status,
		Header:                 ex.respHeader,
		Options:                validationOptions(),
	}
	in.SetBodyBytes(ex.respBody)
	verr := openapi3filter.ValidateResponse(ctx, in)
	if verr == nil {
		return nil
	}
	fields := spec.SchemaErrors(verr)
	if len(fields) == 0 {
		var re *openapi3filter.ResponseError
		why := firstLine(verr.Error())
		if errors.As(verr, &re) && re.Reason != "" {
			why = re.Reason
		}
		return []Violation{violation(AnswerSchema, why)}
	}
	whys := make([]string, 0, len(fields))
	for _, e := range fields {
		whys = append(whys, "/"+strings.Join(e.JSONPointer(), "/")+": "+e.Reason)
	}
	return []Violation{violation(AnswerSchema, summarise(whys))}
}

// summarise joins the first maxDetails reasons and counts the rest.
func summarise(whys []string) string {
	if len(whys) <= maxDetails {
		return strings.Join(whys, "; ")
	}
	return fmt.Sprintf("%s; and %d more", strings.Join(whys[:maxDetails], "; "), len(whys)-maxDetails)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
