package selftest_test

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/opsapi/mocktoolkit/conformance"
)

// lookupLag is how long after creating a record the late-lookups variant first finds it.
const lookupLag = time.Second

// lateLookups looks records up by id on a read replica lookupLag behind the writes: a request
// naming (in id, group_id, board_id or card_id) a record created less than lookupLag ago is
// answered as for a record that does not exist (the mock's own 404, or its refusal where 404 is
// not listed). Lists and creates are the mock's own. The interface does not state when a
// created record can be found; a read replica behind the primary is how many deployments
// scale reads (D210).
func lateLookups() correct {
	var (
		mu      sync.Mutex
		created = map[string]time.Time{} // by kind and id: "card 12"
	)
	return correct{
		name:  "looks records up on a replica 1 second behind the writes: a record created less than a second ago is not found yet",
		basis: "§Errors rule 2 and §Endpoints: when a created record can be found is not stated",
		env:   []string{"CONFORMANCE_PUSH_WAIT=10s"},
		before: func(x *xchg) bool {
			mu.Lock()
			defer mu.Unlock()
			for f, kind := range lookupKinds(x.op.ID) {
				if id, ok := x.req[f].(float64); ok && time.Since(created[fmt.Sprint(kind, " ", id)]) < lookupLag {
					x.req[f] = float64(absentID)
				}
			}
			return false
		},
		after: func(x *xchg) {
			if x.a.status >= 300 || !strings.HasSuffix(x.op.Path, "/create") {
				return // an update answers a record it did not create
			}
			mu.Lock()
			defer mu.Unlock()
			for _, kind := range []string{"card", "group", "comment", "tag", "board"} {
				rec, _ := x.a.data()[kind].(map[string]any)
				if id, ok := rec["id"].(float64); ok {
					if _, seen := created[fmt.Sprint(kind, " ", id)]; !seen {
						created[fmt.Sprint(kind, " ", id)] = time.Now()
					}
				}
			}
		},
	}
}

// lookupKinds names the kind of record each id field of op names.
func lookupKinds(op string) map[string]string {
	kinds := map[string]string{"group_id": "group", "board_id": "board", "card_id": "card", "tag_id": "tag", "parent_comment_id": "comment"}
	switch op {
	case conformance.OpCardsUpdate.ID, conformance.OpMasterCardsUpdate.ID, conformance.OpTourCardsUpdate.ID:
		kinds["id"] = "card"
	case conformance.OpBoardsUpdate.ID:
		kinds["id"] = "board"
	case conformance.OpMasterGroupsUpdate.ID, conformance.OpGroupsDelete.ID:
		kinds["id"] = "group"
	}
	return kinds
}
