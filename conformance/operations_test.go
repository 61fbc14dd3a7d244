package conformance_test

import (
	"fmt"
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/opsapi/mocktoolkit/conformance"

	"github.com/opsapi/mocktoolkit/conformance/rules"
)

var priorities = []string{"low", "normal", "high", "urgent"}

var _ = Describe("Operations area", func() {
	describeCommentsList()
	describeCardsUpdate()
	describeBoardsUpdate()
	describeWidgetCardsList()
	describeTourCardsUpdate()
	describeGroupsDelete()
	describeBoardsList()
	describeCardsList()
	describeTagsList()
	describeCardsCreate()
	describeCommentsCreate()
	describeTagsCreate()
})

func describeCommentsList() {
	op := OpCommentsList
	operation(op, fieldRules{
		base: func() map[string]any { return map[string]any{"card_id": manifest.Operations.CardID} },
		constraints: []constraint{
			required("card_id"), typed("card_id", "integer"),
			typed("page", "integer"), minimum("page", 1),
			typed("per_page", "integer"), minimum("per_page", 1), maximum("per_page", 100),
		},
	}, func() {
		// Rules ENV-1, STATUS-2, DATA-1 (conformance/rules.md).
		It("lists a card's comments with a pagination object", Contract(op, AspectEnvelope, "ENV-1", "STATUS-2", "DATA-1"), func() {
			ex := call(member, op, map[string]any{"card_id": manifest.Operations.CardID})
			expectSuccess(ex)
			Expect(ex).To(HaveKind("data.comments", "an array"), Cite(rules.DATA1))
			for _, f := range []string{"total", "per_page", "current_page", "total_pages"} {
				Expect(ex).To(HaveKind("data.pagination."+f, "an integer"), Cite(rules.DATA1))
			}
		})

		isolationSpec(op, "the member's card's comments", func() map[string]any { return map[string]any{"card_id": manifest.Operations.CardID} })

		// Rule PAGE-1: the pagination object adds up, judged within each answer (other specs may
		// add comments between two requests).
		It("paginates: per_page and current_page as asked, total_pages and page lengths from total", Contract(op, AspectEnvelope, "PAGE-1"), func() {
			card := manifest.Operations.CardID
			first := call(member, op, map[string]any{"card_id": card, "per_page": 2, "page": 1})
			Expect(first).To(HaveStatus(200), Cite(rules.DATA1))
			if total, _ := first.Int("data.pagination.total"); total < 3 {
				By("adding comments so the card has at least three")
				for range 3 - total {
					expectSuccess(call(member, OpCommentsCreate, map[string]any{"card_id": card, "comment": unique("Pagination comment")}))
				}
			}
			checkPage := func(page int64) *Exchange {
				GinkgoHelper()
				ex := call(member, op, map[string]any{"card_id": card, "per_page": 2, "page": page})
				Expect(ex).To(HaveStatus(200), Cite(rules.DATA1))
				Expect(ex).To(KeepTheContract(), "%s: page %d, 2 a page", Cite(rules.PAGE1), page)
				return ex
			}
			p1 := checkPage(1)
			last, _ := p1.Int("data.pagination.total_pages")
			checkPage(last)
		})

		// D43: comments/list lists no 404, so a card that does not exist fails the card_id rule:
		// 422 keyed by card_id.
		It("answers 422 keyed by card_id for a card that does not exist", Reference(op, AspectNotFound), func() {
			ex := call(member, op, map[string]any{"card_id": missingID})
			Expect(ex).To(HaveStatus(422), choiceCommentsCard)
			Expect(ex).To(HaveValidationErrorFor("card_id"), choiceCommentsCard)
		})

		// D26: page 1 and per_page 15 by default.
		It("defaults to page 1 of 15 comments", Reference(op, AspectEnvelope), func() {
			ex := call(member, op, map[string]any{"card_id": manifest.Operations.CardID})
			Expect(ex).To(HaveJSON("data.pagination.current_page", "1", eqNum(1)), choiceCommentPages)
			Expect(ex).To(HaveJSON("data.pagination.per_page", "15", eqNum(15)), choiceCommentPages)
		})

		// D12, D43: another project's card answers as one that does not exist (422 keyed by
		// card_id), never with its comments.
		It("answers an outsider asking for the member's card's comments with 422 keyed by card_id", Reference(op, AspectIsolation), func() {
			ex := call(outsider, op, map[string]any{"card_id": manifest.Operations.CardID})
			Expect(ex).To(HaveStatus(422), choiceOtherProject+"; "+choiceCommentsCard)
			Expect(ex).To(HaveValidationErrorFor("card_id"), choiceOtherProject+"; "+choiceCommentsCard)
		})
	})
}

