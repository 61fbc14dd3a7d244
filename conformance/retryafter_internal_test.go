package conformance

import (
	"net/http"
	"testing"
	"time"
)

// A Retry-After too large for a time.Duration is a wait longer than any bound, never one that
// wraps round to a negative or short wait the client would hammer the deployment with.
func TestRetryAfterPastTheDurationsRange(t *testing.T) {
	for _, c := range []struct {
		header string
		want   time.Duration
		ok     bool
	}{
		{"1", time.Second, true},
		{"86400", 24 * time.Hour, true},
		{"2147483648", maxRetryAfter, true},
		{"9223372037", maxRetryAfter, true},                 // wrapped to a negative wait
		{"18446744074", maxRetryAfter, true},                // wrapped to 290ms
		{"99999999999999999999999999", maxRetryAfter, true}, // past int64
		{"-1", 0, false},
		{"+5", 0, false},
		{"Wed, 21 Oct 2015 07:28:00 GMT", 0, false},
	} {
		got, ok := RetryAfter(http.Header{"Retry-After": {c.header}})
		if got != c.want || ok != c.ok {
			t.Errorf("Retry-After %q: %s %v, want %s %v", c.header, got, ok, c.want, c.ok)
		}
	}
}
