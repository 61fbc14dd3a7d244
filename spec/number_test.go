package spec_test

import (
	"fmt"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/opsapi/mocktoolkit/spec"
)

func ExampleNotIntegers() {
	schema := &openapi3.Schema{Type: &openapi3.Types{"object"}, Properties: openapi3.Schemas{
		"position": openapi3.NewIntegerSchema().NewRef(),
		"score":    openapi3.NewFloat64Schema().NewRef(),
		"cards": openapi3.NewArraySchema().WithItems(openapi3.NewObjectSchema().
			WithProperty("id", openapi3.NewIntegerSchema())).NewRef(),
	}}
	doc := `{"position": 1.0000000000000000001, "score": 1e-400, "cards": [{"id": 5.0}, {"id": 1e-400}], "title": 2.5}`
	fmt.Println(spec.NotIntegers(schema, []byte(doc)))
	// Output: [cards[1].id position]
}