func eqNum(n int64) func(any, bool) bool {
	return func(v any, ok bool) bool { i, whole := Integer(v); return ok && whole && i == n }
}

func describeCardsUpdate() {
	op := OpCardsUpdate
	operation(op, fieldRules{
		base: func() map[string]any { return map[string]any{"id": manifest.Operations.CardID} },
		constraints: []constraint{
			required("id"), typed("id", "integer"),
			typed("title", "string"), maxChars("title", 255), typed("description", "string"),
			typed("group_id", "integer"), typed("status", "string"), maxLen("status", 50),
			typed("owner_id", "integer"), typed("tag_id", "integer"), typed("due_date", "string"), formatted("due_date", "date-time"),
			oneOf("priority", priorities...), typed("snoozed_until", "string"), formatted("snoozed_until", "date-time"),
		},
	}, func() {
		// Rules ENV-1, STATUS-2, DATA-1 (conformance/rules.md).
		It("updates a card of the member's project", Contract(op, AspectEnvelope, "ENV-1", "STATUS-2", "DATA-1"), func() {
			ex := call(member, op, map[string]any{"id": manifest.Operations.CardID, "description": unique("Updated")})
			expectSuccess(ex)
			Expect(ex).To(HavePresent("data.card"), Cite(rules.DATA1))
		})

		// Rules ERR-4, ENV-2 (conformance/rules.md).
		It("answers 404 with body shape (a) for a card that does not exist", Contract(op, AspectNotFound, "ERR-4", "ENV-2"), func() {
			expectNotFound(call(member, op, map[string]any{"id": missingID}), Cite(rules.ERR4))
		})

		// D20: lists return full records; an update shows in cards/list.
		It("shows the updated title in cards/list", Reference(op, AspectTransition), func() {
			title := unique("Card")
			Expect(call(member, op, map[string]any{"id": manifest.Operations.CardID, "title": title})).To(HaveStatus(200), Cite(rules.DATA1))
			card, ok := findByID(memberCards(member), manifest.Operations.CardID)
			Expect(ok).To(BeTrue(), choiceWholeRecords+": cards/list lists the member's card %d", manifest.Operations.CardID)
			Expect(card["title"]).To(Equal(title), choiceWholeRecords+": cards/list shows the updated title")
		})

		// D28: a group_id that does not exist in the caller's project is 404.
		It("answers 404 for a group that does not exist", Reference(op, AspectNotFound), func() {
			expectNotFound(call(member, op, map[string]any{"id": manifest.Operations.CardID, "group_id": missingID}), choiceCardRefs)
		})

		foundSpec(op, member, "a card the member just created, and the group and tag it is moved to", func() map[string]any {
			return map[string]any{"id": newCard(), "title": unique("Found card"), "description": unique("Found"),
				"group_id": manifest.Operations.GroupID, "status": "in_progress", "tag_id": manifest.Operations.TagID,
				"due_date": dueIn(), "priority": "high", "snoozed_until": nil}
		})

		isolationSpec(op, "the member's card", func() map[string]any {
			return map[string]any{"id": manifest.Operations.CardID, "title": "outsider"}
		})

		// D12: another project's records answer 404 and are not changed.
		It("does not let an outsider update the member's card", Reference(op, AspectIsolation), func() {
			expectNotFound(call(outsider, op, map[string]any{"id": manifest.Operations.CardID, "title": "outsider"}), choiceOtherProject)
			card, _ := findByID(memberCards(member), manifest.Operations.CardID)
			Expect(card["title"]).NotTo(Equal("outsider"), choiceOtherProject+": the card is unchanged")
		})
	})
}

