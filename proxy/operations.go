package proxy

import (
	"context"
	"fmt"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers"

	"github.com/opsapi/mocktoolkit/spec"
)

// codesNotShown are the operations whose response codes the interface does not show (only
// their bodies): any status is allowed for them (D90).
var codesNotShown = map[string]bool{
	"authenticate":       true,
	"masterBoardsCreate": true,
	"cardsCreate":        true,
	"masterGroupsCreate": true,
	"commentsCreate":     true,
	"tagsCreate":         true,
}

// operation is what the checks need to know of one of the 24 operations.
type operation struct {
	id    string
	route *routers.Route
	// bodyRoute is route with the response headers left out, so DOC-1 judges bodies
	// only (kin-openapi stops at the first header error, before the body).
	bodyRoute *routers.Route
	// anyStatus is set for the operations whose codes are not shown.
	anyStatus bool
	// fields are the top-level properties of the request body.
	fields map[string]bool
}

// listed tells whether the operation lists status.
func (op *operation) listed(status int) bool {
	return op.route.Operation.Responses.Status(status) != nil
}

// loadOperations reads the 24 operations from the spec, by path.
func loadOperations(ctx context.Context) (map[string]*operation, error) {
	doc, err := spec.Load(ctx)
	if err != nil {
		return nil, fmt.Errorf("new proxy: %w", err)
	}
	ops := make(map[string]*operation)
	for _, o := range spec.Operations(doc) {
		route, ok := spec.Route(doc, o.Path)
		if !ok {
			return nil, fmt.Errorf("new proxy: spec has no route for %s", o.Path)
		}
		ops[o.Path] = &operation{
			id:        o.ID,
			route:     route,
			bodyRoute: withoutResponseHeaders(route),
			anyStatus: codesNotShown[o.ID],
			fields:    requestFields(route.Operation),
		}
	}
	return ops, nil
}

// withoutResponseHeaders copies route with an operation whose responses declare no headers.
// The document is shared, so nothing of it is modified.
func withoutResponseHeaders(route *routers.Route) *routers.Route {
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
	return &r
}

// requestFields names the top-level properties of the operation's JSON request body.
func requestFields(op *openapi3.Operation) map[string]bool {
	fields := map[string]bool{}
	if op.RequestBody == nil || op.RequestBody.Value == nil {
		return fields
	}
	mt := op.RequestBody.Value.Content.Get("application/json")
	if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
		return fields
	}
	for name := range mt.Schema.Value.Properties {
		fields[name] = true
	}
	return fields
}
