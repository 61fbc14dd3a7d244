package conformance_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/rules"
)

var ruleListCount = Cite(rules.LIST1)

// createCounts reads, per create operation, the count of the list it adds to: the member's
// cards, the comments of the member's card, the member's tags and the master boards.
var createCounts = map[string]func(ctx context.Context) int64{
	OpTagsCreate.ID:         listLength(member, OpTagsList, "data.tags"),
	OpMasterBoardsCreate.ID: listLength(superadmin, OpMasterBoardsList, "data.boards"),
	OpCardsCreate.ID: func(ctx context.Context) int64 {
		GinkgoHelper()
		ex := sendCtx(ctx, Request{Op: OpCardsList, As: member.String(), Token: token(member, OpCardsList)})
		Expect(ex).To(HaveStatus(200), Cite(rules.DATA1))
		return int64(len(ex.Objects("data.cards")))
	},
	OpCommentsCreate.ID: func(ctx context.Context) int64 {
		GinkgoHelper()
		ex := sendCtx(ctx, Request{Op: OpCommentsList, As: member.String(), Token: token(member, OpCommentsList), Body: map[string]any{"card_id": manifest.Operations.CardID}})
		Expect(ex).To(HaveStatus(200), Cite(rules.DATA1))
		n, ok := ex.Int("data.pagination.total")
		Expect(ok).To(BeTrue(), "%s\n\n%s", Cite(rules.DATA1), ex.Describe())
		return n
	},
}

// listLength reads the length of the array at path of op's answer to r.
func listLength(r role, op Operation, path string) func(ctx context.Context) int64 {
	return func(ctx context.Context) int64 {
		GinkgoHelper()
		ex := sendCtx(ctx, Request{Op: op, As: r.String(), Token: token(r, op)})
		Expect(ex).To(HaveStatus(200), Cite(rules.DATA1))
		v, _ := ex.Get(path)
		list, ok := v.([]any)
		Expect(ok).To(BeTrue(), "%s: %s is not an array\n\n%s", Cite(rules.DATA1), path, ex.Describe())
		return int64(len(list))
	}
}

// The read-backs of refused creates (rule LIST-1): every create whose id field names no record,
// or, sent by the outsider, the member's record, is read back through the member's list: a
// refusal adds nothing to it, a success at least one. Serial: the count is read before and
// after, and another spec creating at the same time would move it.
var _ = Describe("Probes: read-backs of creates", func() {
	for _, f := range IDFields() {
		count := createCounts[f.Op.ID]
		if count == nil {
			continue
		}
		probeContext(f.Op, func() {
			readBackSpec(f, count, false)
			if projectRecord(f.Op, f.Name) {
				readBackSpec(f, count, true)
			}
		})
	}
	for _, op := range Operations {
		if count := createCounts[op.ID]; count != nil {
			probeContext(op, func() { createdReadBackSpec(op, count, 1) })
			probeContext(op, func() { createdReadBackSpec(op, count, 2) })
			if field, n, ok := longestText(op); ok {
				probeContext(op, func() { tooLongReadBackSpec(op, field, n, count) })
			}
			if field, ok := requiredText(op); ok {
				probeContext(op, func() { missingTextReadBackSpec(op, field, count) })
			}
		}
	}
})

// requiredText is the first required text field of op's request, by name.
func requiredText(op Operation) (string, bool) {
	if op.Request == nil {
		return "", false
	}
	for _, name := range slices.Sorted(slices.Values(op.Request.Required)) {
		if p := op.Request.Properties[name]; p != nil && p.Value != nil && p.Value.Type.Is("string") && len(p.Value.Enum) == 0 {
			return name, true
		}
	}
	return "", false
}

// createdReadBackSpec declares the read-back of a create that succeeds: the list holds one entry
// more (LIST-1), at least, as the proxy's tracker judges it: a list served from a cache may read
// "before" older than the create (a correct cache showed 46, then 48). A deployment whose lists
// never showed what was created passed every spec, where the proxy and explore mode failed it.
// Sent twice with the same body, each success adds an entry, whatever the other holds: a
// deployment that listed one tag per name passed every spec, whose creates each had a text of
// their own; the proxy and explore caught it.
func createdReadBackSpec(op Operation, count func(context.Context) int64, sends int) {
	name := "adds the created entry to the list"
	if sends > 1 {
		name = "adds an entry for each of two creates with the same body"
	}
	// Rule LIST-1.
	It(name, Serial, Probed(Contract(op, AspectTransition, "LIST-1"), ProbeReadBack), func(ctx SpecContext) {
		body, ok := requiredBody(op)
		if !ok {
			Skip(fmt.Sprintf("the manifest names no record for a required id of %s", op.ID))
		}
		r := caller(op)
		By("counting the list before, once it holds still")
		before := settledCount(ctx, count)
		var succeeded int64
		var last *Exchange
		for range sends {
			last = sendCtx(ctx, Request{Op: op, As: r.String(), Token: token(r, op), Body: body})
			if last.Succeeded() {
				succeeded++
			}
		}
		if succeeded == 0 {
			Skip(fmt.Sprintf("%s refused the create (%d): the specs judging its answer say why; only a success is read back", op.ID, last.Status))
		}
		By(fmt.Sprintf("counting it after, until it shows the %d new entries", succeeded))
		after := countReaching(ctx, count, before+succeeded)
		Expect(after).To(BeNumerically(">=", before+succeeded), "%s: %d before, %d of %d creates with this body succeeded (the last answered %d), %d after (read for up to %s)\n\n%s", ruleListCount, before, succeeded, sends, last.Status, after, cfg.PushWait, last.Describe())
	})
}