func describeBoardsUpdate() {
	op := OpBoardsUpdate
	operation(op, fieldRules{
		base: func() map[string]any { return map[string]any{"id": manifest.Operations.BoardID} },
		constraints: []constraint{
			required("id"), typed("id", "integer"),
			typed("title", "string"), maxChars("title", 255), typed("description", "string"),
			maxLen("color", 50), maxLen("icon", 100), typed("position", "integer"),
		},
	}, func() {
		// Rules ENV-1, STATUS-2, DATA-1 (conformance/rules.md).
		It("updates a board of the member's project", Contract(op, AspectEnvelope, "ENV-1", "STATUS-2", "DATA-1"), func() {
			ex := call(member, op, map[string]any{"id": manifest.Operations.BoardID, "description": unique("Board")})
			expectSuccess(ex)
			Expect(ex).To(HavePresent("data.board"), Cite(rules.DATA1))
		})

		// Rules ERR-4, ENV-2 (conformance/rules.md).
		It("answers 404 with body shape (a) for a board that does not exist", Contract(op, AspectNotFound, "ERR-4", "ENV-2"), func() {
			expectNotFound(call(member, op, map[string]any{"id": missingID}), Cite(rules.ERR4))
		})

		// D20: an update shows in boards/list.
		It("shows the updated title in boards/list", Reference(op, AspectTransition), func() {
			title := unique("Board")
			Expect(call(member, op, map[string]any{"id": manifest.Operations.BoardID, "title": title})).To(HaveStatus(200), Cite(rules.DATA1))
			ex := call(member, OpBoardsList, nil)
			board, ok := findByID(ex.Objects("data.boards"), manifest.Operations.BoardID)
			Expect(ok).To(BeTrue(), choiceWholeRecords+": boards/list lists board %d\n\n%s", manifest.Operations.BoardID, ex.Describe())
			Expect(board["title"]).To(Equal(title), choiceWholeRecords)
		})

		// Serial: it renames the manifest's board, whose title a spec beside it reads back.
		foundSpec(op, member, "the member's board", func() map[string]any {
			return map[string]any{"id": manifest.Operations.BoardID, "title": unique("Found board"), "description": unique("Found"),
				"color": "#336699", "icon": "star", "position": 1}
		}, Serial)

		isolationSpec(op, "the member's board", func() map[string]any {
			return map[string]any{"id": manifest.Operations.BoardID, "title": "outsider"}
		})

		// D12: another project's records answer 404.
		It("does not let an outsider update the member's board", Reference(op, AspectIsolation), func() {
			expectNotFound(call(outsider, op, map[string]any{"id": manifest.Operations.BoardID, "title": "outsider"}), choiceOtherProject)
		})
	})
}

