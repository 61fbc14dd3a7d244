package conformance_test

import (
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/opsapi/mocktoolkit/conformance"

	"github.com/opsapi/mocktoolkit/conformance/check"
	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// The create operations of the operations area (18, 20, 21). The interface shows their bodies
// but not their status codes: the contract checks the success envelope and the record, the
// status 200 is reference (D1).

func describeCardsCreate() {
	op := OpCardsCreate
	operation(op, fieldRules{
		base: func() map[string]any { return map[string]any{"title": "Conformance card"} },
		constraints: []constraint{
			required("title"), typed("title", "string"), maxChars("title", 255), typed("description", "string"),
			typed("group_id", "integer"), typed("status", "string"), maxLen("status", 50),
			typed("owner_id", "integer"), typed("tag_id", "integer"), typed("due_date", "string"), formatted("due_date", "date-time"),
			oneOf("priority", priorities...),
		},
	}, func() {
		// Rules ENV-1, STATUS-2, DATA-1 (conformance/rules.md).
		It("creates a card and returns the card record", Contract(op, AspectEnvelope, "ENV-1", "STATUS-2", "DATA-1"), func() {
			title := unique("Created card")
			// A due date (days ahead: no business rule can find it past) makes the record's
			// date-derived fields (is_overdue) be answered too, in the types the interface gives.
			due := time.Now().UTC().Add(72 * time.Hour).Format(time.RFC3339)
			ex := call(member, op, map[string]any{"title": title, "priority": "high", "due_date": due})
			expectSuccess(ex)
			Expect(ex).To(HaveKind("data.card", "an object"), Cite(rules.DATA1))
			Expect(ex).To(HaveKind("data.card.id", "an integer"), Cite(rules.DATA1))
			Expect(ex).To(HaveJSON("data.card.title", "the title sent", func(v any, _ bool) bool { return v == title }), Cite(rules.DATA1))
			Expect(ex).To(HaveJSON("data.card.priority", `"high"`, func(v any, _ bool) bool { return v == "high" }), Cite(rules.DATA1))
		})

		// D5: each field's detail in `errors` is a list of sentences (rule REF-ERRORS); the
		// interface gives the detail no form, so ENV-4 does not ask it.
		It("words each field of a validation error as a list of sentences", Reference(op, AspectValidation, "REF-ERRORS"), func() {
			ex := send(Request{Op: op, As: "the member", Token: token(member, op), Body: map[string]any{"title": strings.Repeat("x", 256), "priority": "extreme"}, Intent: Invalid})
			Expect(ex).To(HaveStatus(422), Cite(rules.REFERRORS))
			Expect(check.ErrorsAsSentences(ex.Body)).To(BeEmpty(), "%s\n\n%s", Cite(rules.REFERRORS), ex.Describe())
		})

		// D1: success is 200. D20: the new card is in cards/list. D19: status open, priority
		// normal by default.
		It("answers 200 and lists the new card in cards/list with the default status and priority", Reference(op, AspectTransition), func() {
			title := unique("Listed card")
			ex := call(member, op, map[string]any{"title": title})
			Expect(ex).To(HaveStatus(200), choiceStatus)
			id, _ := ex.Int("data.card.id")
			card, ok := findByID(memberCards(member), id)
			Expect(ok).To(BeTrue(), choiceWholeRecords+": cards/list holds the created card %d", id)
			Expect(card["title"]).To(Equal(title), choiceWholeRecords)
			Expect(card["status"]).To(Equal("open"), choiceCardDefaults)
			Expect(card["priority"]).To(Equal("normal"), choiceCardDefaults)
		})

		isolationSpec(op, "the member's group (a card in it)", func() map[string]any {
			return map[string]any{"title": "outsider", "group_id": manifest.Operations.GroupID}
		})

		// D28: a group, owner or tag that does not exist in the caller's project is 404.
		It("answers 404 for a tag that does not exist", Reference(op, AspectNotFound), func() {
			expectNotFound(call(member, op, map[string]any{"title": "Card", "tag_id": missingID}), choiceCardRefs)
		})
	})
}

func describeCommentsCreate() {
	op := OpCommentsCreate
	operation(op, fieldRules{
		base: func() map[string]any {
			return map[string]any{"card_id": manifest.Operations.CardID, "comment": "Conformance comment"}
		},
		constraints: []constraint{
			required("card_id"), typed("card_id", "integer"), required("comment"), typed("comment", "string"),
			typed("parent_comment_id", "integer"),
		},
	}, func() {
		// Rules COMMENT-1, ENV-1, DATA-1 (conformance/rules.md).
		It("creates a comment and a reply to it", Contract(op, AspectEnvelope, "COMMENT-1", "ENV-1", "DATA-1"), func() {
			ex := call(member, op, map[string]any{"card_id": manifest.Operations.CardID, "comment": unique("Comment")})
			expectSuccess(ex)
			Expect(ex).To(HaveKind("data.comment.id", "an integer"), Cite(rules.DATA1))
			parent, _ := ex.Int("data.comment.id")
			reply := finding(bg, func() *Exchange {
				return call(member, op, map[string]any{"card_id": manifest.Operations.CardID, "comment": unique("Reply"), "parent_comment_id": parent})
			})
			expectSuccess(reply)
			Expect(reply).To(HaveJSON("data.comment.parent_comment_id", "the parent's id", eqNum(parent)), Cite(rules.DATA1))
		})

		// Rule COMMENT-1: the card's comment list counts the new comment.
		It("counts a new comment in the card's comment list total", Contract(op, AspectTransition, "COMMENT-1"), func() {
			list := func() int64 {
				GinkgoHelper()
				ex := call(member, OpCommentsList, map[string]any{"card_id": manifest.Operations.CardID})
				Expect(ex).To(HaveStatus(200), Cite(rules.DATA1))
				n, ok := ex.Int("data.pagination.total")
				Expect(ok).To(BeTrue(), "%s\n\n%s", Cite(rules.DATA1), ex.Describe())
				return n
			}
			before := list()
			expectSuccess(call(member, op, map[string]any{"card_id": manifest.Operations.CardID, "comment": unique("Counted comment")}))
			// A list read from a replica may show the comment a little later (D210).
			after := list()
			for deadline := time.Now().Add(cfg.PushWait); after < before+1 && time.Now().Before(deadline); after = list() {
				time.Sleep(250 * time.Millisecond)
			}
			Expect(after).To(BeNumerically(">=", before+1), "%s: the total was %d before the create and %d up to %s after", Cite(rules.COMMENT1), before, after, cfg.PushWait)
		})

		isolationSpec(op, "the member's card (a comment)", func() map[string]any {
			return map[string]any{"card_id": manifest.Operations.CardID, "comment": "outsider"}
		})

		// D1, D20, D26: 200; the comment is on the last page of comments/list, total one more.
		It("answers 200 and lists the new comment in comments/list", Reference(op, AspectTransition), func() {
			text := unique("Listed comment")
			ex := call(member, op, map[string]any{"card_id": manifest.Operations.CardID, "comment": text})
			Expect(ex).To(HaveStatus(200), choiceStatus)
			id, _ := ex.Int("data.comment.id")
			list := call(member, OpCommentsList, map[string]any{"card_id": manifest.Operations.CardID, "per_page": 100})
			pages, _ := list.Int("data.pagination.total_pages")
			if pages > 1 {
				list = call(member, OpCommentsList, map[string]any{"card_id": manifest.Operations.CardID, "per_page": 100, "page": pages})
			}
			c, ok := findByID(list.Objects("data.comments"), id)
			Expect(ok).To(BeTrue(), choiceCommentPages+": comments are oldest first; the new one is on the last page\n\n%s", list.Describe())
			Expect(c["comment"]).To(Equal(text), choiceWholeRecords)
		})

		// D27: a reply to a comment that does not exist is 404.
		It("answers 404 for a reply to a comment that does not exist", Reference(op, AspectNotFound), func() {
			expectNotFound(call(member, op, map[string]any{"card_id": manifest.Operations.CardID, "comment": "x", "parent_comment_id": missingID}), choiceReplyParent)
		})

		// D12: an outsider cannot comment on the member's card.
		It("does not let an outsider comment on the member's card", Reference(op, AspectIsolation), func() {
			expectNotFound(call(outsider, op, map[string]any{"card_id": manifest.Operations.CardID, "comment": "outsider"}), choiceOtherProject)
		})
	})
}

func describeTagsCreate() {
	op := OpTagsCreate
	operation(op, fieldRules{
		base: func() map[string]any { return map[string]any{"name": unique("Conformance tag")} }, // tag names may have to be unique (not shown)
		constraints: []constraint{
			required("name"), typed("name", "string"), maxChars("name", 255),
			maxLen("color", 50), maxLen("icon", 100), typed("position", "integer"),
		},
	}, func() {
		// Rules ENV-1, STATUS-2, DATA-1 (conformance/rules.md).
		It("creates a tag and returns the tag record", Contract(op, AspectEnvelope, "ENV-1", "STATUS-2", "DATA-1"), func() {
			name := unique("Tag")
			ex := call(member, op, map[string]any{"name": name, "color": "#336699"})
			expectSuccess(ex)
			Expect(ex).To(HaveKind("data.tag.id", "an integer"), Cite(rules.DATA1))
			Expect(ex).To(HaveJSON("data.tag.name", "the name sent", func(v any, _ bool) bool { return v == name }), Cite(rules.DATA1))
		})

		// D1, D20: 200, and the tag is in tags/list.
		It("answers 200 and lists the new tag in tags/list", Reference(op, AspectTransition), func() {
			ex := call(member, op, map[string]any{"name": unique("Listed tag")})
			Expect(ex).To(HaveStatus(200), choiceStatus)
			id, _ := ex.Int("data.tag.id")
			Expect(idsOf(call(member, OpTagsList, nil).Objects("data.tags"))).To(ContainElement(id), choiceWholeRecords)
		})
	})
}
