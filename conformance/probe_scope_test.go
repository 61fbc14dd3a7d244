package conformance_test

import (
	"reflect"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/rules"
)

var ruleScope = Cite(rules.SCOPE1)

// A scopeProbe sends an operation scoped to one kind of record a record of another kind.
type scopeProbe struct {
	op   Operation
	what string
	body func() map[string]any
	// projectCard is set when the record is the member's card, read back through cards/list.
	projectCard bool
}

var scopeProbes = []scopeProbe{
	{OpTourCardsUpdate, "a card of the member's project, not a master tour card", func() map[string]any {
		return map[string]any{"id": manifest.Operations.CardID, "status": "closed"}
	}, true},
	{OpTourCardsUpdate, "a master card that is not a tour card", func() map[string]any {
		return map[string]any{"id": widgetMasterCard(), "status": "closed"}
	}, false},
	{OpMasterCardsUpdate, "a card of the member's project, not a master card", func() map[string]any {
		return map[string]any{"id": manifest.Operations.CardID, "title": "Scope probe", "status": "blocked"}
	}, true},
	{OpMasterGroupsUpdate, "a group of the member's project, not a master group", func() map[string]any {
		return map[string]any{"id": manifest.Operations.GroupID, "title": "Scope probe"}
	}, false},
	{OpMasterBoardsSync, "a board of the member's project, not a master board", func() map[string]any {
		return map[string]any{"board_id": manifest.Operations.BoardID}
	}, false},
}

// The scope matrix (rule SCOPE-1): each is refused in a status the operation lists, in its
// shape, and the member's card named is read back unchanged. Serial: the read-back compares
// the card before and after, which another spec running at the same time could change.
var _ = Describe("Probes: scope", func() {
	for _, p := range scopeProbes {
		probeContext(p.op, func() {
			It("refuses "+p.what+" and leaves it unchanged", Serial, Probed(Contract(p.op, AspectTransition, "SCOPE-1"), ProbeScope), func(ctx SpecContext) {
				var before map[string]any
				if p.projectCard {
					By("reading the member's card before")
					before, _ = findByID(memberCards(member), manifest.Operations.CardID)
				}
				ex := sendCtx(ctx, Request{Op: p.op, As: caller(p.op).String(), Token: token(caller(p.op), p.op), Body: p.body()})
				Expect(ex).To(HaveErrorStatus(), ruleScope)
				Expect(ex).To(HaveErrorShape(), ruleScope)
				if before == nil {
					return
				}
				By("reading the member's card after")
				after, ok := findByID(memberCards(member), manifest.Operations.CardID)
				Expect(ok).To(BeTrue(), "%s: the member's card %d is still listed", ruleScope, manifest.Operations.CardID)
				for _, k := range []string{"status", "title"} {
					Expect(reflect.DeepEqual(after[k], before[k])).To(BeTrue(), "%s: the card's %s was %v and is %v", ruleScope, k, before[k], after[k])
				}
			})
		})
	}
})

// widgetMasterCard creates a master widget card (not pushed) and returns its id: one no other
// spec turns into a tour card.
func widgetMasterCard() int64 {
	GinkgoHelper()
	c := call(superadmin, OpMasterCardsCreate, map[string]any{"group_id": manifest.Operations.MasterGroupID, "title": unique("Scope probe widget"), "card_type": "widget"})
	expectSuccess(c)
	id, ok := c.Int("data.card.id")
	Expect(ok).To(BeTrue(), "%s\n\n%s", Cite(rules.DATA1), c.Describe())
	return id
}
