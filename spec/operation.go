package spec

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers"
)

// Access is who may call an operation: the interface's P, A and S marks, read from the
// document (`security: []` is public, `x-superadmin: true` needs a superadmin, the rest a
// bearer token).
type Access int

const (
	// Bearer operations need a valid bearer token (A).
	Bearer Access = iota
	// Public operations need no bearer token (P).
	Public
	// Superadmin operations need the bearer token of a superadmin (A, S).
	Superadmin
)

// String names the access as the interface marks it.
func (a Access) String() string {
	switch a {
	case Public:
		return "P"
	case Superadmin:
		return "A,S"
	}
	return "A"
}

// Operation is one operation of the document, with every fact of it the toolkit uses: the one
// operation model the mock, the proxy, the suite and explore mode read.
type Operation struct {
	// N is the operation's number in the interface's list of endpoints (x-endpoint).
	N int
	// Path is the exact path, relative to the base URL ("/v1/authenticate").
	Path string
	// ID is the operationId ("authenticate").
	ID string
	// Area is the operation's tag ("account", "operations", "admin", "ai", "domains",
	// "websites").
	Area string
	// Access is P, A or A+S.
	Access Access
	// Statuses are every status the document declares for the operation, ascending (413
	// included: the document adds it everywhere, D41).
	Statuses []int
	// Codes are the statuses the interface lists for the operation, ascending: Statuses without
	// those marked `x-listed: false`; nil where the interface does not show the operation's
	// codes (`x-codes-shown: false`).
	Codes []int
	// Request is the JSON request body schema.
	Request *openapi3.Schema
	// Fields are the top-level properties of Request, sorted; Required those it requires.
	Fields, Required []string
	// Responses are the JSON body schemas of the answers, by status.
	Responses map[int]*openapi3.Schema
	// Route is the operation's route, for openapi3filter's validation inputs.
	Route *routers.Route
}

// CodesShown reports whether the interface shows the response codes of op.
func (op Operation) CodesShown() bool { return op.Codes != nil }

// Listed reports whether the interface lists status code for op.
func (op Operation) Listed(code int) bool { return slices.Contains(op.Codes, code) }

// Declared reports whether the document declares status code for op.
func (op Operation) Declared(code int) bool { return slices.Contains(op.Statuses, code) }

// Public reports whether op needs no bearer token.
func (op Operation) Public() bool { return op.Access == Public }

// SuccessCode is the success status the interface states for op (201 for master card create,
// 200 elsewhere), or 0 when the interface does not show it.
func (op Operation) SuccessCode() int {
	switch {
	case op.Listed(http.StatusCreated):
		return http.StatusCreated
	case op.Listed(http.StatusOK):
		return http.StatusOK
	}
	return 0
}

// HasField reports whether the request body of op declares the top-level field name.
func (op Operation) HasField(name string) bool {
	_, ok := slices.BinarySearch(op.Fields, name)
	return ok
}

// Operations lists the POST operations of doc in the interface's order (x-endpoint). For the
// document Load returns the list is built once; callers must not modify what it points to.
func Operations(doc *openapi3.T) []Operation {
	if loaded.done.Load() && loaded.doc != nil && doc == loaded.doc {
		return slices.Clone(loaded.ops)
	}
	ops, _ := buildOperations(doc, func(path string) *routers.Route {
		r, _ := Route(doc, path)
		return r
	})
	return ops
}

// OperationByID returns the operation of doc whose operationId is id.
func OperationByID(doc *openapi3.T, id string) (Operation, bool) {
	for _, op := range Operations(doc) {
		if op.ID == id {
			return op, true
		}
	}
	return Operation{}, false
}

// OperationByPath returns the operation of doc at exactly path.
func OperationByPath(doc *openapi3.T, path string) (Operation, bool) {
	for _, op := range Operations(doc) {
		if op.Path == path {
			return op, true
		}
	}
	return Operation{}, false
}

// buildOperations derives the operation model of doc; the error names what the document lacks.
func buildOperations(doc *openapi3.T, routeOf func(path string) *routers.Route) ([]Operation, error) {
	var ops []Operation
	for _, path := range doc.Paths.InMatchingOrder() {
		route := routeOf(path)
		if route == nil {
			continue
		}
		op, err := operationOf(route)
		if err != nil {
			return nil, fmt.Errorf("operation %s: %w", path, err)
		}
		ops = append(ops, op)
	}
	slices.SortStableFunc(ops, func(a, b Operation) int {
		if a.N != b.N {
			return a.N - b.N
		}
		if a.Path < b.Path {
			return -1
		}
		return 1
	})
	return ops, nil
}

func operationOf(route *routers.Route) (Operation, error) {
	o := route.Operation
	op := Operation{Path: route.Path, ID: o.OperationID, Route: route, Responses: map[int]*openapi3.Schema{}}
	op.N = extInt(o.Extensions["x-endpoint"])
	if len(o.Tags) > 0 {
		op.Area = o.Tags[0]
	}
	switch superadmin, _ := o.Extensions["x-superadmin"].(bool); {
	case o.Security != nil && len(*o.Security) == 0:
		op.Access = Public
	case superadmin:
		op.Access = Superadmin
	}
	shown, isBool := o.Extensions["x-codes-shown"].(bool)
	shown = shown || !isBool
	if shown {
		op.Codes = []int{}
	}
	if o.Responses != nil {
		for key, ref := range o.Responses.Map() {
			code, err := strconv.Atoi(key)
			if err != nil || ref == nil || ref.Value == nil {
				continue
			}
			op.Statuses = append(op.Statuses, code)
			if listed, isBool := ref.Value.Extensions["x-listed"].(bool); shown && (listed || !isBool) {
				op.Codes = append(op.Codes, code)
			}
			if mt := ref.Value.Content.Get("application/json"); mt != nil && mt.Schema != nil {
				op.Responses[code] = mt.Schema.Value
			}
		}
	}
	slices.Sort(op.Statuses)
	slices.Sort(op.Codes)
	if o.RequestBody == nil || o.RequestBody.Value == nil {
		return op, fmt.Errorf("no request body")
	}
	mt := o.RequestBody.Value.Content.Get("application/json")
	if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
		return op, fmt.Errorf("no application/json request schema")
	}
	op.Request = mt.Schema.Value
	for name := range op.Request.Properties {
		op.Fields = append(op.Fields, name)
	}
	slices.Sort(op.Fields)
	op.Required = slices.Sorted(slices.Values(op.Request.Required))
	return op, nil
}

// extInt reads a whole-number extension value (YAML numbers decode as float64).
func extInt(v any) int {
	switch n := v.(type) {
	case float64:
		return int(n)
	case int:
		return n
	}
	return 0
}

// ValuesNotShown reports whether the field of body takes values from a set the interface does
// not show (`x-values-not-shown`: generic card status): any value within its bounds may be one
// a deployment refuses.
func ValuesNotShown(body *openapi3.Schema, field string) bool {
	if body == nil || body.Properties[field] == nil || body.Properties[field].Value == nil {
		return false
	}
	v, _ := body.Properties[field].Value.Extensions["x-values-not-shown"].(bool)
	return v
}
