package conformance

import (
	"strings"

	"github.com/onsi/ginkgo/v2"
)

// The profile labels: every spec carries exactly one.
const (
	// LabelContract marks a spec that rests only on what the interface states. A deployment that is
	// right by the interface never fails one; `--ginkgo.label-filter=contract` is the vendor profile.
	LabelContract = "contract"
	// LabelReference marks a spec that rests on one of our choices for a gap of the interface
	// (docs/decisions.md, cited by D-id above the spec).
	LabelReference = "reference"
)

// The aspects a spec can check (label aspect:<name>).
const (
	AspectAuth       = "auth"
	AspectValidation = "validation"
	AspectRateLimit  = "ratelimit"
	AspectEnvelope   = "envelope"
	AspectTransition = "transition"
	AspectIsolation  = "isolation"
	AspectNotFound   = "notfound"
	AspectConflict   = "conflict"
)

// Aspects lists every aspect, in the order the summary prints them.
var Aspects = []string{AspectEnvelope, AspectAuth, AspectValidation, AspectNotFound, AspectConflict,
	AspectRateLimit, AspectTransition, AspectIsolation}

// Contract labels a spec of the vendor profile with its operation and aspect.
func Contract(op Operation, aspect string) ginkgo.Labels {
	return ginkgo.Label(LabelContract, "op:"+op.ID, "area:"+op.Area, "aspect:"+aspect)
}

// Reference labels a spec that rests on a decision (cite the D-id in the comment above it).
func Reference(op Operation, aspect string) ginkgo.Labels {
	return ginkgo.Label(LabelReference, "op:"+op.ID, "area:"+op.Area, "aspect:"+aspect)
}

// Profile labels a spec contract when contract is true, reference otherwise.
func Profile(contract bool, op Operation, aspect string) ginkgo.Labels {
	if contract {
		return Contract(op, aspect)
	}
	return Reference(op, aspect)
}

// LabelValue returns the value of the first label key:value among labels, or "".
func LabelValue(labels []string, key string) string {
	for _, l := range labels {
		if v, ok := strings.CutPrefix(l, key+":"); ok {
			return v
		}
	}
	return ""
}
