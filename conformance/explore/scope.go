package explore

import (
	"fmt"
	"reflect"

	"pgregory.net/rapid"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// outOfScope: an operation scoped to one kind of record names a record of another kind; the
// answer is a refusal in a status the operation lists (SCOPE-1).
const outOfScope intent = iota + 200

// scopeKept are the fields of a card the read-back compares (SCOPE-1: the record is left as
// it was).
var scopeKept = []string{"status", "title"}

// actScope sends tour/cards/update naming a card of the member's project (from the manifest or
// created by the case), which is not a master tour card, then reads the card back through
// cards/list: SCOPE-1.
func (r *runner) actScope(t *rapid.T) {
	pool := rapid.SampledFrom([]string{"card", "createdCard"}).Draw(t, "scope.pool")
	card := ref{pool: pool, idx: rapid.IntRange(0, 3).Draw(t, "scope.card")}
	op := conformance.OpTourCardsUpdate
	body, _ := validBody(t, op, r.schemas[op.ID], manifestView{r.target})
	body["id"] = card
	req := request{op: op, as: callerOf(op), body: body, intent: outOfScope, field: "id"}
	list := request{op: conformance.OpCardsList, as: member, body: map[string]any{}}
	r.both(t, op.ID+" naming a card of the member's project", func(e *env) string {
		named, shown, ok := e.materialize(map[string]any{"c": card})
		if !ok {
			return errSkip.Error()
		}
		id, _ := named["c"].(int64)
		before, bi, sent, _ := r.readCard(t, e, list, id)
		if !sent {
			return errSkip.Error()
		}
		ex, _, _ := r.send(t, e, req)
		after, ai, _, read := r.readCard(t, e, list, id)
		if before == nil || ex.Status == 429 || !read {
			// Not listed before, the update throttled, or the list not read after it (a 401:
			// a token another login of the case revoked, where a deployment keeps one per user).
			return outcome(ex) + ", inconclusive"
		}
		goCode, sh := cardKept(bi, ai, goValue(shown["c"]), shellID(shown["c"]))
		if after == nil {
			r.check(t, e, &violation{Rule: rules.SCOPE1, Reason: op.ID + " was refused a project card and the card is no longer listed",
				Go: goCode, Sh: sh, Op: op.ID})
			return outcome(ex) + ", card gone"
		}
		for _, k := range scopeKept {
			if !reflect.DeepEqual(before[k], after[k]) {
				r.check(t, e, &violation{Rule: rules.SCOPE1, Reason: fmt.Sprintf("%s named a card of the member's project and its %s changed", op.ID, k),
					Detail: fmt.Sprintf("%s was %v and is %v (the update answered %d)", k, before[k], after[k], ex.Status),
					Go:     goCode, Sh: sh, Op: op.ID})
				return outcome(ex) + ", card changed"
			}
		}
		return outcome(ex) + ", card kept"
	})
}

// readCard lists the member's cards and returns the one whose id is id (nil when it is not
// listed); sent is false when the list could not be sent, read is false when it was not
// answered 200.
func (r *runner) readCard(t *rapid.T, e *env, list request, id int64) (card map[string]any, idx int, sent, read bool) {
	ex, idx, ok := r.send(t, e, list)
	if !ok {
		return nil, idx, false, false
	}
	if ex.Status != 200 {
		return nil, idx, true, false
	}
	for _, c := range ex.Objects("data.cards") {
		if n, ok := conformance.Integer(c["id"]); ok && n == id {
			return c, idx, true, true
		}
	}
	return nil, idx, true, true
}

// checkScope checks SCOPE-1 on the answer itself: a refusal (that its status is one the
// operation lists, in its shape, the contract checker judges on every answer: STATUS-1, ENV-3).
func checkScope(ex *conformance.Exchange) *violation {
	if ex.Status >= 400 {
		return nil
	}
	return &violation{Rule: rules.SCOPE1, Reason: fmt.Sprintf("%s answered %d to a card of the member's project, not a master tour card", ex.Op.ID, ex.Status),
		Go: "Expect(ex).To(HaveErrorStatus())", Sh: shRefused()}
}
