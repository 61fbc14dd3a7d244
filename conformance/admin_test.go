package conformance_test

import (
	"context"
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/rules"
)

var (
	cardTypes      = []string{"widget", "widget_tour", "tour"}
	masterStatuses = []string{"open", "in_progress", "closed", "to_check", "blocked"}
)

var _ = Describe("Admin area (superadmin operations)", func() {
	describeMasterCardsCreate()
	describeMasterCardsUpdate()
	describeMasterGroupsUpdate()
	describeMasterBoardsSync()
	describeMasterBoardsCreate()
	describeMasterBoardsList()
	describeMasterGroupsCreate()
})

func masterCardFields() []constraint {
	return []constraint{
		typed("title", "string"), maxChars("title", 255), typed("description", "string"),
		maxLen("unique_identifier", 100), maxLen("evaluation_check", 100), maxLen("tour_key", 100),
		typed("short_description", "string"), oneOf("card_type", cardTypes...),
		oneOf("status", masterStatuses...), typed("is_active", "boolean"), oneOf("priority", priorities...),
	}
}

func describeMasterCardsCreate() {
	op := OpMasterCardsCreate
	base := func() map[string]any {
		return map[string]any{"group_id": manifest.Operations.MasterGroupID, "title": "Conformance master card"}
	}
	operation(op, fieldRules{
		base: base,
		constraints: append([]constraint{required("group_id"), typed("group_id", "integer"), required("title")},
			append(masterCardFields(), typed("push_to_projects", "boolean"))...),
	}, func() {
		// Rules ENV-1, STATUS-2, DATA-1 (conformance/rules.md).
		It("creates a master card with 201 and the card record", Contract(op, AspectEnvelope, "ENV-1", "STATUS-2", "DATA-1"), func() {
			title := unique("Master card")
			ex := call(superadmin, op, map[string]any{"group_id": manifest.Operations.MasterGroupID, "title": title, "status": "to_check"})
			expectSuccess(ex)
			Expect(ex).To(HaveKind("data.card.id", "an integer"), Cite(rules.DATA1))
			Expect(ex).To(HaveJSON("data.card.title", "the title sent", func(v any, _ bool) bool { return v == title }), Cite(rules.DATA1))
			Expect(ex).To(HaveKind("data.projects_updated", "a string"), Cite(rules.DATA1))
		})

		// Rules ERR-4, ENV-2 (conformance/rules.md).
		It("answers 404 with body shape (a) for a group that does not exist", Contract(op, AspectNotFound, "ERR-4", "ENV-2"), func() {
			expectNotFound(call(superadmin, op, with(base(), "group_id", missingID)), Cite(rules.ERR4))
		})

		foundSpec(op, superadmin, "a master group the superadmin just created", func() map[string]any {
			return with(masterCardBody(newMasterGroup()), "push_to_projects", false)
		})

		// Rule PUSH-1, judged by the count of the member's cards (list records' fields are not
		// shown).
		It("pushes a new master card to the projects: the member's project lists one more card", Serial, Contract(op, AspectTransition, "PUSH-1"), func() {
			before := len(listedCards())
			ex := call(superadmin, op, map[string]any{"group_id": manifest.Operations.MasterGroupID, "title": unique("Pushed card"), "card_type": "widget", "push_to_projects": true})
			expectSuccess(ex)
			// The interface does not say a push is done when its answer is sent: the copy may
			// come later (D210).
			after := cardsAfter(before)
			Expect(after).To(BeNumerically(">", before), "%s: the member's card list and widget list held %d cards before the push and %d up to %s after\n\n%s", Cite(rules.PUSH1), before, after, cfg.PushWait, ex.Describe())
		})

		// D17, D22, D23: a master card is_master with no project; push_to_projects copies it into
		// the subscribed projects (master_card_id set) and counts them as a string.
		It("pushes a new master card to the member's project", Reference(op, AspectTransition), func() {
			ex := call(superadmin, op, map[string]any{"group_id": manifest.Operations.MasterGroupID, "title": unique("Pushed card"), "card_type": "widget", "push_to_projects": true})
			Expect(ex).To(HaveJSON("data.card.is_master", "true", func(v any, _ bool) bool { return v == true }), choiceMasterRecord)
			Expect(ex).To(HaveJSON("data.projects_updated", `a count of at least "1"`, func(v any, _ bool) bool { return v != "0" && v != "" }), choiceProjectsUpdated)
			id, _ := ex.Int("data.card.id")
			Expect(copiesOf(memberCards(member), id)).To(HaveLen(1), choicePushTargets+": one copy in the member's project")
		})
	})
}

