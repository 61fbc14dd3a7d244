package conformance_test

import (
	"strings"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/conformance"
)

func TestRunFilter(t *testing.T) {
	for _, c := range []struct {
		name, flag string
		cfg        conformance.Config
		want       string
	}{
		{"no profile keeps the flag", "contract && area:ai", conformance.Config{}, "contract && area:ai"},
		{"a profile is the filter when no flag is given", "", conformance.Config{Profile: "contract"}, "contract"},
		{"the flag wins over a profile filter", "reference", conformance.Config{Profile: "contract"}, "reference"},
		{"readonly narrows contract by default", "", conformance.Config{Profile: "readonly"}, "(contract) && effect:read && !spends:ratelimit"},
		{"readonly narrows the flag's filter", "area:ai", conformance.Config{Profile: "readonly"}, "(area:ai) && effect:read && !spends:ratelimit"},
		{"readonly may spend rate windows when allowed", "", conformance.Config{Profile: "readonly", AllowRateLimit: true}, "(contract) && effect:read"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := conformance.RunFilter(c.flag, c.cfg).Filter; got != c.want {
				t.Errorf("RunFilter(%q, %+v) = %q, want %q", c.flag, c.cfg, got, c.want)
			}
		})
	}
}

func TestLeftOutReason(t *testing.T) {
	run := conformance.RunFilter("", conformance.Config{Profile: "readonly"})
	for _, c := range []struct {
		name   string
		labels []string
		want   string
	}{
		{"a create", []string{"contract", "op:tagsCreate", "effect:write"}, "changes the target: creates"},
		{"a cart removal", []string{"contract", "op:domainCartRemove", "effect:write"}, "changes the target: cart removals"},
		{"a write as a step", []string{"contract", "op:widgetCardsList", "effect:write"}, "changes the target: writes as a step of a check on a reading operation"},
		{"a rate window", []string{"contract", "op:tagsList", "effect:read", "spends:ratelimit"}, "spends a rate window (CONFORMANCE_ALLOW_RATELIMIT=1 runs it)"},
		{"a read runs", []string{"contract", "op:tagsList", "effect:read"}, ""},
		{"a reference spec was never in the run", []string{"reference", "op:tagsCreate", "effect:write"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := run.LeftOutReason(c.labels); got != c.want {
				t.Errorf("LeftOutReason(%v) = %q, want %q", c.labels, got, c.want)
			}
		})
	}
	flows := conformance.RunFilter("flow", conformance.Config{Profile: "readonly"})
	if got := flows.LeftOutReason([]string{"flow", "effect:write"}); got != "changes the target: a flow whose steps write" {
		t.Errorf("a flow that writes is left out for %q", got)
	}
	if got := (conformance.Run{Filter: "contract"}).LeftOutReason([]string{"contract", "op:tagsCreate", "effect:write"}); got != "" {
		t.Errorf("a run without the readonly profile gave a reason: %q", got)
	}
}

func TestRunSelects(t *testing.T) {
	op := conformance.OpDomainCartRemove
	for filter, want := range map[string]bool{
		"":                                 true,
		"contract":                         true,
		"contract && area:websites":        false,
		"contract && !op:domainCartRemove": false,
		"op:domainCartRemove":              true,
		"aspect:conflict":                  true,
		"rule:CART-2":                      true,
	} {
		if got := (conformance.Run{Filter: filter}).Selects(op); got != want {
			t.Errorf("Run{Filter: %q}.Selects(%s) = %v, want %v", filter, op.ID, got, want)
		}
	}
}

// A profile that reads as readonly but is written otherwise is refused at the start: taken for
// a label filter (or dropped for the flag's), it ran the specs that write against a deployment
// meant only to be read. A filter Ginkgo cannot read is refused too.
func TestProfileMisspelledIsRefused(t *testing.T) {
	for p, ok := range map[string]bool{
		"": true, "readonly": true, "contract": true, "contract && area:ai": true,
		"readOnly": false, "read-only": false, "readonly ": false, "READ_ONLY": false, "contract &&": false,
	} {
		_, err := conformance.LoadConfig(func(k string) string {
			if k == conformance.EnvProfile {
				return p
			}
			return ""
		})
		if (err == nil) != ok {
			t.Errorf("%s=%q: %v, want accepted %v", conformance.EnvProfile, p, err, ok)
		}
	}
}

// Each numeric setting is refused, naming itself, when it is not a number in its range: a
// retry bound of 10^10 seconds overflowed to a negative wait, and was taken.
func TestNumericSettingsOutOfRangeAreRefused(t *testing.T) {
	for _, c := range []struct{ name, value string }{
		{conformance.EnvRetryMax, "10000000000"},
		{conformance.EnvRetryMax, "-1"},
		{conformance.EnvRateLimitMax, "0"},
		{conformance.EnvRateLimitMax, "99999999999999999999"},
		{conformance.EnvRateSenders, "257"},
		{conformance.EnvParallel, "0"},
		{conformance.EnvParallel, "4x"},
		{conformance.EnvPushWait, "2h"},
		{conformance.EnvPushWait, "-1s"},
		{conformance.EnvTimeout, "0s"},
		{conformance.EnvTimeout, "30"},
	} {
		_, err := conformance.LoadConfig(func(k string) string {
			if k == c.name {
				return c.value
			}
			return ""
		})
		if err == nil || !strings.Contains(err.Error(), c.name) {
			t.Errorf("%s=%q: %v, want an error naming it", c.name, c.value, err)
		}
	}
	cfg, err := conformance.LoadConfig(func(k string) string {
		return map[string]string{conformance.EnvRetryMax: "86400", conformance.EnvPushWait: "0s", conformance.EnvTimeout: "2m", conformance.EnvParallel: "64"}[k]
	})
	if err != nil || cfg.RetryMax != 24*time.Hour || cfg.PushWait != 0 || cfg.Timeout != 2*time.Minute || cfg.Parallel != 64 {
		t.Errorf("settings at their bounds: %+v, %v", cfg, err)
	}
}
