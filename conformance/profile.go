package conformance

import (
	"fmt"
	"strings"

	"github.com/onsi/ginkgo/v2/types"
)

// Run is how a run narrows the suite: the label filter it runs with, and for the readonly
// profile the filter it narrows (Base), so the summary can say what the profile left out.
type Run struct {
	// Filter is the label filter the run uses ("" runs every spec).
	Filter string
	// ReadOnly is set for the readonly profile; Base is then the filter it narrows.
	ReadOnly bool
	Base     string
	// AllowRateLimit lets readonly run the specs that spend a rate window.
	AllowRateLimit bool
}

// RunFilter decides the label filter of a run from the --ginkgo.label-filter flag and the
// profile: "readonly" narrows the flag's filter (or `contract` when none is given) to
// readOnlyFilter; any other profile is a label filter used when the flag gives none.
func RunFilter(flagFilter string, cfg Config) Run {
	switch {
	case cfg.Profile == ProfileReadOnly:
		base := flagFilter
		if base == "" {
			base = LabelContract
		}
		return Run{Filter: readOnlyFilter(base, cfg.AllowRateLimit), ReadOnly: true, Base: base, AllowRateLimit: cfg.AllowRateLimit}
	case flagFilter == "":
		return Run{Filter: cfg.Profile}
	}
	return Run{Filter: flagFilter}
}

// checkProfile refuses a profile that reads as readonly but is not written so ("readOnly",
// "read-only", "readonly "): taken for a label filter, it would run the specs that change the
// target, or be dropped for the flag's filter, against a deployment meant to be only read. Any
// other profile must be a label filter Ginkgo can read.
func checkProfile(p string) error {
	if p == "" || p == ProfileReadOnly {
		return nil
	}
	squeezed := strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == ' ' || r == '\t' {
			return -1
		}
		return r
	}, strings.ToLower(p))
	if squeezed == ProfileReadOnly {
		return fmt.Errorf("load config: %s=%q is not a profile: the readonly profile is written %q", EnvProfile, p, ProfileReadOnly)
	}
	if _, err := types.ParseLabelFilter(p); err != nil {
		return fmt.Errorf("load config: %s=%q is neither %q nor a label filter (such as contract): %v", EnvProfile, p, ProfileReadOnly, err)
	}
	return nil
}

// readOnlyFilter narrows base to the specs labelled effect:read, and unless allowRateLimit to
// those that spend no rate window (spends:ratelimit).
func readOnlyFilter(base string, allowRateLimit bool) string {
	f := "(" + base + ") && " + LabelEffectRead
	if !allowRateLimit {
		f += " && !" + LabelSpendsRateLimit
	}
	return f
}

// LeftOutReason says why the readonly profile leaves out a spec with labels, or "" when it
// runs it (or the base filter leaves it out anyway).
func (r Run) LeftOutReason(labels []string) string {
	if !r.ReadOnly {
		return ""
	}
	if r.Base != "" {
		match, err := types.ParseLabelFilter(r.Base)
		if err == nil && !match(labels) {
			return ""
		}
	}
	has := func(l string) bool {
		for _, x := range labels {
			if x == l {
				return true
			}
		}
		return false
	}
	switch {
	case has(LabelEffectWrite) && has(LabelFlow):
		return "changes the target: a flow whose steps write"
	case has(LabelEffectWrite):
		op, _ := OperationByID(labelValue(labels, "op"))
		if k := op.Change(); k != "" {
			return "changes the target: " + k
		}
		return "changes the target: writes as a step of a check on a reading operation"
	case has(LabelSpendsRateLimit) && !r.AllowRateLimit:
		return "spends a rate window (" + EnvAllowRateLimit + "=1 runs it)"
	}
	return ""
}

// String renders the run's narrowing for reports.
func (r Run) String() string {
	var b strings.Builder
	if r.ReadOnly {
		b.WriteString("profile readonly")
		if r.AllowRateLimit {
			b.WriteString(" (rate windows allowed)")
		}
		b.WriteString(", ")
	}
	if r.Filter == "" {
		b.WriteString("every spec")
	} else {
		b.WriteString("label filter " + r.Filter)
	}
	return b.String()
}