// cardsAfter reads how many cards the member's project lists until there are more than before,
// for at most cfg.PushWait (CONFORMANCE_PUSH_WAIT: a push or a sync may be carried out after
// its answer, from a queue, D210), then until the count holds still (settledCards).
func cardsAfter(before int) int {
	GinkgoHelper()
	if n := countReaching(bg, listedCount, int64(before)+1); n <= int64(before) {
		return int(n)
	}
	return settledCards()
}

// settledCards reads how many cards the member's project lists until two reads a second apart
// agree, for at most cfg.PushWait: a push or sync carried out later may add its copies one by one.
func settledCards() int {
	GinkgoHelper()
	return int(settledCount(bg, listedCount))
}

// listedCount is listedCards' count, as settledCount and countReaching read it.
func listedCount(context.Context) int64 {
	GinkgoHelper()
	return int64(len(listedCards()))
}

func describeMasterCardsUpdate() {
	op := OpMasterCardsUpdate
	base := func() map[string]any { return map[string]any{"id": manifest.Operations.MasterCardID} }
	operation(op, fieldRules{
		base: base,
		constraints: append([]constraint{required("id"), typed("id", "integer"), typed("group_id", "integer")},
			append(masterCardFields(), typed("sync_to_projects", "boolean"))...),
	}, func() {
		// Rules TRANS-1, DATA-1 (conformance/rules.md). Serial: the field specs move the same
		// card, and a deployment reading the card back after writing it may rightly answer their
		// status.
		It("moves a master card to the given status", Serial, Contract(op, AspectTransition, "TRANS-1", "DATA-1"), func() {
			ex := call(superadmin, op, map[string]any{"id": manifest.Operations.MasterCardID, "status": "in_progress"})
			expectSuccess(ex)
			Expect(ex).To(HaveKind("data.projects_updated", "an integer"), Cite(rules.DATA1))
			expectTheStatusGiven(ex)
			By("updating it again with sync_to_projects: projects_updated is still an integer")
			ex = call(superadmin, op, map[string]any{"id": manifest.Operations.MasterCardID, "status": "in_progress", "sync_to_projects": true})
			expectSuccess(ex)
			Expect(ex).To(HaveKind("data.projects_updated", "an integer"), Cite(rules.DATA1))
		})

		// Rules ERR-4, ENV-2 (conformance/rules.md).
		It("answers 404 with body shape (a) for a master card that does not exist", Contract(op, AspectNotFound, "ERR-4", "ENV-2"), func() {
			expectNotFound(call(superadmin, op, map[string]any{"id": missingID}), Cite(rules.ERR4))
		})

		foundSpec(op, superadmin, "a master card the superadmin just created, and the master group it is moved to", func() map[string]any {
			return with(with(masterCardBody(newMasterGroup()), "id", newMasterCard()), "sync_to_projects", false)
		})

		// D22, D23, D24: after a sync the member's project holds a copy; sync_to_projects carries an
		// update to it and counts the copies changed.
		It("carries an update to the project copies with sync_to_projects", Reference(op, AspectTransition), func() {
			Expect(call(superadmin, OpMasterBoardsSync, map[string]any{"board_id": manifest.Operations.MasterBoardID})).To(HaveStatus(200), Cite(rules.SYNC1))
			title := unique("Synced title")
			ex := call(superadmin, op, map[string]any{"id": manifest.Operations.MasterCardID, "title": title, "sync_to_projects": true})
			Expect(ex).To(HaveStatus(200), Cite(rules.DATA1))
			Expect(ex).To(HaveJSON("data.projects_updated", "at least 1", func(v any, _ bool) bool { f, _ := Number(v); return f >= 1 }), choiceProjectsUpdated)
			copies := copiesOf(memberCards(member), manifest.Operations.MasterCardID)
			Expect(copies).NotTo(BeEmpty(), choicePushTargets+": the member's project holds a copy of the master card")
			Expect(copies[0]["title"]).To(Equal(title), choicePushTargets+": the copy carries the update")
		})
	})
}

