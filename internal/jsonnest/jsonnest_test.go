package jsonnest_test

import (
	"fmt"

	"github.com/opsapi/mocktoolkit/internal/jsonnest"
)

func ExamplePrune() {
	doc := []byte(`{"data":{"tags":[{"name":"a]\"["}]},"extra":[[[1,[2]]]],"s":"[[[["}`)
	fmt.Println(string(jsonnest.Prune(doc, 3)))
	// Output: {"data":{"tags":[null]},"extra":[[null]],"s":"[[[["}
}

func ExampleNesting() {
	fmt.Println(jsonnest.Nesting([]byte(`{"a":[{"b":"]]]"}]}`)))
	fmt.Println(string(jsonnest.Prune([]byte(`[[[[1`), 2))) // cut short: the pruned value takes the rest
	// Output:
	// 3
	// [[null
}