func describeWidgetCardsList() {
	op := OpWidgetCardsList
	operation(op, fieldRules{
		base: func() map[string]any { return map[string]any{"tool_key": manifest.Operations.ToolKey} },
		constraints: []constraint{
			required("tool_key"), typed("tool_key", "string"), maxLen("tool_key", 50),
			typed("include_snoozed", "boolean"),
		},
	}, func() {
		// Rules ENV-1, STATUS-2, DATA-1 (conformance/rules.md).
		It("lists the widget cards of a tool with the count of snoozed ones", Contract(op, AspectEnvelope, "ENV-1", "STATUS-2", "DATA-1"), func() {
			ex := call(member, op, map[string]any{"tool_key": manifest.Operations.ToolKey})
			expectSuccess(ex)
			Expect(ex).To(HaveKind("data.cards", "an array"), Cite(rules.DATA1))
			Expect(ex).To(HaveKind("data.snoozed_count", "an integer"), Cite(rules.DATA1))
		})

		// Rule TOOL-1: a tool key of this run, which no board holds, lists no card; a refusal
		// (the reference's 403, D13) is the deployment's choice and passes.
		It("lists no card for a tool key no board holds", Contract(op, AspectTransition, "TOOL-1"), func() {
			ex := call(member, op, map[string]any{"tool_key": "no-such-tool-" + runTag()})
			if ex.Status >= 200 && ex.Status < 300 {
				Expect(ex).To(HaveJSON("data.cards", "an empty array", func(v any, _ bool) bool {
					cards, ok := v.([]any)
					return ok && len(cards) == 0
				}), "%s\n\n%s", Cite(rules.TOOL1), ex.Describe())
			}
		})

		// D13: a tool the caller's project does not subscribe to answers 403 shape (a).
		It("answers 403 with body shape (a) for a tool the project does not subscribe to", Reference(op, AspectAuth), func() {
			ex := call(member, op, map[string]any{"tool_key": "conformance-unsubscribed"})
			Expect(ex).To(HaveStatus(403), choiceSubscription)
			Expect(ex).To(HaveEnvelopeA(), choiceSubscription)
		})

		// Rule SNOOZE-1, judged by counts (list records' fields are not shown; a card listed with
		// an id is needed to pick one, else the spec skips).
		// It snoozes a card (cards/update) to see it leave the list: a write (D110).
		It("counts a card snoozed into the future in snoozed_count and lists it only with include_snoozed", Serial, Writes(Contract(op, AspectTransition, "SNOOZE-1")), func() {
			tool := manifest.Operations.ToolKey
			list := func(include bool) *Exchange {
				GinkgoHelper()
				ex := call(member, op, map[string]any{"tool_key": tool, "include_snoozed": include})
				Expect(ex).To(HaveStatus(200), Cite(rules.DATA1))
				return ex
			}
			count := func(ex *Exchange) int64 {
				v, _ := ex.Get("data.cards")
				a, _ := v.([]any)
				return int64(len(a))
			}
			// A list may be served from a cache or a replica that shows a write some time after
			// answering it (D210): the counts before are read once they hold still, those after
			// for up to CONFORMANCE_PUSH_WAIT until they show the snooze.
			shape := func(ex *Exchange) string {
				n, _ := ex.Int("data.snoozed_count")
				return fmt.Sprintf("%d/%d", n, count(ex))
			}
			awake := list(false)
			for deadline := time.Now().Add(cfg.PushWait); time.Now().Before(deadline); {
				time.Sleep(time.Second)
				again := list(false)
				if shape(again) == shape(awake) {
					break
				}
				awake = again
			}
			all := list(true)
			ids := idsOf(awake.Objects("data.cards"))
			if len(ids) == 0 {
				Skip("the widget list of the manifest's tool names no card by id (list records' fields are not shown), so no card can be chosen to snooze")
			}
			id := ids[0]
			snoozed, _ := awake.Int("data.snoozed_count")
			By(fmt.Sprintf("snoozing card %d for thirty days of the deployment's time", id))
			until := snoozeUntil(awake)
			snooze := call(member, OpCardsUpdate, map[string]any{"id": id, "snoozed_until": until})
			if snooze.Status == 403 || snooze.Status == 404 {
				Skip(fmt.Sprintf("cards/update refuses widget card %d with %d: the interface does not say that widget cards are the member's cards, so none can be snoozed", id, snooze.Status))
			}
			Expect(snooze).To(HaveStatus(200), Cite(rules.DATA1))
			DeferCleanup(func() { call(member, OpCardsUpdate, map[string]any{"id": id, "snoozed_until": nil}) })

			after := list(false)
			for deadline := time.Now().Add(cfg.PushWait); shape(after) != fmt.Sprintf("%d/%d", snoozed+1, count(awake)-1) && time.Now().Before(deadline); {
				time.Sleep(250 * time.Millisecond)
				after = list(false)
			}
			Expect(after).To(HaveJSON("data.snoozed_count", fmt.Sprintf("%d, one more than before", snoozed+1), eqNum(snoozed+1)), Cite(rules.SNOOZE1))
			Expect(count(after)).To(Equal(count(awake)-1), "%s: with include_snoozed false the card leaves the list\n\n%s", Cite(rules.SNOOZE1), after.Describe())
			listed := list(true)
			for deadline := time.Now().Add(cfg.PushWait); count(listed) != count(all) && time.Now().Before(deadline); {
				time.Sleep(250 * time.Millisecond)
				listed = list(true)
			}
			Expect(count(listed)).To(Equal(count(all)), "%s: with include_snoozed true the card stays listed", Cite(rules.SNOOZE1))
		})

		// D29, D18, D20: a card snoozed into the future leaves the default list, is counted in
		// snoozed_count, and is listed with include_snoozed; null snoozed_until wakes it.
		It("hides a snoozed card unless include_snoozed is true", Writes(Reference(op, AspectTransition)), func() {
			all := call(member, op, map[string]any{"tool_key": manifest.Operations.ToolKey, "include_snoozed": true})
			shown := call(member, op, map[string]any{"tool_key": manifest.Operations.ToolKey})
			visible := idsOf(shown.Objects("data.cards"))
			Expect(visible).NotTo(BeEmpty(), "the manifest's tool holds widget cards (fixture manifest)\n\n%s", shown.Describe())
			id := visible[0]
			before, _ := shown.Int("data.snoozed_count")
			Expect(idsOf(all.Objects("data.cards"))).To(ContainElement(id), choiceSnoozed)

			until := snoozeUntil(shown)
			Expect(call(member, OpCardsUpdate, map[string]any{"id": id, "snoozed_until": until})).To(HaveStatus(200), Cite(rules.DATA1))
			DeferCleanup(func() {
				call(member, OpCardsUpdate, map[string]any{"id": id, "snoozed_until": nil})
			})

			after := call(member, op, map[string]any{"tool_key": manifest.Operations.ToolKey})
			Expect(idsOf(after.Objects("data.cards"))).NotTo(ContainElement(id), choiceSnoozed+": a snoozed card is hidden by default\n\n%s", after.Describe())
			Expect(after).To(HaveJSON("data.snoozed_count", "one more than before", func(v any, _ bool) bool {
				n, _ := Integer(v)
				return n >= before+1
			}), choiceSnoozed)
			listed := call(member, op, map[string]any{"tool_key": manifest.Operations.ToolKey, "include_snoozed": true})
			Expect(idsOf(listed.Objects("data.cards"))).To(ContainElement(id), choiceSnoozed+": include_snoozed lists it\n\n%s", listed.Describe())
		})
	})
}

