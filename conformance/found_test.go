package conformance_test

import (
	"context"
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// Rule ERR-8: a record that exists is found. ERR-4 asks 404 for a record that does not exist;
// these specs ask the converse on every operation that lists 404 and acts on a record the suite
// can name: a valid request whose ids name only records the caller may act on (the fixtures'
// or ones the spec created, never a user's id) is not answered 404. Each sends every field the
// operation takes, so a lookup of any referenced record (a card's tag, a master card's group)
// is exercised too, and most act on a record created a moment before: a deployment that
// finds only the records it started with is caught.

// foundSpec declares the ERR-8 spec of op: body makes the request (creating what it acts on);
// what names the record for the spec's title.
func foundSpec(op Operation, as role, what string, body func() map[string]any, decorators ...any) {
	args := append([]any{Contract(op, AspectNotFound, "ERR-8")}, decorators...)
	args = append(args, func(ctx SpecContext) {
		req := body()
		By(fmt.Sprintf("sending %s with every field it takes", op.ID))
		expectFound(ctx, as, op, req)
	})
	It("finds "+what+": a valid request naming it is not answered 404", args...)
}

// expectFound sends body to op as r and fails on a 404 that lasts (finding).
func expectFound(ctx SpecContext, r role, op Operation, body map[string]any) {
	GinkgoHelper()
	ex := findingWhile(ctx, func() *Exchange { return call(r, op, body) }, func(ex *Exchange) bool { return ex.Status == 404 })
	Expect(ex.Status).NotTo(Equal(404), "%s: every id of the request names a record that exists and that %s may act on, yet the answer is 404 (resource not found), still %s after the first\n\n%s",
		Cite(rules.ERR8), r, cfg.PushWait, ex.Describe())
}

// finding makes a request that names a record created a moment before, sending it again while
// the answer may say the record was not found yet (404, or a validation error, which is how an
// operation that lists no 404 refuses an id), for up to cfg.PushWait (CONFORMANCE_PUSH_WAIT): a
// deployment may find a record it just created only once a replica has it (rule ERR-8), as a
// list may show it late (LIST-1). A refusal creates nothing, so sending a create again is safe.
func finding(ctx context.Context, send func() *Exchange) *Exchange {
	GinkgoHelper()
	return findingWhile(ctx, send, func(ex *Exchange) bool { return ex.Status == 404 || ex.Status == 422 })
}

// findingWhile is finding, sending again while notYet says the answer may be one of a record
// not found yet.
func findingWhile(ctx context.Context, send func() *Exchange, notYet func(*Exchange) bool) *Exchange {
	GinkgoHelper()
	var ex *Exchange
	cfg.Again(ctx, func() bool { ex = send(); return notYet(ex) })
	return ex
}

// createdID creates a record with op as r and returns its id, read at path; the spec skips when
// the create is refused (the specs of the create judge that).
func createdID(r role, op Operation, body map[string]any, path string) int64 {
	GinkgoHelper()
	ex := call(r, op, body)
	id, ok := ex.Int(path)
	if !ex.Succeeded() || !ok {
		Skip(fmt.Sprintf("%s answered %d without %s, so there is no new record to name (the specs of %s judge its answer)", op.ID, ex.Status, path, op.ID))
	}
	return id
}

// newCard is a card of the member's project created for the spec.
func newCard() int64 {
	GinkgoHelper()
	return createdID(member, OpCardsCreate, map[string]any{"title": unique("Card to find")}, "data.card.id")
}

// newMasterGroup is a group of the manifest's master board created for the spec.
func newMasterGroup() int64 {
	GinkgoHelper()
	return createdID(superadmin, OpMasterGroupsCreate, map[string]any{"board_id": manifest.Operations.MasterBoardID, "title": unique("Group to find")}, "data.group.id")
}

// newMasterCard is a widget master card of the manifest's master group, not pushed, created for
// the spec.
func newMasterCard() int64 {
	GinkgoHelper()
	return createdID(superadmin, OpMasterCardsCreate, map[string]any{"group_id": manifest.Operations.MasterGroupID, "title": unique("Master card to find"), "card_type": "widget"}, "data.card.id")
}

// newMasterBoard is a master board created for the spec, for a tool no project uses, so its
// sync copies nothing.
func newMasterBoard() int64 {
	GinkgoHelper()
	tool := fmt.Sprintf("conformance_found_%d_%d", GinkgoParallelProcess(), time.Now().UnixNano())
	return createdID(superadmin, OpMasterBoardsCreate, map[string]any{"title": unique("Board to find"), "tool_key": tool}, "data.board.id")
}

// dueIn is a date-time days ahead, which no rule on dates can find past.
func dueIn() string { return time.Now().UTC().Add(72 * time.Hour).Format(time.RFC3339) }

// masterCardBody sets every field of a master card, in group, at a valid value.
func masterCardBody(group int64) map[string]any {
	return map[string]any{"group_id": group, "title": unique("Found master card"), "description": unique("Found"),
		"unique_identifier": unique("found"), "evaluation_check": "found", "tour_key": "found_tour",
		"short_description": "Found", "card_type": "widget", "status": "in_progress", "is_active": true, "priority": "normal"}
}