func describeMasterGroupsUpdate() {
	op := OpMasterGroupsUpdate
	operation(op, fieldRules{
		base: func() map[string]any { return map[string]any{"id": manifest.Operations.MasterGroupID} },
		constraints: []constraint{
			required("id"), typed("id", "integer"), typed("title", "string"), maxChars("title", 255), typed("description", "string"),
		},
	}, func() {
		// Rules ENV-1, STATUS-2, DATA-1 (conformance/rules.md).
		It("updates a master group", Contract(op, AspectEnvelope, "ENV-1", "STATUS-2", "DATA-1"), func() {
			ex := call(superadmin, op, map[string]any{"id": manifest.Operations.MasterGroupID, "description": unique("Group")})
			expectSuccess(ex)
			Expect(ex).To(HavePresent("data.group"), Cite(rules.DATA1))
		})

		// Rules ERR-4, ENV-2 (conformance/rules.md).
		It("answers 404 with body shape (a) for a master group that does not exist", Contract(op, AspectNotFound, "ERR-4", "ENV-2"), func() {
			expectNotFound(call(superadmin, op, map[string]any{"id": missingID}), Cite(rules.ERR4))
		})

		foundSpec(op, superadmin, "a master group the superadmin just created", func() map[string]any {
			return map[string]any{"id": newMasterGroup(), "title": unique("Found group"), "description": unique("Found")}
		})

		// D21: the group comes back as a group record with the new title.
		It("returns the group record with the new title", Reference(op, AspectTransition), func() {
			title := unique("Master group")
			ex := call(superadmin, op, map[string]any{"id": manifest.Operations.MasterGroupID, "title": title})
			Expect(ex).To(HaveJSON("data.group.title", "the title sent", func(v any, _ bool) bool { return v == title }), choiceMixedRecords)
		})
	})
}

