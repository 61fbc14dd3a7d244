package conformance

import (
	"github.com/onsi/ginkgo/v2"

	"github.com/opsapi/mocktoolkit/conformance/flow"
)

// FlowLabels are the labels of the spec replaying doc: flow, and the effect of its steps as
// the readonly profile reads effects (D110): effect:write when a step changes something with a
// credential the target accepts (or on a public operation), spends:ratelimit when a step was
// refused a login or answered 429.
func FlowLabels(doc flow.Document) ginkgo.Labels {
	effect, spends := LabelEffectRead, false
	for _, st := range doc.Steps {
		op, _ := OperationByID(st.Operation)
		credential := st.As != flow.AsNone && st.As != flow.AsInvalid
		if op.Change() != "" && (op.Access == Public || credential) {
			effect = LabelEffectWrite
		}
		if st.Answer.Status == 429 || op.ID == OpAuthenticate.ID && st.Answer.Status >= 400 {
			spends = true
		}
	}
	l := []string{LabelFlow, effect}
	if spends {
		l = append(l, LabelSpendsRateLimit)
	}
	return ginkgo.Label(l...)
}