func describeTourCardsUpdate() {
	op := OpTourCardsUpdate
	operation(op, fieldRules{
		base: func() map[string]any {
			return map[string]any{"id": manifest.Operations.MasterTourCardID, "status": "open"}
		},
		constraints: []constraint{
			required("id"), typed("id", "integer"), required("status"), oneOf("status", "open", "closed"),
		},
	}, func() {
		// Rule TRANS-1 (conformance/rules.md). Serial: the field specs move the same card, and a
		// deployment reading the card back after writing it may rightly answer their status.
		It("moves a tour card to the given status", Serial, Contract(op, AspectTransition, "TRANS-1"), func() {
			for _, status := range []string{"closed", "open"} {
				ex := call(member, op, map[string]any{"id": manifest.Operations.MasterTourCardID, "status": status})
				expectSuccess(ex)
				expectTheStatusGiven(ex)
			}
		})

		// D32, read back: the status the answer shows is kept on the master card. Where a member's
		// tour status is kept (the shared master card, or per project or user, as an outside
		// vendor keeps tour progress) is not shown, so this is the reference's choice.
		// master-cards/update with only the id changes nothing (every other field is optional)
		// and answers the card; where it answers no card object, or refuses an update of
		// nothing, there is nothing to read and the spec skips. Serial: the field specs move the
		// same card.
		It("keeps the status a tour card is moved to on the master card, as master-cards/update then shows it", Serial, Reference(op, AspectTransition), func() {
			id := manifest.Operations.MasterTourCardID
			for _, status := range []string{"closed", "open"} {
				expectSuccess(call(member, op, map[string]any{"id": id, "status": status}))
				By("reading the card back as the superadmin, with master-cards/update of its id alone")
				back := call(superadmin, OpMasterCardsUpdate, map[string]any{"id": id})
				v, _ := back.Get("data.card.status")
				if back.Status != 200 || v == nil {
					Skip(fmt.Sprintf("master-cards/update of the id alone answered %d without data.card.status, so the tour card cannot be read back", back.Status))
				}
				Expect(v).To(Equal(status), "%s: tour/cards/update answered success for %q, yet the master card's status is %v\n\n%s", choiceTourStatusOnMaster, status, v, back.Describe())
			}
		})

		// Rules ERR-4, ENV-2 (conformance/rules.md).
		It("answers 404 with body shape (a) for a card that does not exist", Contract(op, AspectNotFound, "ERR-4", "ENV-2"), func() {
			expectNotFound(call(member, op, map[string]any{"id": missingID, "status": "open"}), Cite(rules.ERR4))
		})

		// D32: only master tour cards; a project card is 404.
		It("answers 404 for a card that is not a master tour card", Reference(op, AspectNotFound), func() {
			expectNotFound(call(member, op, map[string]any{"id": manifest.Operations.CardID, "status": "open"}), choiceTourCards)
		})

		// D32, D21: the card record comes back with the status; any authenticated user may call it.
		It("returns the card record with the new status, to any authenticated user", Reference(op, AspectTransition), func() {
			ex := call(outsider, op, map[string]any{"id": manifest.Operations.MasterTourCardID, "status": "open"})
			Expect(ex).To(HaveStatus(200), choiceTourCards)
			Expect(ex).To(HaveJSON("data.card.status", `"open"`, func(v any, _ bool) bool { return v == "open" }), choiceMixedRecords)
		})
	})
}

