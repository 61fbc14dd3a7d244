package mockserver

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/opsapi/mocktoolkit/spec"
)

// access is who may call an operation (the interface's P, A and S marks), read from the spec:
// `security: []` is public, `x-superadmin: true` needs a superadmin, the rest a bearer token.
type access int

const (
	accessBearer access = iota
	accessPublic
	accessSuperadmin
)

// route is an operation row joined with what the spec says of the operation, ready to serve.
type route struct {
	operation
	path       string
	access     access
	lists      map[int]bool     // the statuses the spec lists for the operation
	codes      []int            // the same, ascending, without 413 (D41): what Prefer and fault rules may force
	firstField string           // the field a forced 422 names: the first required, else the first property
	schema     *openapi3.Schema // the JSON request body schema, validated by kin-openapi
	handler    http.Handler
}

// buildRoutes joins the rows of operations() with the spec's operations, by operationId, and
// fails when either side has one the other lacks.
func buildRoutes(doc *openapi3.T, rows []operation) (map[string]*route, error) {
	byID := make(map[string]operation, len(rows))
	for _, op := range rows {
		byID[op.id] = op
	}
	routes := make(map[string]*route, len(rows))
	for _, so := range spec.Operations(doc) {
		op, ok := byID[so.ID]
		if !ok {
			return nil, fmt.Errorf("operation %s (%s) of the spec has no row in routes.go", so.ID, so.Path)
		}
		delete(byID, so.ID)
		sr, _ := spec.Route(doc, so.Path)
		schema, err := bodySchema(sr.Operation)
		if err != nil {
			return nil, fmt.Errorf("operation %s: %w", so.ID, err)
		}
		rt := &route{operation: op, path: so.Path, schema: schema, lists: map[int]bool{}}
		switch {
		case so.Public:
			rt.access = accessPublic
		case so.Superadmin:
			rt.access = accessSuperadmin
		}
		for code := range sr.Operation.Responses.Map() {
			if n, err := strconv.Atoi(code); err == nil {
				rt.lists[n] = true
				if n != http.StatusRequestEntityTooLarge {
					rt.codes = append(rt.codes, n)
				}
			}
		}
		slices.Sort(rt.codes)
		rt.firstField = firstField(schema)
		routes[so.Path] = rt
	}
	for id := range byID {
		return nil, fmt.Errorf("row %s of routes.go is not an operation of the spec", id)
	}
	return routes, nil
}

// bodySchema is the JSON request body schema of an operation; every operation of the
// interface takes one.
func bodySchema(op *openapi3.Operation) (*openapi3.Schema, error) {
	if op.RequestBody == nil || op.RequestBody.Value == nil {
		return nil, fmt.Errorf("no request body in the spec")
	}
	mt := op.RequestBody.Value.Content.Get("application/json")
	if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
		return nil, fmt.Errorf("no application/json request schema in the spec")
	}
	return mt.Schema.Value, nil
}

func firstField(s *openapi3.Schema) string {
	if len(s.Required) > 0 {
		return s.Required[0]
	}
	names := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		names = append(names, k)
	}
	slices.Sort(names)
	if len(names) > 0 {
		return names[0]
	}
	return "body"
}

// routeByID finds the route of an operationId (fault rules and the dashboard name operations
// by id).
func (s *Server) routeByID(id string) (*route, bool) {
	for _, rt := range s.ops {
		if rt.id == id {
			return rt, true
		}
	}
	return nil, false
}

// operationIDs are the operationIds of every route, sorted.
func (s *Server) operationIDs() []string {
	ids := make([]string, 0, len(s.ops))
	for _, rt := range s.ops {
		ids = append(ids, rt.id)
	}
	slices.Sort(ids)
	return ids
}
