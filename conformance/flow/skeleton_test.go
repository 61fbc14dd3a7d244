package flow_test

import (
	"fmt"

	"github.com/opsapi/mocktoolkit/conformance/flow"
)

// A long list answer keeps the ids a frontend may pick from it, at their places.
func ExampleSkeleton() {
	answer := `{"error":false,"message":"ok","data":{"cards":[{"id":7,"title":"a","group_id":2,"tags":["x"]},{"id":9,"title":"b","item_ids":[1,2]}],"token":"t0k3n"}}`
	fmt.Println(string(flow.Skeleton([]byte(answer))))
	// Output: {"data":{"cards":[{"group_id":2,"id":7,"tags":[null]},{"id":9,"item_ids":[1,2]}],"token":"t0k3n"}}
}
