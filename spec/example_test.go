package spec_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/opsapi/mocktoolkit/spec"
)

// Validate a request body against the contract without a router, and key the failures by
// request field, as the 422 `errors` object is (D5).
func ExampleRoute() {
	doc, err := spec.Load(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	const path = "/services/operations/v1/operations/cards/create"
	route, ok := spec.Route(doc, path)
	if !ok {
		fmt.Println("no route")
		return
	}
	body := `{"description":"no title","priority":"asap","due_date":"tomorrow"}`
	req, _ := http.NewRequest(http.MethodPost, path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")

	err = openapi3filter.ValidateRequest(context.Background(), &openapi3filter.RequestValidationInput{
		Request: req,
		Route:   route,
		Options: &openapi3filter.Options{MultiError: true, AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
	})
	for _, e := range spec.SchemaErrors(err) {
		fmt.Printf("%s: %s\n", spec.Field(e), e.SchemaField)
	}
	// Output:
	// due_date: format
	// priority: enum
	// title: required
}

func ExampleOperations() {
	doc, err := spec.Load(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, op := range spec.Operations(doc) {
		if op.Public() {
			fmt.Println(op.ID, op.Path)
		}
	}
	// Output:
	// authenticate /v1/authenticate
	// domainCartRemove /services/domains/v1/domain-cart/remove
}
