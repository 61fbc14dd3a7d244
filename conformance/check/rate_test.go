package check_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance/check"
	"github.com/opsapi/mocktoolkit/spec"
)

// run builds answers with Limit limit and the given Remaining values (-1: header missing).
func rateRun(limit int, rems ...int) []check.RateStep {
	out := make([]check.RateStep, len(rems))
	for i, r := range rems {
		h := http.Header{}
		h.Set("X-RateLimit-Limit", strconv.Itoa(limit))
		if r >= 0 {
			h.Set("X-RateLimit-Remaining", strconv.Itoa(r))
		}
		out[i] = check.RateStep{Status: 200, Header: h}
	}
	return out
}

func TestCountDown(t *testing.T) {
	changed := rateRun(10, 9, 8, 7, 6, 5, 4)
	changed[3].Header.Set("X-RateLimit-Limit", "20")
	retried := rateRun(10, 9, 8, 7, 6, 5, 4)
	retried[2].Retried = true
	refused := rateRun(10, 9, 8, 7, 6, 5, 4)
	refused[5].Status = 429
	cases := []struct {
		name    string
		run     []check.RateStep
		broken  bool
		skipped bool
	}{
		{"counts down", rateRun(10, 9, 8, 7, 6, 5, 4), false, false},
		{"fixed window resets mid-run", rateRun(10, 2, 1, 0, 9, 8, 7), false, false},
		{"sliding window stays once", rateRun(10, 5, 4, 4, 3, 2, 1), false, false},
		{"sliding window frees several", rateRun(10, 5, 4, 7, 6, 5, 4), false, false},
		{"two window ends say nothing", rateRun(10, 5, 5, 3, 3, 2, 1), false, true},
		{"a skipped step among two window ends says nothing", rateRun(10, 5, 5, 3, 3, 2, 2), false, true},
		{"a missing header says nothing", rateRun(10, 9, 8, -1, 6, 5, 4), false, true},
		{"a retried request says nothing", retried, false, true},
		{"a 429 says nothing", refused, false, true},
		{"one answer says nothing", rateRun(10, 9), false, true},
		{"down by two", rateRun(10, 9, 8, 6, 5, 4, 3), true, false},
		{"Remaining at Limit", rateRun(10, 10, 9, 8, 7, 6, 5), true, false},
		{"Remaining never counts", rateRun(10, 10, 10, 10, 10, 10, 10), true, false},
		{"Limit changes", changed, true, false},
	}
	for _, c := range cases {
		vs, skip := check.CountDown(c.run)
		if (len(vs) > 0) != c.broken || (skip != "") != c.skipped {
			t.Errorf("%s: violations %v, skip %q", c.name, vs, skip)
		}
		for _, v := range vs {
			if v.Rule != "LIMIT-4" {
				t.Errorf("%s: rule %s", c.name, v.Rule)
			}
		}
	}
}

// LIMIT-6: a per-minute limit's 429 says at most a minute (61 for rounding); the login
// throttle and the ten-minute thumbnail window are not per-minute limits.
func TestMinuteRetryAfter(t *testing.T) {
	for _, tt := range []struct {
		op     string
		status int
		after  string
		broken bool
	}{
		{"tagsList", 429, "60", false},
		{"tagsList", 429, "61", false},
		{"tagsList", 429, "62", true},
		{"cardsCreate", 429, "3600", true},
		{"cardsCreate", 200, "3600", false},
		{"thumbnailsRegenerate", 429, "600", false},
		{"authenticate", 429, "900", false},
	} {
		h := http.Header{"Retry-After": {tt.after}}
		got := check.MinuteRetryAfter(spec.Operation{ID: tt.op}, tt.status, h)
		if (len(got) > 0) != tt.broken {
			t.Errorf("%s %d Retry-After %s: %v, want broken %v", tt.op, tt.status, tt.after, got, tt.broken)
		}
	}
}

// LIMIT-6 quotes the Retry-After the deployment sent: one past int64 was quoted as int64's
// largest, a number it never sent.
func TestMinuteRetryAfterQuotesTheValueSent(t *testing.T) {
	o := op(t, "tagsList")
	for _, sent := range []string{"3600", "99999999999999999999"} {
		vs := check.MinuteRetryAfter(o, http.StatusTooManyRequests, http.Header{"Retry-After": {sent}})
		if len(vs) != 1 || !strings.Contains(vs[0].Detail, "Retry-After is "+sent+" seconds") {
			t.Errorf("Retry-After %s: %v, want one LIMIT-6 quoting it", sent, vs)
		}
	}
}
