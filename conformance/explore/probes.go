package explore

import (
	"fmt"
	"slices"

	"pgregory.net/rapid"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/nearmiss"
)

// The probe classes of the suite (conformance/probe.go) as explore properties: an id field
// naming no record (ID-1), the member's token sent in a wrong form (AUTH-6) or altered (AUTH-2),
// and the outsider naming the member's records (ISO-1).
const (
	RuleAbsentID  = "ID-1"
	RuleIsolation = "ISO-1"
)

// The intents of probe requests.
const (
	// refusedID: an id field names no record; where the operation lists 404 the answer is a
	// refusal (ID-1).
	refusedID intent = iota + 100
	// unauthenticated: the token is sent in a wrong form (AUTH-6) or altered (AUTH-2); the
	// answer is 401.
	unauthenticated
	// foreign: the outsider names a record of the member's project; the answer is a refusal
	// (ISO-1).
	foreign
)

// projectPools are the pools of records of the member's project (master records, tour cards
// included, belong to no project). A user (an owner_id) is none: the interface describes no
// user record nor who may be named an owner, so naming the member as the owner of the
// outsider's own card is no breach (ID-1 leaves user ids aside for the same reason); an outside
// deployment that took it was failed. Nor is a theme version: the interface ties it to no
// project (its fields are version_id, theme_status and approval_status), and an outside
// deployment whose versions every project shares was failed.
var projectPools = map[string]bool{"card": true, "createdCard": true, "tag": true, "group": true,
	"board": true, "page": true, "template": true, "layout": true, "conversation": true}

// actForeign sends, as the outsider, a valid body of an operation of a project (A, not S) that
// names a record of the member's project.
func (r *runner) actForeign(t *rapid.T) {
	var ops []conformance.Operation
	for _, op := range conformance.Operations {
		if op.Access == conformance.Bearer {
			ops = append(ops, op)
		}
	}
	op := rapid.SampledFrom(ops).Draw(t, "op")
	body, _ := validBody(t, op, r.schemas[op.ID], manifestView{r.target})
	named := ""
	for _, k := range sortedKeys(body) {
		if v, ok := body[k].(ref); ok && projectPools[v.pool] {
			named = k
		}
	}
	if named == "" {
		t.Skip("the body names no record of the member's project")
	}
	req := request{op: op, as: outsider, body: body, intent: foreign, field: named}
	r.both(t, op.ID+" by the outsider naming the member's "+named, func(e *env) string {
		ex, _, ok := r.send(t, e, req)
		if !ok {
			return errSkip.Error()
		}
		return outcome(ex)
	})
}

// actAbsentID sends a valid body with one id field naming no record.
func (r *runner) actAbsentID(t *rapid.T) {
	fields := conformance.IDFields()
	if len(fields) == 0 {
		t.Skip("no id fields in the document")
	}
	f := rapid.SampledFrom(fields).Draw(t, "idField")
	op := f.Op
	body, _ := validBody(t, op, r.schemas[op.ID], manifestView{r.target})
	body[f.Name] = ref{pool: "missing"}
	req := request{op: op, as: callerOf(op), body: body, intent: refusedID, field: f.Name, refuse: f.MustRefuseAbsent()}
	if f.Primary && op.Listed(404) && op.Change() != "creates" {
		req.intent = notFound
	}
	r.both(t, op.ID+" naming no record in "+f.Name, func(e *env) string {
		ex, _, ok := r.send(t, e, req)
		if !ok {
			return errSkip.Error()
		}
		return outcome(ex)
	})
}

// actAuthForm sends an operation that needs a token the caller's token in a wrong form, or a
// token made from it the deployment did not issue, with a body naming no record it acts on
// (nothing changes if it is wrongly let through).
func (r *runner) actAuthForm(t *rapid.T) {
	var ops []conformance.Operation
	for _, op := range conformance.Operations {
		if op.Access != conformance.Public {
			ops = append(ops, op)
		}
	}
	op := rapid.SampledFrom(ops).Draw(t, "op")
	form := rapid.SampledFrom(slices.Concat(nearmiss.WrongAuthForms, nearmiss.AlteredTokens)).Draw(t, "form")
	body, _ := validBody(t, op, r.schemas[op.ID], manifestView{r.target})
	if id := primaryID[op.ID]; id != "" {
		body[id] = ref{pool: "missing"}
	}
	req := request{op: op, as: callerOf(op), body: body, intent: unauthenticated, auth: &form}
	r.both(t, op.ID+" with "+form.What, func(e *env) string {
		ex, _, ok := r.send(t, e, req)
		if !ok {
			return errSkip.Error()
		}
		return outcome(ex)
	})
}

// checkProbe checks what a probe request's intent asks of its answer.
func checkProbe(req request, ex *conformance.Exchange) *violation {
	op := ex.Op
	switch req.intent {
	case refusedID:
		if req.refuse && ex.Status < 400 {
			return &violation{Rule: RuleAbsentID, Reason: fmt.Sprintf("%s answered %d to %s naming no record", op.ID, ex.Status, req.field),
				Go: "Expect(ex).To(HaveErrorStatus())", Sh: shRefused()}
		}
	case foreign:
		if ex.Status < 400 {
			return &violation{Rule: RuleIsolation, Reason: fmt.Sprintf("%s answered %d to the outsider naming the member's %s", op.ID, ex.Status, req.field),
				Go: "Expect(ex).To(HaveErrorStatus())", Sh: shRefused()}
		}
	case unauthenticated:
		if ex.Status != 401 {
			return &violation{Rule: req.auth.Rule, Reason: fmt.Sprintf("%s answered %d to %s", op.ID, ex.Status, req.auth.What),
				Go: "Expect(ex).To(HaveStatus(401))", Sh: shStatus(401)}
		}
	}
	return nil
}