func describeGroupsDelete() {
	op := OpGroupsDelete
	operation(op, fieldRules{
		base:        func() map[string]any { return map[string]any{"id": missingID} },
		constraints: []constraint{required("id"), typed("id", "integer")},
	}, func() {
		// Rules ERR-4, ENV-2 (conformance/rules.md).
		It("answers 404 with body shape (a) for a group that does not exist", Contract(op, AspectNotFound, "ERR-4", "ENV-2"), func() {
			expectNotFound(call(member, op, map[string]any{"id": missingID}), Cite(rules.ERR4))
		})

		// Rule GROUP-1. The manifest names no group to spend, so the group comes from a master
		// card pushed into a new master group; the spec skips when the member's card list does
		// not show the copy's group (list records' fields are not shown). What becomes of a
		// group's cards is not shown, and a deployment may refuse to delete a group that holds
		// some: the spec moves the copy out first (cards/update takes group_id), and skips if
		// the deployment then still shows cards in it and refuses. Which groups a member may
		// delete is not shown either: a 403 skips too.
		It("deletes a group, and a second delete of the same id is 404", Serial, Contract(op, AspectTransition, "GROUP-1"), func() {
			group := pushedGroup()
			By("moving the group's cards to the manifest's group")
			for _, c := range memberCards(member) {
				if g, _ := num(c, "group_id"); g == group {
					id, _ := num(c, "id")
					finding(bg, func() *Exchange {
						return call(member, OpCardsUpdate, map[string]any{"id": id, "group_id": manifest.Operations.GroupID})
					})
				}
			}
			ex := finding(bg, func() *Exchange { return call(member, op, map[string]any{"id": group}) }) // a group a push made a moment ago (ERR-8)
			if ex.Status == 403 {
				Skip("groups/delete answered 403 to the member deleting the group a master card push gave its project: which groups a member may delete is not shown (one a master board manages may be the superadmin's)")
			}
			if ex.Status == 400 || ex.Status == 422 {
				for _, c := range memberCards(member) {
					if g, _ := num(c, "group_id"); g == group {
						Skip(fmt.Sprintf("groups/delete answered %d, and the group still holds cards the member could not move out (cards/update of group_id was refused): a deployment may refuse to delete a group with cards, since what becomes of them is not shown", ex.Status))
					}
				}
			}
			Expect(ex).To(HaveStatus(200), Cite(rules.GROUP1))
			Expect(ex).To(HaveJSON("data", "an empty array", func(v any, _ bool) bool { a, ok := v.([]any); return ok && len(a) == 0 }), Cite(rules.GROUP1))
			for range 3 { // a deployment that finds a deleted group only now and then is caught too
				again := call(member, op, map[string]any{"id": group})
				Expect(again).To(HaveStatus(404), Cite(rules.GROUP1))
				Expect(again).To(HaveEnvelopeA())
			}
		})

		// D23, D25 (setup rests on D23: the manifest names no group to spend): a master card
		// pushed into a new master group gives the member's project a group; deleting it answers
		// 200 with data [] (GROUP-1), its cards leave cards/list, and a second delete is 404.
		It("deletes a group, its cards leave the lists and a second delete is 404", Serial, Reference(op, AspectTransition, "REF-GROUP"), func() {
			group := pushedGroup()

			ex := call(member, op, map[string]any{"id": group})
			Expect(ex).To(HaveStatus(200), Cite(rules.GROUP1))
			Expect(ex).To(HaveJSON("data", "an empty array", func(v any, _ bool) bool { a, ok := v.([]any); return ok && len(a) == 0 }), Cite(rules.GROUP1))
			for _, card := range memberCards(member) {
				g, _ := num(card, "group_id")
				Expect(g).NotTo(Equal(group), choiceGroupDelete+": the group's cards leave cards/list")
			}
			expectNotFound(call(member, op, map[string]any{"id": group}), choiceGroupDelete+"; "+Cite(rules.ERR4))
		})

		isolationSpec(op, "the member's group", func() map[string]any { return map[string]any{"id": manifest.Operations.GroupID} })

		// D12: another project's records answer 404 and are not deleted.
		It("does not let an outsider delete the member's group", Reference(op, AspectIsolation), func() {
			expectNotFound(call(outsider, op, map[string]any{"id": manifest.Operations.GroupID}), choiceOtherProject)
		})
	})
}

