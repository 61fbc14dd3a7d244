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

func ExampleNesting() {
	fmt.Println(spec.Nesting([]byte(`{"a":[{"b":"]]]"}]}`)))
	fmt.Println(string(spec.Prune([]byte(`[[[[1`), 2))) // cut short: the pruned value takes the rest
	// Output:
	// 3
	// [[null
}
