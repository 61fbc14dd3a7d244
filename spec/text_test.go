package spec_test

import (
	"fmt"

	"github.com/opsapi/mocktoolkit/spec"
)

func ExamplePrune() {
	doc := []byte(`{"data":{"tags":[{"name":"a]\"["}]},"extra":[[[1,[2]]]],"s":"[[[["}`)
	fmt.Println(string(spec.Prune(doc, 3)))
	// Output: {"data":{"tags":[null]},"extra":[[null]],"s":"[[[["}
}