func describeBoardsList() {
	op := OpBoardsList
	operation(op, fieldRules{
		base: func() map[string]any { return map[string]any{} },
	}, func() {
		// D30: the tool_key filter is a body field; the operation lists no 422, so a filter that
		// is not a string answers 400 shape (a).
		It("answers 400 with body shape (a) to a tool_key filter that is not a string", Reference(op, AspectValidation), func() {
			ex := callInvalid(member, op, map[string]any{"tool_key": 12345})
			Expect(ex).To(HaveStatus(400), choiceToolFilter)
			Expect(ex).To(HaveEnvelopeA(), choiceToolFilter)
		})

		// Rules ENV-1, STATUS-2, DATA-1 (conformance/rules.md).
		It("lists the member's boards", Contract(op, AspectEnvelope, "ENV-1", "STATUS-2", "DATA-1"), func() {
			ex := call(member, op, nil)
			expectSuccess(ex)
			Expect(ex).To(HaveKind("data.boards", "an array"), Cite(rules.DATA1))
		})

		// D20, D30: full board records; tool_key in the body filters by tool.
		It("lists full board records, filtered by tool_key", Reference(op, AspectTransition), func() {
			ex := call(member, op, map[string]any{"tool_key": manifest.Operations.ToolKey})
			boards := ex.Objects("data.boards")
			Expect(boards).NotTo(BeEmpty(), "the manifest's tool has a board\n\n%s", ex.Describe())
			for _, b := range boards {
				Expect(b["tool_key"]).To(Equal(manifest.Operations.ToolKey), choiceToolFilter+"\n\n%s", ex.Describe())
			}
			all := call(member, op, nil)
			Expect(idsOf(all.Objects("data.boards"))).To(ContainElement(manifest.Operations.BoardID), choiceWholeRecords+"\n\n%s", all.Describe())
		})
	})
}

