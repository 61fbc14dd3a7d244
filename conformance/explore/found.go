package explore

import "time"

// Rule ERR-8: a record that exists is found. A request judged by it names, in every id it
// sends, a record that exists for the whole case and that its caller may act on.

// existing are the pools whose records do: the manifest's records of the member's project and
// master records, and the records the case created (nothing a case does deletes them). Not a
// user's id (the interface describes no user record), a cart item (earlier runs spend them),
// the missing id, a conversation or a theme version (whether one is still archived or
// approved is not known).
var existing = map[string]bool{
	"card": true, "createdCard": true, "tag": true, "group": true, "board": true,
	"masterBoard": true, "masterGroup": true, "createdMasterGrp": true, "createdMasterCard": true,
	"page": true, "template": true, "layout": true, "tourCard": true,
}

// namesFound reports whether every id field of op's body (shown: as materialized) names a
// record of the existing pools, and whether one of them names a record created in the case
// (fresh: a deployment may find it only once a replica has it, and meanwhile refuse it with 404,
// or with a validation error where the operation lists no 404). An id field is one generation draws from
// a pool, or the field naming the record op acts on; one sent as a plain number (a cart item)
// or a value the model knows (an ID) is not judged. A master tour card the case created is left
// out: it may be inactive, and whether a member may act on such a card is not stated.
func namesFound(opID string, body, shown map[string]any) (found, fresh bool) {
	found = true
	for k, v := range body {
		_, pooled := idPools[opID+"."+k]
		if !pooled && k != primaryID[opID] || v == nil {
			continue
		}
		x, ok := v.(ref)
		id, _ := shown[k].(ID)
		fresh = fresh || id.Var != ""
		if !ok || !existing[x.pool] || (x.pool == "tourCard" && id.Var != "") {
			found = false
		}
	}
	return found, fresh
}

// settling reports whether a record e's case created may still be on its way to where the
// target looks records up: within the settle time of the last create (after a failure, while
// shrinking, within twice the longest lag the target showed, as awaitCount waits).
func (r *runner) settling(e *env) bool {
	settle := r.settle
	if r.failure != nil && e == r.target {
		settle = min(settle, 2*r.lag)
	}
	return time.Since(e.createdAt) < settle
}
