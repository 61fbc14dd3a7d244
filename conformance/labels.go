package conformance

import (
	"strings"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
)

// The suite's labels. Every spec carries exactly one profile label (LabelContract or
// LabelReference) and exactly one effect label (LabelEffectRead or LabelEffectWrite, D110).
const (
	// LabelContract marks a spec that rests only on what the interface states. A deployment that is
	// right by the interface never fails one; `--ginkgo.label-filter=contract` is the vendor profile.
	LabelContract = "contract"
	// LabelReference marks a spec that rests on one of our choices for a gap of the interface
	// (docs/decisions.md, cited by D-id above the spec).
	LabelReference = "reference"

	// LabelEffectRead marks a spec whose requests change nothing on the target: it calls only
	// operations that read, and calls operations that change the target only without a
	// credential the target accepts (no token, or one it never issued), which is refused before
	// any effect.
	LabelEffectRead = "effect:read"
	// LabelEffectWrite marks a spec that may change the target: any request with a credential to
	// an operation that changes it (creates, updates, deletes, cart removals, regenerations,
	// deprecations, syncs, restores), whatever the body, valid or not.
	LabelEffectWrite = "effect:write"
	// LabelSpendsRateLimit marks a spec that spends a rate window, a thumbnail window or a
	// login throttle of the target (it sends until a 429, or sends failed logins).
	LabelSpendsRateLimit = "spends:ratelimit"

	// LabelExplore marks the spec of explore mode (conformance/explore): it cites every rule
	// explore mode checks, and runs only with CONFORMANCE_EXPLORE set.
	LabelExplore = "explore"
	// LabelRule prefixes the label naming a rule of the registry a spec checks (rule:<id>).
	LabelRule = "rule:"
	// LabelFlow marks the specs that replay a recorded flow (CONFORMANCE_FLOWS, D172).
	LabelFlow = "flow"
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

func labels(profile string, op Operation, aspect string, rules []string) ginkgo.Labels {
	effect := LabelEffectRead
	if op.Change() != "" {
		effect = LabelEffectWrite
	}
	l := []string{profile, "op:" + op.ID, "area:" + op.Area, "aspect:" + aspect, effect}
	for _, id := range rules {
		l = append(l, LabelRule+id)
	}
	return ginkgo.Label(l...)
}

// Contract labels a spec of the vendor profile with its operation, aspect and the ids of the
// rules it checks (rules.All; a contract spec cites at least one).
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

// withEffect returns l with its effect label replaced by effect.
func withEffect(l ginkgo.Labels, effect string) ginkgo.Labels {
	out := make([]string, 0, len(l))
	for _, x := range l {
		if x == LabelEffectRead || x == LabelEffectWrite {
			x = effect
		}
		out = append(out, x)
	}
	return ginkgo.Label(out...)
}

// WithoutCredential marks a spec of an operation that changes the target as effect:read: every
// request it sends carries no credential the target accepts (no bearer token, or one the
// target never issued), so the target refuses it with 401 before any effect (D110). A public
// operation (cart removal) takes no credential: it stays effect:write.
func WithoutCredential(l ginkgo.Labels) ginkgo.Labels {
	if op, ok := OperationByID(labelValue(l, "op")); ok && op.Access == Public {
		return l
	}
	return withEffect(l, LabelEffectRead)
}

// Writes marks a spec of an operation that only reads as effect:write: it changes the target
// as a step (creates a comment to count it, snoozes a card to list it, …).
func Writes(l ginkgo.Labels) ginkgo.Labels { return withEffect(l, LabelEffectWrite) }

// SpendsRateLimit adds spends:ratelimit to l: the spec spends a rate window, a thumbnail
// window or a login throttle.
func SpendsRateLimit(l ginkgo.Labels) ginkgo.Labels {
	return ginkgo.Label(append(append([]string{}, l...), LabelSpendsRateLimit)...)
}

// Explore labels the spec of explore mode: contract, write (it creates and removes), spending
// rate and thumbnail windows, with a rule label per id it may cite.
func Explore(ruleIDs []string) ginkgo.Labels {
	l := []string{LabelContract, LabelExplore, LabelEffectWrite, LabelSpendsRateLimit}
	for _, id := range ruleIDs {
		l = append(l, LabelRule+id)
	}
	return ginkgo.Label(l...)
}

// labelValue returns the value of the first label key:value among labels, or "".
func labelValue(labels []string, key string) string {
	for _, l := range labels {
		if v, ok := strings.CutPrefix(l, key+":"); ok {
			return v
		}
	}
	return ""
}

// Selects reports whether the run's label filter may select specs of op: some profile and
// aspect of op's labels match it. A filter on rule labels, or one that does not parse, counts as
// selecting op; so does one on probe labels (probe:<class>).
func (r Run) Selects(op Operation) bool {
	filter := r.Filter
	if filter == "" || strings.Contains(filter, LabelRule) || strings.Contains(filter, "probe:") {
		return true
	}
	match, err := types.ParseLabelFilter(filter)
	if err != nil {
		return true
	}
	for _, profile := range []string{LabelContract, LabelReference} {
		for _, aspect := range Aspects {
			for _, effect := range []string{LabelEffectRead, LabelEffectWrite} {
				if match([]string{profile, "op:" + op.ID, "area:" + op.Area, "aspect:" + aspect, effect}) {
					return true
				}
			}
		}
	}
	return false
}
