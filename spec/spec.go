package spec

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers"
)

//go:embed openapi.yaml
var document []byte

// Bytes returns the OpenAPI document as embedded, YAML. The slice is a copy; callers may keep it.
func Bytes() []byte { return bytes.Clone(document) }

// loaded is the result of the one parse of the document.
var loaded struct {
	once   sync.Once
	doc    *openapi3.T
	routes map[string]*routers.Route // by exact path
	ops    []Operation               // in the interface's order
	err    error
	// done publishes doc and routes to Route, which may run in a goroutine that never called
	// Load (with a document of its own) while the first Load is still running.
	done atomic.Bool
}

// Load parses and validates the embedded document the first time it is called and returns the
// same *openapi3.T on every call. The document is shared: callers must not modify it.
//
// The first call's context is used without its cancellation, so a cancelled first caller does
// not leave a cached error behind.
func Load(ctx context.Context) (*openapi3.T, error) {
	loaded.once.Do(func() {
		loaded.doc, loaded.routes, loaded.ops, loaded.err = load(context.WithoutCancel(ctx))
		loaded.done.Store(true)
	})
	if loaded.err != nil {
		return nil, loaded.err
	}
	return loaded.doc, nil
}

func load(ctx context.Context) (*openapi3.T, map[string]*routers.Route, []Operation, error) {
	loader := openapi3.NewLoader()
	loader.Context = ctx
	loader.IsExternalRefsAllowed = false
	doc, err := loader.LoadFromData(document)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("load spec: %w", err)
	}
	// EnableSchemaFormatValidation makes a format that no validator is registered for an error,
	// so a typo in openapi.yaml cannot silently disable a check.
	if err := doc.Validate(ctx, openapi3.EnableSchemaFormatValidation()); err != nil {
		return nil, nil, nil, fmt.Errorf("load spec: %w", err)
	}
	routes, err := buildRoutes(doc)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("load spec: %w", err)
	}
	ops, err := buildOperations(doc, func(path string) *routers.Route { return routes[path] })
	if err != nil {
		return nil, nil, nil, fmt.Errorf("load spec: %w", err)
	}
	return doc, routes, ops, nil
}

// buildRoutes makes the route of every POST operation of doc, by exact path.
func buildRoutes(doc *openapi3.T) (map[string]*routers.Route, error) {
	var server *openapi3.Server
	if len(doc.Servers) > 0 {
		server = doc.Servers[0]
	}
	routes := make(map[string]*routers.Route, doc.Paths.Len())
	for path, item := range doc.Paths.Map() {
		op := item.Post
		if op == nil {
			return nil, fmt.Errorf("path %s has no POST operation", path)
		}
		if len(item.Operations()) != 1 {
			return nil, fmt.Errorf("path %s has operations other than POST", path)
		}
		routes[path] = &routers.Route{
			Spec:      doc,
			Server:    server,
			Path:      path,
			PathItem:  item,
			Method:    http.MethodPost,
			Operation: op,
		}
	}
	return routes, nil
}

// Route returns the route of the POST operation at exactly path (no templating, no base URL:
// "/v1/authenticate"), for openapi3filter.RequestValidationInput.Route. For the document Load
// returns, routes are built once and shared: callers must not modify them. For any other
// document the route is built on each call.
func Route(doc *openapi3.T, path string) (*routers.Route, bool) {
	if doc == nil {
		return nil, false
	}
	if loaded.done.Load() && loaded.doc != nil && doc == loaded.doc {
		r, ok := loaded.routes[path]
		return r, ok
	}
	item := doc.Paths.Value(path)
	if item == nil || item.Post == nil {
		return nil, false
	}
	var server *openapi3.Server
	if len(doc.Servers) > 0 {
		server = doc.Servers[0]
	}
	return &routers.Route{Spec: doc, Server: server, Path: path, PathItem: item, Method: http.MethodPost, Operation: item.Post}, true
}

// OperationIDs returns the operationIds of doc, sorted by path.
func OperationIDs(doc *openapi3.T) []string {
	ops := Operations(doc)
	ids := make([]string, len(ops))
	for i, op := range ops {
		ids[i] = op.ID
	}
	return ids
}
