package conformance_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/opsapi/mocktoolkit/conformance"
)

var _ = Describe("AI assistant area", func() {
	op := OpConversationsRestore
	operation(op, fieldRules{
		base: func() map[string]any { return map[string]any{"conversation_id": manifest.AI.ActiveConversationID} },
		constraints: []constraint{
			required("conversation_id"), typed("conversation_id", "integer"), minimum("conversation_id", 1),
		},
	}, func() {
		// MUST: "conversation archived — moved by conversations/restore — conversation_id exists —
		// active" — interface §States and transitions; "Response 200: data is an empty array" —
		// §Endpoints 12. (Restoring twice is D33's business: only 200 is asked here.)
		It("restores an archived conversation", Contract(op, AspectTransition), func() {
			ex := call(member, op, map[string]any{"conversation_id": manifest.AI.ArchivedConversationIDs[0]})
			expectSuccess(ex)
			Expect(ex).To(HaveJSON("data", "an empty array", func(v any, _ bool) bool { a, ok := v.([]any); return ok && len(a) == 0 }), RuleRestore)
		})

		// MUST: 404 for a record that does not exist — interface §Errors rule 2.
		It("answers 404 with body shape (a) for a conversation that does not exist", Contract(op, AspectNotFound), func() {
			expectNotFound(call(member, op, map[string]any{"conversation_id": missingID}), RuleErrors2)
		})

		// D33: restoring an active conversation is a no-op 200.
		It("answers 200 to restoring an active conversation", Reference(op, AspectTransition), func() {
			Expect(call(member, op, map[string]any{"conversation_id": manifest.AI.ActiveConversationID})).To(HaveStatus(200), "D33")
		})

		// D33: only the owner may restore; others get 404.
		It("does not let an outsider restore the member's conversation", Reference(op, AspectIsolation), func() {
			expectNotFound(call(outsider, op, map[string]any{"conversation_id": manifest.AI.ArchivedConversationIDs[0]}), "D33")
		})
	})
})
