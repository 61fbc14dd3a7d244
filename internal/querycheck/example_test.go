package querycheck_test

import (
	"fmt"

	"github.com/opsapi/mocktoolkit/internal/querycheck"
)

func ExampleProblem() {
	fmt.Println(querycheck.Problem("POST", "/__mock/reset", "seed=7", nil, true))
	fmt.Println(querycheck.Problem("POST", "/__mock/reset", "seed=7;scenario=empty", nil, true))
	fmt.Println(querycheck.Problem("GET", "/__mock/clock", "bogus=%zz", nil, false))
	fmt.Println(querycheck.Problem("GET", "/__proxy/exchanges", "limit=5&status=500", []string{"limit"}, false))
	fmt.Printf("%q\n", querycheck.Problem("GET", "/__proxy/exchanges", "limit=5", []string{"limit"}, false))
	// Output:
	// POST /__mock/reset takes no query parameters; its settings go in the JSON body, as the README shows; it does not read "seed".
	// The query string of POST /__mock/reset cannot be read (a ; stands between parameters, where only & separates them): separate parameters with &, and %-escape %, & and ; in values.
	// The query string of GET /__mock/clock cannot be read ("%zz" is no %-escape: a % takes two hexadecimal digits): separate parameters with &, and %-escape %, & and ; in values.
	// GET /__proxy/exchanges reads only limit; it does not read "status".
	// ""
}
