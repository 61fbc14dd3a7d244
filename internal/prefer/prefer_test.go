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
