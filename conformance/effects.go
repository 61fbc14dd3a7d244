package conformance

import (
	"fmt"
	"slices"

	"github.com/onsi/ginkgo/v2/types"
)

// EffectLabelProblems holds a spec's effect labels to the exchanges it really made (D110): it
// returns why they are wrong, or nothing. A spec needs exactly one of effect:read and
// effect:write; one that sent a request that may change the target (ExchangeRecord.Changes) is
// effect:write; an effect:write spec that passed sent one; a spec that sent until a 429 or sent a
// failed login is spends:ratelimit. Run against the reference mock (the in-process run of the
// suite and the self-test), so the readonly profile can trust the labels on any target.
func EffectLabelProblems(labels []string, state types.SpecState, records []ExchangeRecord) []string {
	var out []string
	if n := len(LabelValues(labels, "effect")); n != 1 {
		out = append(out, fmt.Sprintf("it has %d effect labels; it needs exactly one of %s and %s", n, LabelEffectRead, LabelEffectWrite))
	}
	write := slices.Contains(labels, LabelEffectWrite)
	spends := slices.Contains(labels, LabelSpendsRateLimit)
	changed := false
	for _, r := range records {
		if r.Changes() {
			changed = true
			if !write {
				out = append(out, fmt.Sprintf("it is %s but sent %d request(s) that may change the target: %s with credential %s (%s), answered %d",
					LabelEffectRead, r.Count, r.Op, r.Credential, r.Intent, r.Status))
			}
		}
		// A 429 the spec asked for (not one waited out because another spec spent the window),
		// or a failed login.
		if !spends && ((r.Status == 429 && r.NoRetry) || (r.Op == OpAuthenticate.ID && r.Status == 401)) {
			out = append(out, fmt.Sprintf("it sent until %d answer(s) %d from %s, which spend a rate window or a login throttle, but is not %s",
				r.Count, r.Status, r.Op, LabelSpendsRateLimit))
		}
	}
	if write && !changed && state == types.SpecStatePassed {
		out = append(out, fmt.Sprintf("it is %s but passed without sending a request that may change the target: the readonly profile would leave it out for nothing", LabelEffectWrite))
	}
	return out
}
