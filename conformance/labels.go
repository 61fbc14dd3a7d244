package conformance

import (
	"strings"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
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

// LabelRule prefixes the label naming a rule of the registry a spec checks (rule:<id>).
const LabelRule = "rule:"

func labels(profile string, op Operation, aspect string, rules []string) ginkgo.Labels {
	l := []string{profile, "op:" + op.ID, "area:" + op.Area, "aspect:" + aspect}
	for _, id := range rules {
		l = append(l, LabelRule+id)
	}
	return ginkgo.Label(l...)
}

// Contract labels a spec of the vendor profile with its operation, aspect and the ids of the
// rules it checks (Rules; a contract spec cites at least one).
func Contract(op Operation, aspect string, rules ...string) ginkgo.Labels {
	return labels(LabelContract, op, aspect, rules)
}

// Reference labels a spec that rests on a decision (cite the D-id in the comment above it), with
// the reference rules it checks, if the registry names them.
func Reference(op Operation, aspect string, rules ...string) ginkgo.Labels {
	return labels(LabelReference, op, aspect, rules)
}

// Profile labels a spec contract when contract is true, reference otherwise.
func Profile(contract bool, op Operation, aspect string, rules ...string) ginkgo.Labels {
	if contract {
		return Contract(op, aspect, rules...)
	}
	return Reference(op, aspect, rules...)
}

// LabelValues returns the values of every label key:value among labels.
func LabelValues(labels []string, key string) []string {
	var out []string
	for _, l := range labels {
		if v, ok := strings.CutPrefix(l, key+":"); ok {
			out = append(out, v)
		}
	}
	return out
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

// OperationInRun reports whether the label filter may select specs of op: some profile and
// aspect of op's labels match it. A filter on rule labels, or one that does not parse, counts as
// selecting op.
func OperationInRun(filter string, op Operation) bool {
	if filter == "" || strings.Contains(filter, LabelRule) {
		return true
	}
	match, err := types.ParseLabelFilter(filter)
	if err != nil {
		return true
	}
	for _, profile := range []string{LabelContract, LabelReference} {
		for _, aspect := range Aspects {
			if match([]string{profile, "op:" + op.ID, "area:" + op.Area, "aspect:" + aspect}) {
				return true
			}
		}
	}
	return false
}
