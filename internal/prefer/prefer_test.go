package prefer_test

import (
	"fmt"
	"net/http"

	"github.com/opsapi/mocktoolkit/internal/prefer"
)

func ExampleCode() {
	fmt.Println(prefer.Code(http.Header{"Prefer": {"return=minimal; code=\"409\""}}))
	fmt.Println(prefer.Code(http.Header{"Prefer": {"wait=5", "CODE = 500"}}))
	fmt.Println(prefer.Code(http.Header{}))
	fmt.Println(prefer.Code(http.Header{"Prefer": {"code=409", "code=500, code=409"}}))
	// Output:
	// 409 true
	// 500 true
	//  false
	// 409 and 500 true
}

func ExampleStatus() {
	for _, code := range []string{"500", "+500", "0500", "5e2", "099"} {
		fmt.Println(prefer.Status(code))
	}
	// Output:
	// 500 true
	// 0 false
	// 0 false
	// 0 false
	// 99 false
}