func describeMasterBoardsSync() {
	op := OpMasterBoardsSync
	body := func() map[string]any { return map[string]any{"board_id": manifest.Operations.MasterBoardID} }
	operation(op, fieldRules{
		base:        body,
		constraints: []constraint{required("board_id"), typed("board_id", "integer")},
	}, func() {
		// Rules DATA-1, STATUS-2 (conformance/rules.md).
		It("re-syncs the projects and reports integer counters", Contract(op, AspectTransition, "DATA-1", "STATUS-2"), func() {
			ex := call(superadmin, op, body())
			expectSuccess(ex)
			for _, f := range []string{"synced_count", "boards_created", "skipped_no_access"} {
				Expect(ex).To(HaveKind("data."+f, "an integer"), Cite(rules.SYNC1))
			}
		})

		foundSpec(op, superadmin, "a master board the superadmin just created", func() map[string]any {
			return map[string]any{"board_id": newMasterBoard()}
		})

		// Rules ERR-4, ENV-2 (conformance/rules.md).
		It("answers 404 with body shape (a) for a master board that does not exist", Contract(op, AspectNotFound, "ERR-4", "ENV-2"), func() {
			expectNotFound(call(superadmin, op, map[string]any{"board_id": missingID}), Cite(rules.ERR4))
		})

		// Rule SYNC-1, judged by the count of the member's cards (list records' fields are not
		// shown).
		It("adds a master card new since the last sync to the member's project, and a second sync adds none", Serial, Contract(op, AspectTransition, "SYNC-1"), func() {
			By("syncing once, so only the card created next is missing from the projects")
			expectSuccess(call(superadmin, op, body()))
			// Counted before the card exists: a first sync carried out late (D210) may copy it
			// too, and either sync's copy counts.
			before := settledCards()
			// push_to_projects false: its default is not shown, so the suite says what it means.
			c := call(superadmin, OpMasterCardsCreate, map[string]any{"group_id": manifest.Operations.MasterGroupID, "title": unique("Card to sync"), "card_type": "widget", "push_to_projects": false})
			Expect(c).To(HaveStatus(201), Cite(rules.STATUS2))
			expectSuccess(call(superadmin, op, body()))
			// A sync, like a push, may be carried out after its answer (D210).
			once := cardsAfter(before)
			Expect(once).To(BeNumerically(">", before), "%s: the member's card list and widget list held %d cards before the master card was created and synced, and %d up to %s after", Cite(rules.SYNC1), before, once, cfg.PushWait)
			expectSuccess(call(superadmin, op, body()))
			twice := settledCards()
			if twice > once {
				// A sync carried out late may have copied the card after it was counted: one more
				// sync tells that from a sync that copies again each time.
				By(fmt.Sprintf("the count moved from %d to %d after the second sync; syncing a third time to tell a late copy from a repeated one", once, twice))
				expectSuccess(call(superadmin, op, body()))
				thrice := settledCards()
				Expect(thrice).To(Equal(twice), "%s: each sync added cards again: %d cards after the first, %d after the second, %d after the third", Cite(rules.SYNC1), once, twice, thrice)
				return
			}
			Expect(twice).To(Equal(once), "%s: a second sync changed the card count by %d", Cite(rules.SYNC1), twice-once)
		})

		// D23, D24: a master card created without push reaches the member's project on sync; a
		// second sync creates no board and no card. Serial: a sync or a master board created by a
		// spec running beside it would copy the card early or give the second sync a board to make.
		It("adds a new master card to the member's project, and a second sync adds nothing", Serial, Reference(op, AspectTransition), func() {
			c := call(superadmin, OpMasterCardsCreate, map[string]any{"group_id": manifest.Operations.MasterGroupID, "title": unique("Synced card"), "card_type": "widget"})
			Expect(c).To(HaveStatus(201), Cite(rules.STATUS2))
			id, _ := c.Int("data.card.id")
			Expect(copiesOf(memberCards(member), id)).To(BeEmpty(), choiceProjectsUpdated+": without push_to_projects no copy is made")
			first := call(superadmin, op, body())
			Expect(first).To(HaveJSON("data.synced_count", "at least 1", func(v any, _ bool) bool { f, _ := Number(v); return f >= 1 }), choiceSyncCounters)
			Expect(copiesOf(memberCards(member), id)).To(HaveLen(1), choiceSyncCounters+": the sync adds the missing card copy")
			second := call(superadmin, op, body())
			Expect(second).To(HaveJSON("data.boards_created", "0", eqNum(0)), choiceSyncCounters+": a second sync creates nothing")
			Expect(copiesOf(memberCards(member), id)).To(HaveLen(1), choiceSyncCounters+": a second sync adds no card")
		})
	})
}

func describeMasterBoardsCreate() {
	op := OpMasterBoardsCreate
	base := func() map[string]any {
		// A tool may have to have one master board only (not shown): a tool of its own.
		return map[string]any{"title": unique("Conformance master board"), "tool_key": "conformance-tool-" + runTag()}
	}
	operation(op, fieldRules{
		base: base,
		constraints: []constraint{
			required("title"), typed("title", "string"), maxChars("title", 255), required("tool_key"), maxLen("tool_key", 100),
			typed("description", "string"), maxLen("color", 50), maxLen("icon", 100),
		},
	}, func() {
		// Rules ENV-1, STATUS-2, DATA-1 (conformance/rules.md).
		It("creates a master board", Contract(op, AspectEnvelope, "ENV-1", "STATUS-2", "DATA-1"), func() {
			ex := call(superadmin, op, with(base(), "title", unique("Master board")))
			expectSuccess(ex)
			Expect(ex).To(HavePresent("data.board"), Cite(rules.DATA1))
		})

		// D1, D17, D21: 200; a board record, is_master with no project, whose title master-boards/list lists.
		It("answers 200 with a master board record whose title master-boards/list lists", Reference(op, AspectTransition), func() {
			title := unique("Listed master board")
			ex := call(superadmin, op, with(base(), "title", title))
			Expect(ex).To(HaveStatus(200), choiceStatus)
			Expect(ex).To(HaveJSON("data.board.is_master", "true", func(v any, _ bool) bool { return v == true }), choiceMasterRecord)
			list := call(superadmin, OpMasterBoardsList, nil)
			Expect(stringsAt(list, "data.boards")).To(ContainElement(title), choiceMixedRecords+"\n\n%s", list.Describe())
		})
	})
}

