package mockserver

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// MaxLatency is the longest delay --latency (Config.Latency) may add to an answer, and the
// longest latency_ms of a fault rule (D61).
const MaxLatency = 30 * time.Second

// MaxDelay is the longest the mock holds an answer on purpose: --latency and a fault rule's
// latency_ms add up, each at most MaxLatency. A server running the mock must let a request
// live at least this long beyond its own read and write time (D78); cmd/mockserver derives
// its timeouts from it.
const MaxDelay = 2 * MaxLatency

// Latency is a delay added to every operation: Min when Max is not larger, otherwise a draw
// in [Min, Max] from the mock's seeded random source.
type Latency struct {
	Min, Max time.Duration
}

// ParseLatency reads a --latency value: a duration ("250ms", "1s"), a number of milliseconds
// ("250"), or a range of either ("100ms-400ms", "100-400"). The empty string is no latency.
func ParseLatency(s string) (Latency, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Latency{}, nil
	}
	lo, hi, ranged := strings.Cut(s, "-")
	min, err := parseDelay(lo)
	if err != nil {
		return Latency{}, fmt.Errorf("parse latency %q: %w", s, err)
	}
	max := min
	if ranged {
		if max, err = parseDelay(hi); err != nil {
			return Latency{}, fmt.Errorf("parse latency %q: %w", s, err)
		}
	}
	if max < min {
		return Latency{}, fmt.Errorf("parse latency %q: the range ends before it starts", s)
	}
	if max > MaxLatency {
		return Latency{}, fmt.Errorf("parse latency %q: at most %s", s, MaxLatency)
	}
	return Latency{Min: min, Max: max}, nil
}

func parseDelay(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if ms, err := strconv.ParseInt(s, 10, 64); err == nil {
		if ms < 0 || ms > MaxLatency.Milliseconds() {
			return 0, fmt.Errorf("want 0 to %d milliseconds, got %s", MaxLatency.Milliseconds(), s)
		}
		return time.Duration(ms) * time.Millisecond, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("want a duration such as 250ms or a number of milliseconds, got %q", s)
	}
	return d, nil
}

// String writes the latency as ParseLatency reads it.
func (l Latency) String() string {
	if l.Max <= l.Min {
		return l.Min.String()
	}
	return l.Min.String() + "-" + l.Max.String()
}

// draw picks this answer's delay.
func (l Latency) draw(d *draws) time.Duration {
	if l.Max <= l.Min {
		return l.Min
	}
	return d.duration(l.Min, l.Max)
}
