package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/opsapi/mocktoolkit/conformance"
)

// EffectLabelProblems holds a spec's effect labels to the exchanges it really made (D110): it
// returns why they are wrong, or nothing. A spec needs exactly one of effect:read and
// effect:write; one that sent a request that may change the target (conformance.ExchangeRecord.Changes) is
// effect:write; an effect:write spec that passed sent one; a spec that sent until a 429 or sent a
// failed login is spends:ratelimit. Run against the reference mock (the in-process run of the
// suite and the self-test), so the readonly profile can trust the labels on any target.
func EffectLabelProblems(labels []string, state types.SpecState, records []conformance.ExchangeRecord) []string {
	var out []string
	if n := len(LabelValues(labels, "effect")); n != 1 {
		out = append(out, fmt.Sprintf("it has %d effect labels; it needs exactly one of %s and %s", n, conformance.LabelEffectRead, conformance.LabelEffectWrite))
	}
	write := slices.Contains(labels, conformance.LabelEffectWrite)
	spends := slices.Contains(labels, conformance.LabelSpendsRateLimit)
	changed := false
	for _, r := range records {
		if r.Changes() {
			changed = true
			if !write {
				out = append(out, fmt.Sprintf("it is %s but sent %d request(s) that may change the target: %s with credential %s (%s), answered %d",
					conformance.LabelEffectRead, r.Count, r.Op, r.Credential, r.Intent, r.Status))
			}
		}
		// A 429 the spec asked for (not one waited out because another spec spent the window),
		// or a failed login.
		if !spends && ((r.Status == 429 && r.NoRetry) || (r.Op == conformance.OpAuthenticate.ID && r.Status == 401)) {
			out = append(out, fmt.Sprintf("it sent until %d answer(s) %d from %s, which spend a rate window or a login throttle, but is not %s",
				r.Count, r.Status, r.Op, conformance.LabelSpendsRateLimit))
		}
	}
	if write && !changed && state == types.SpecStatePassed {
		out = append(out, fmt.Sprintf("it is %s but passed without sending a request that may change the target: the readonly profile would leave it out for nothing", conformance.LabelEffectWrite))
	}
	return out
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
	if v := LabelValues(labels, key); len(v) > 0 {
		return v[0]
	}
	return ""
}