// missingTextReadBackSpec declares the read-back of a create without a required text field:
// refused (ERR-1), it adds nothing to the list (LIST-1). A deployment that stored the record
// with an empty text and answered 422 told the client nothing was created.
func missingTextReadBackSpec(op Operation, field string, count func(context.Context) int64) {
	// Rule LIST-1.
	It(fmt.Sprintf("adds nothing to the list when it refuses a create without its required %q", field), Serial, Probed(Contract(op, AspectValidation, "LIST-1"), ProbeReadBack), func(ctx SpecContext) {
		refusedCreateAddsNothing(ctx, op, count, fmt.Sprintf("without %q", field), field+" required", func(body map[string]any) { delete(body, field) })
	})
}

// longestText is the first required text field of op's request (by name) with a maximum
// length, and that length.
func longestText(op Operation) (string, uint64, bool) {
	if op.Request == nil {
		return "", 0, false
	}
	for _, name := range slices.Sorted(slices.Values(op.Request.Required)) {
		if p := op.Request.Properties[name]; p != nil && p.Value != nil && p.Value.MaxLength != nil && p.Value.Type.Is("string") {
			return name, *p.Value.MaxLength, true
		}
	}
	return "", 0, false
}

// tooLongReadBackSpec declares the read-back of a create whose text field is one character
// longer than its maximum: refused (ERR-1), it adds nothing to the list (LIST-1). A deployment
// that cut the text to its maximum, kept the record and answered 422 told the client nothing
// was created.
func tooLongReadBackSpec(op Operation, field string, max uint64, count func(context.Context) int64) {
	// Rule LIST-1.
	It(fmt.Sprintf("adds nothing to the list when it refuses a create whose %q is %d characters (max %d)", field, max+1, max), Serial, Probed(Contract(op, AspectValidation, "LIST-1"), ProbeReadBack), func(ctx SpecContext) {
		refusedCreateAddsNothing(ctx, op, count, fmt.Sprintf("with a %q of %d characters", field, max+1), field+" maxLength", func(body map[string]any) {
			text := unique("Too long") + " "
			body[field] = text + strings.Repeat("x", int(max)+1-len([]rune(text)))
		})
	})
}

// refusedCreateAddsNothing sends op's create with the required body broken by breakBody (what
// words the break, constraint names it as the suite's records do) and, when it is refused,
// reads the list back: it holds what it held before.
func refusedCreateAddsNothing(ctx SpecContext, op Operation, count func(context.Context) int64, what, constraint string, breakBody func(map[string]any)) {
	GinkgoHelper()
	body, ok := requiredBody(op)
	if !ok {
		Skip(fmt.Sprintf("the manifest names no record for a required id of %s", op.ID))
	}
	breakBody(body)
	r := caller(op)
	By("counting the list before, once it holds still")
	before := settledCount(ctx, count)
	ex := sendCtx(ctx, Request{Op: op, As: r.String(), Token: token(r, op), Body: body, Intent: Invalid, Constraint: constraint})
	if ex.Succeeded() {
		Skip(fmt.Sprintf("%s accepted a create %s (a validation spec judges that): only a refusal is read back", op.ID, what))
	}
	By("counting it after")
	after := settledCount(ctx, count)
	Expect(after).To(Equal(before), "%s: %d before, answer %d, %d after: a refused create adds nothing\n\n%s", ruleListCount, before, ex.Status, after, ex.Describe())
}

// readBackSpec declares the read-back of a create whose field f names no record, or, sent by
// the outsider (foreign), the member's record: the member's list grows by one only when the
// member's own create succeeds (LIST-1); the outsider's never grows it (ISO-1).
func readBackSpec(f IDField, count func(context.Context) int64, foreign bool) {
	op := f.Op
	what, labels := "naming no record in "+f.Name, Contract(op, AspectNotFound, "LIST-1")
	if foreign {
		what, labels = "by the outsider naming the member's record in "+f.Name, Contract(op, AspectIsolation, "LIST-1", "ISO-1")
	}
	// Rules LIST-1 (and ISO-1 for the outsider).
	It("adds nothing to the member's list when it refuses a create "+what, Serial, Probed(labels, ProbeReadBack), func(ctx SpecContext) {
		body, ok := requiredBody(op)
		if !ok {
			Skip(fmt.Sprintf("the manifest names no record for a required id of %s", op.ID))
		}
		r, id := caller(op), missingID
		if foreign {
			r = outsider
			id, _ = memberRecord(op, f.Name)
		}
		body[f.Name] = id
		By("counting the member's list before, once it holds still")
		before := settledCount(ctx, count)
		ex := sendCtx(ctx, Request{Op: op, As: r.String(), Token: token(r, op), Body: body})
		want := before
		if ex.Succeeded() && !foreign { // a 2xx with `error: true` is a refusal where the codes are not shown (D209)
			want++
		}
		By("counting it after")
		after := countReaching(ctx, count, want)
		Expect(after).To(Equal(want), "%s: %d before, answer %d, %d after (read for up to %s)\n\n%s", ruleListCount, before, ex.Status, after, cfg.PushWait, ex.Describe())
	})
}

// settledCount reads count until two reads a second apart agree, for at most cfg.PushWait: a
// push or sync an earlier spec made may still be adding copies (D210).
func settledCount(ctx context.Context, count func(context.Context) int64) int64 {
	GinkgoHelper()
	deadline := time.Now().Add(cfg.PushWait)
	n := count(ctx)
	for time.Now().Before(deadline) {
		time.Sleep(time.Second)
		next := count(ctx)
		if next == n {
			break
		}
		n = next
	}
	return n
}

// countReaching reads count until it reaches want, for at most cfg.PushWait (Reaching).
func countReaching(ctx context.Context, count func(context.Context) int64, want int64) int64 {
	GinkgoHelper()
	return cfg.Reaching(ctx, want, func() int64 { return count(ctx) })
}
