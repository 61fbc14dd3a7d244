package check_test

import (
	"net/http"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance/check"
	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// The rate-limit headers and Retry-After are integers as HTTP writes them, digits only: a sign
// ("+5", "-0") or a space inside is HDR-1 or HDR-2, though strconv would read it.
func TestHeaderIntegersAreDigitsOnly(t *testing.T) {
	for _, c := range []struct {
		limit, remaining, retry string
		want                    rules.ID
	}{
		{"60", "59", "", ""},
		{"60", "+5", "", rules.HDR1},
		{"60", "-0", "", rules.HDR1},
		{"6 0", "5", "", rules.HDR1},
		{"60", "0", "30", ""},
		{"60", "0", "-0", rules.HDR2},
		{"60", "0", "+30", rules.HDR2},
	} {
		h := http.Header{"X-Ratelimit-Limit": {c.limit}, "X-Ratelimit-Remaining": {c.remaining}}
		status := http.StatusOK
		if c.retry != "" {
			h.Set("Retry-After", c.retry)
			status = http.StatusTooManyRequests
		}
		var got rules.ID
		if vs := check.Headers(status, h); len(vs) > 0 {
			got = vs[0].Rule
		}
		if got != c.want {
			t.Errorf("Limit %q, Remaining %q, Retry-After %q: %q, want %q", c.limit, c.remaining, c.retry, got, c.want)
		}
	}
}