func describeCardsList() {
	op := OpCardsList
	operation(op, fieldRules{}, func() {
		// Rules ENV-1, STATUS-2, DATA-1 (conformance/rules.md).
		It("lists the member's cards", Contract(op, AspectEnvelope, "ENV-1", "STATUS-2", "DATA-1"), func() {
			ex := call(member, op, nil)
			expectSuccess(ex)
			Expect(ex).To(HaveKind("data.cards", "an array"), Cite(rules.DATA1))
		})

		// D20: list records are full records, the manifest's card among them.
		It("lists full card records, the manifest's card among them", Reference(op, AspectEnvelope), func() {
			card, ok := findByID(memberCards(member), manifest.Operations.CardID)
			Expect(ok).To(BeTrue(), choiceWholeRecords)
			for _, f := range []string{"id", "title", "status", "group_id", "is_overdue", "created_at"} {
				Expect(card).To(HaveKey(f), choiceWholeRecords+": list records have the fields of the created record")
			}
		})

		// D12: an outsider's list never holds the member's cards.
		It("does not list the member's cards to an outsider", Reference(op, AspectIsolation), func() {
			Expect(idsOf(memberCards(outsider))).NotTo(ContainElement(manifest.Operations.CardID), choiceOtherProject)
		})
	})
}

func describeTagsList() {
	op := OpTagsList
	operation(op, fieldRules{}, func() {
		// Rules ENV-1, STATUS-2, DATA-1 (conformance/rules.md).
		It("lists the member's tags", Contract(op, AspectEnvelope, "ENV-1", "STATUS-2", "DATA-1"), func() {
			ex := call(member, op, nil)
			expectSuccess(ex)
			Expect(ex).To(HaveKind("data.tags", "an array"), Cite(rules.DATA1))
		})

		// D20, D12: the manifest's tag is listed to the member, not to an outsider.
		It("lists the manifest's tag to the member only", Reference(op, AspectIsolation), func() {
			Expect(idsOf(call(member, op, nil).Objects("data.tags"))).To(ContainElement(manifest.Operations.TagID), choiceWholeRecords)
			Expect(idsOf(call(outsider, op, nil).Objects("data.tags"))).NotTo(ContainElement(manifest.Operations.TagID), choiceOtherProject)
		})

		rateLimitSpecs(op)
	})
}

// snoozeUntil is a snooze well into the deployment's future: thirty days past its time as its
// Date header gives it (servers with a clock send one), or past the tester's clock when it sends
// none. The deployment's clock need not agree with the tester's: a contract spec assumes
// nothing about time but what the deployment itself says.
func snoozeUntil(ex *Exchange) string {
	now := time.Now()
	if at, err := http.ParseTime(ex.Header.Get("Date")); err == nil && at.After(now) {
		now = at
	}
	return now.UTC().Add(30 * 24 * time.Hour).Truncate(time.Second).Format(time.RFC3339)
}
