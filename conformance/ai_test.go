package conformance_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/opsapi/mocktoolkit/conformance"

	"github.com/opsapi/mocktoolkit/conformance/rules"
)

var _ = Describe("AI assistant area", func() {
	op := OpConversationsRestore
	operation(op, fieldRules{
		base: func() map[string]any { return map[string]any{"conversation_id": manifest.AI.ActiveConversationID} },
		constraints: []constraint{
			required("conversation_id"), typed("conversation_id", "integer"), minimum("conversation_id", 1),
		},
	}, func() {
		// Rule TRANS-2 (conformance/rules.md).
		It("restores an archived conversation", Contract(op, AspectTransition, "TRANS-2"), func() {
			ex, _ := firstTaken(op, manifest.AI.ArchivedConversationIDs, func(id int64) map[string]any { return map[string]any{"conversation_id": id} })
			expectSuccess(ex)
			Expect(ex).To(HaveJSON("data", "an empty array", func(v any, _ bool) bool { a, ok := v.([]any); return ok && len(a) == 0 }), Cite(rules.TRANS2))
		})

		// Rules ERR-4, ENV-2 (conformance/rules.md).
		It("answers 404 with body shape (a) for a conversation that does not exist", Contract(op, AspectNotFound, "ERR-4", "ENV-2"), func() {
			expectNotFound(call(member, op, map[string]any{"conversation_id": missingID}), Cite(rules.ERR4))
		})

		// D33: restoring an active conversation is a no-op 200.
		It("answers 200 to restoring an active conversation", Reference(op, AspectTransition), func() {
			Expect(call(member, op, map[string]any{"conversation_id": manifest.AI.ActiveConversationID})).To(HaveStatus(200), choiceConversations)
		})

		isolationSpec(op, "the member's conversation", func() map[string]any {
			return map[string]any{"conversation_id": manifest.AI.ArchivedConversationIDs[len(manifest.AI.ArchivedConversationIDs)-1]}
		})

		// D33: only the owner may restore; others get 404.
		It("does not let an outsider restore the member's conversation", Reference(op, AspectIsolation), func() {
			expectNotFound(call(outsider, op, map[string]any{"conversation_id": manifest.AI.ArchivedConversationIDs[0]}), choiceConversations)
		})
	})
})