func describeMasterBoardsList() {
	op := OpMasterBoardsList
	operation(op, fieldRules{}, func() {
		// Rules ENV-1, STATUS-2, DATA-1 (conformance/rules.md).
		It("lists the master boards", Contract(op, AspectEnvelope, "ENV-1", "STATUS-2", "DATA-1"), func() {
			ex := call(superadmin, op, nil)
			expectSuccess(ex)
			Expect(ex).To(HaveKind("data.boards", "an array"), Cite(rules.DATA1))
		})

		// D21: one title per master board, the manifest's master board among them.
		It("lists the master boards' titles, one non-empty string each", Reference(op, AspectEnvelope), func() {
			ex := call(superadmin, op, nil)
			items, _ := ex.Get("data.boards")
			list, _ := items.([]any)
			Expect(list).NotTo(BeEmpty(), choiceMixedRecords+": the manifest's master board is listed\n\n%s", ex.Describe())
			for _, it := range list {
				Expect(it).To(And(BeAssignableToTypeOf(""), Not(BeEmpty())), choiceMixedRecords+"\n\n%s", ex.Describe())
			}
		})
	})
}

func describeMasterGroupsCreate() {
	op := OpMasterGroupsCreate
	base := func() map[string]any {
		return map[string]any{"board_id": manifest.Operations.MasterBoardID, "title": "Conformance master group"}
	}
	operation(op, fieldRules{
		base: base,
		constraints: []constraint{
			required("board_id"), typed("board_id", "integer"), required("title"), typed("title", "string"),
			maxChars("title", 255), typed("description", "string"),
		},
	}, func() {
		// Rules ENV-1, STATUS-2, DATA-1 (conformance/rules.md).
		It("creates a master group and returns the group record", Contract(op, AspectEnvelope, "ENV-1", "STATUS-2", "DATA-1"), func() {
			title := unique("Master group")
			ex := call(superadmin, op, with(base(), "title", title))
			expectSuccess(ex)
			Expect(ex).To(HaveKind("data.group.id", "an integer"), Cite(rules.DATA1))
			Expect(ex).To(HaveJSON("data.group.title", "the title sent", func(v any, _ bool) bool { return v == title }), Cite(rules.DATA1))
		})

		// D1, D17: 200; the group is a master group of the board.
		It("answers 200 with a master group of the board", Reference(op, AspectTransition), func() {
			ex := call(superadmin, op, base())
			Expect(ex).To(HaveStatus(200), choiceStatus)
			Expect(ex).To(HaveJSON("data.group.is_master", "true", func(v any, _ bool) bool { return v == true }), choiceMasterRecord)
			Expect(ex).To(HaveJSON("data.group.board_id", "the board sent", eqNum(manifest.Operations.MasterBoardID)), choiceMasterRecord)
		})

		// D1 and rule ERR-4 (this operation's codes are not shown): a board that
		// does not exist is 404.
		It("answers 404 for a master board that does not exist", Reference(op, AspectNotFound), func() {
			expectNotFound(call(superadmin, op, with(base(), "board_id", missingID)), choiceStatus+"; "+Cite(rules.ERR4))
		})
	})
}

// stringsAt returns the strings of the JSON array at path of the answer (other items left out).
func stringsAt(ex *Exchange, path string) []string {
	v, _ := ex.Get(path)
	items, _ := v.([]any)
	out := make([]string, 0, len(items))
	for _, it := range items {
		if s, ok := it.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
