package conformance

import (
	"fmt"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega/types"

	"github.com/opsapi/mocktoolkit/conformance/check"
)

// The probe classes: the matrix the suite sends to every operation, generated from the
// operation model (the OpenAPI document) rather than written spec by spec. A probe spec
// carries the label of its class, so the reports can show per operation which classes were
// probed.
const (
	// ProbeAbsentID sends an id that names no record in an id field.
	ProbeAbsentID = "probe:absent-id"
	// ProbeForeignID sends, as a user of another project, an id of the member's project.
	ProbeForeignID = "probe:foreign-id"
	// ProbeAuthForm sends the bearer token in a wrong form, or a stray one to a public operation.
	ProbeAuthForm = "probe:auth-form"
	// ProbeScope sends a record of another kind to an operation scoped to one kind.
	ProbeScope = "probe:scope"
	// ProbeRate reads the rate-limit headers of answers in a row.
	ProbeRate = "probe:rate"
	// ProbeWindow spends an operation's rate-limit window with requests that change nothing.
	ProbeWindow = "probe:window"
	// ProbePages walks every page of a list.
	ProbePages = "probe:pages"
	// ProbeReadBack reads a list back after a write (or a refused one).
	ProbeReadBack = "probe:read-back"
)

// ProbeClasses lists the probe classes, in the order reports show them.
var ProbeClasses = []string{ProbeAbsentID, ProbeForeignID, ProbeAuthForm, ProbeScope, ProbeRate, ProbeWindow, ProbePages, ProbeReadBack}

// Probed adds the label of probe class to l.
func Probed(l ginkgo.Labels, class string) ginkgo.Labels {
	return ginkgo.Label(append(append([]string{}, l...), class)...)
}

// IDField is an integer field of an operation's request body that names a record: `id` or a
// name ending in `_id`.
type IDField struct {
	Op   Operation
	Name string
	// Required is the field's required flag in the request schema.
	Required bool
	// Primary marks the field naming the record the operation acts on: `id`, else the only
	// required id field.
	Primary bool
}

// String names the field as "operation.field".
func (f IDField) String() string { return f.Op.ID + "." + f.Name }

func isIDName(name string) bool { return name == "id" || strings.HasSuffix(name, "_id") }

// userFields are the id fields naming a user. The interface describes no user record (its
// Resources section has a login result, not a user), so whether such an id is checked against
// anything is not shown: a service whose users live elsewhere may store any owner id.
var userFields = map[string]bool{"owner_id": true}

// MustRefuseAbsent tells whether the interface asks a refusal when f names no record (ID-1):
// on an operation that lists 404, and for a required field where the codes are not shown (a
// create attached to nothing); never for a field naming a user (userFields).
func (f IDField) MustRefuseAbsent() bool {
	return !userFields[f.Name] && (f.Op.Listed(404) || (!f.Op.CodesShown() && f.Required))
}

// IDFields lists the id fields of every operation's request schema, in operation order and by
// name within an operation.
func IDFields() []IDField {
	var out []IDField
	for _, op := range Operations {
		s := op.Request
		if s == nil {
			continue
		}
		required := map[string]bool{}
		for _, r := range s.Required {
			required[r] = true
		}
		var fields []IDField
		for name, ref := range s.Properties {
			if ref.Value == nil || !ref.Value.Type.Is(openapi3.TypeInteger) || !isIDName(name) {
				continue
			}
			fields = append(fields, IDField{Op: op, Name: name, Required: required[name]})
		}
		sort.Slice(fields, func(i, j int) bool { return fields[i].Name < fields[j].Name })
		markPrimary(fields)
		out = append(out, fields...)
	}
	return out
}

func markPrimary(fields []IDField) {
	var req []int
	for i, f := range fields {
		if f.Name == "id" {
			fields[i].Primary = true
			return
		}
		if f.Required {
			req = append(req, i)
		}
	}
	if len(req) == 1 {
		fields[req[0]].Primary = true
	}
}

// HaveErrorShape matches an error answer in the body shape the interface gives its status
// (ENV-2 to ENV-4, as the checker judges them).
func HaveErrorShape() types.GomegaMatcher {
	return matcher("be an error in the body shape of its status", func(ex *Exchange) (bool, string) {
		if ex.Status < 400 {
			return false, fmt.Sprintf("status %d is not an error", ex.Status)
		}
		return judged(check.Envelope(ex.Op.Operation, ex.Status, ex.Body))
	})
}
