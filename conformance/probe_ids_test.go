package conformance_test

import (
	"fmt"
	"maps"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/rules"
)

var (
	ruleAbsentID = Cite(rules.ID1)
	ruleRefID    = Cite(rules.REFID)
)

// The id matrix: every integer field naming a record in every operation's request schema
// (IDFields, read from the OpenAPI document) is sent an id that names no record, and, on the
// operations of a project (A, not S: master records belong to no project), the member's record
// by the outsider. Every answer is judged against the statuses the operation lists (STATUS-1,
// in send).
var _ = Describe("Probes: absent and foreign ids", func() {
	byOp := map[string][]IDField{}
	var order []Operation
	for _, f := range IDFields() {
		if len(byOp[f.Op.ID]) == 0 {
			order = append(order, f.Op)
		}
		byOp[f.Op.ID] = append(byOp[f.Op.ID], f)
	}
	for _, op := range order {
		probeContext(op, func() {
			for _, f := range byOp[op.ID] {
				absentIDSpecs(f)
				foreignIDSpec(f)
			}
		})
	}
})

// stated404 reports whether the interface states 404 for an absent f: the operation lists 404
// and f names the record an update, delete or action acts on (Errors, rule 2).
func stated404(f IDField) bool {
	return f.Primary && f.Op.Listed(404) && f.Op.Change() != "creates"
}

func absentIDSpecs(f IDField) {
	op := f.Op
	// Rule ID-1 (and STATUS-1 on every answer): an id that names no record.
	It(fmt.Sprintf("answers %s naming no record in a listed status, refused where it lists 404", f.Name), Probed(Contract(op, AspectNotFound, "ID-1"), ProbeAbsentID), func(ctx SpecContext) {
		body, ok := requiredBody(op)
		if !ok {
			Skip(fmt.Sprintf("the manifest names no record for a required id of %s", op.ID))
		}
		body[f.Name] = missingID
		ex := sendCtx(ctx, Request{Op: op, As: caller(op).String(), Token: token(caller(op), op), Body: body})
		if f.MustRefuseAbsent() {
			Expect(ex).To(HaveErrorStatus(), "%s: %s %d names no record", ruleAbsentID, f.Name, missingID)
		}
		if stated404(f) {
			Expect(ex).To(HaveStatus(404), ruleAbsentID)
		}
		if ex.Status >= 400 {
			Expect(ex).To(HaveErrorShape(), ruleAbsentID)
		}
		if !stated404(f) {
			return
		}
		// Whatever the other fields say: the record is absent for every value of an
		// enumeration the body holds (a tour card closed, not only opened).
		for _, name := range slices.Sorted(maps.Keys(body)) {
			values := enumOf(op, name)
			if len(values) < 2 {
				continue
			}
			for _, v := range values[1:] {
				By(fmt.Sprintf("sending %q as %q", v, name))
				other := maps.Clone(body)
				other[name] = v
				ex := sendCtx(ctx, Request{Op: op, As: caller(op).String(), Token: token(caller(op), op), Body: other})
				Expect(ex).To(HaveStatus(404), "%s: %s %d names no record, %s %q", ruleAbsentID, f.Name, missingID, name, v)
			}
		}
	})

	// D28, D43: 404 where the operation lists it or does not show its codes, else 422 keyed by
	// the field.
	It(fmt.Sprintf("answers %s naming no record with 404, or 422 keyed by it where 404 is not listed", f.Name), Probed(Reference(op, AspectNotFound, "REF-ID"), ProbeAbsentID), func(ctx SpecContext) {
		body, ok := requiredBody(op)
		if !ok {
			Skip(fmt.Sprintf("the manifest names no record for a required id of %s", op.ID))
		}
		body[f.Name] = missingID
		ex := sendCtx(ctx, Request{Op: op, As: caller(op).String(), Token: token(caller(op), op), Body: body})
		if op.CodesShown() && !op.Listed(404) {
			Expect(ex).To(HaveStatus(422), ruleRefID)
			Expect(ex).To(HaveValidationErrorFor(f.Name), ruleRefID)
			return
		}
		expectNotFound(ex, ruleRefID)
	})
}

func foreignIDSpec(f IDField) {
	op := f.Op
	if !projectRecord(op, f.Name) {
		return // a master record, a public operation (no caller), or no record in the manifest
	}
	// Rule ISO-1: the outsider naming the member's record in this field.
	It(fmt.Sprintf("refuses the outsider naming the member's record in %s", f.Name), Probed(Contract(op, AspectIsolation, "ISO-1"), ProbeForeignID), func(ctx SpecContext) {
		body, ok := requiredBody(op)
		id, known := memberRecord(op, f.Name)
		if !ok || !known {
			Skip(fmt.Sprintf("the manifest names no record of the member's project for %s", f))
		}
		body[f.Name] = id
		ex := sendCtx(ctx, Request{Op: op, As: outsider.String(), Token: token(outsider, op), Body: body})
		Expect(ex).To(HaveErrorStatus(), "%s: %s %d is the member's", Cite(rules.ISO1), f.Name, id)
		Expect(ex).To(HaveErrorShape(), Cite(rules.ISO1))
	})
}

// enumOf is the values of op's request field name, when it is an enumeration (none otherwise;
// null left out).
func enumOf(op Operation, name string) []string {
	var out []string
	if p := op.Request.Properties[name]; p != nil && p.Value != nil {
		for _, v := range p.Value.Enum {
			if s, ok := v.(string); ok {
				out = append(out, s)
			}
		}
	}
	return out
}
