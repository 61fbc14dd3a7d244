package arrival

import (
	"testing"
	"time"
)

// A body is ranked by the bytes a second it has arrived at, and may give way only once it has
// been arriving for Grace.
func TestRate(t *testing.T) {
	p := Begin()
	p.Add(1000)
	p.Add(1000)
	if p.Got() != 2000 {
		t.Errorf("Got = %d, want 2000", p.Got())
	}
	if _, due := p.Rate(p.start.Add(Grace / 2)); due {
		t.Error("a body arriving for half the grace is due to give way")
	}
	rate, due := p.Rate(p.start.Add(2 * time.Second))
	if !due || rate != 1000 {
		t.Errorf("after 2 s with 2000 bytes: %v bytes/s, due %v; want 1000, true", rate, due)
	}
}
