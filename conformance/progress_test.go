package conformance_test

import (
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
)

// progress tells the terminal, as it happens, which spec a slow deployment holds and what it
// waits for: against answers of a few seconds one spec (101 comments paged) took minutes with
// nothing printed, and a run looked hung. Every process tells of its own spec.
var progress = &specProgress{}

// slowSpec is how long a spec runs before the terminal is told, and how often again.
const slowSpec = time.Minute

type specProgress struct {
	mu            sync.Mutex
	spec          string
	started, told time.Time
	lastOp        string
	lastSent      time.Time
	answered      int
	answeredIn    time.Duration
	watchers      sync.Once
	now           func() time.Time // tests set it
}

var _ = BeforeEach(func() {
	progress.begin(CurrentSpecReport().FullText())
	DeferCleanup(progress.end)
})

func (p *specProgress) clock() time.Time {
	if p.now != nil {
		return p.now()
	}
	return time.Now()
}

func (p *specProgress) begin(spec string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.spec, p.started, p.told, p.lastOp = spec, p.clock(), time.Time{}, ""
}

func (p *specProgress) end() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.spec = ""
}

// sent notes a request of op about to be sent.
func (p *specProgress) sent(op string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.lastOp, p.lastSent = op, p.clock()
}

// answered notes how long an answer took, for the average the line gives.
func (p *specProgress) answeredAfter(d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.answered++
	p.answeredIn += d
}

// line is what the terminal is told now, or "" when the spec is not slow yet (or was told of
// less than slowSpec ago).
func (p *specProgress) line() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.clock()
	if p.spec == "" || now.Sub(p.started) < slowSpec || now.Sub(p.told) < slowSpec {
		return ""
	}
	p.told = now
	s := fmt.Sprintf("conformance: still on %q after %s", p.spec, now.Sub(p.started).Round(time.Second))
	if p.lastOp != "" {
		s += fmt.Sprintf("; its last request, %s, was sent %s ago", p.lastOp, now.Sub(p.lastSent).Round(time.Second))
	}
	if p.answered > 0 {
		s += fmt.Sprintf("; the deployment's answers take %s on average", (p.answeredIn / time.Duration(p.answered)).Round(10*time.Millisecond))
	}
	return s
}

// watch tells the terminal of slow specs until the process ends.
func (p *specProgress) watch() {
	p.watchers.Do(func() {
		go func() {
			for range time.Tick(slowSpec / 4) {
				if s := p.line(); s != "" {
					fmt.Fprintln(os.Stderr, "\n"+s) // after the row of spec marks
				}
			}
		}()
	})
}

// The progress line names the spec, its last request and the deployment's pace, once a spec
// has run slowSpec, and again only slowSpec later.
func TestSlowSpecsAreToldOf(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	p := &specProgress{now: func() time.Time { return now }}
	p.begin("commentsList pages 7, 8 and 101 comments")
	p.sent("commentsCreate")
	p.answeredAfter(1500 * time.Millisecond)
	p.answeredAfter(2500 * time.Millisecond)
	if s := p.line(); s != "" {
		t.Errorf("a spec just begun is told of: %q", s)
	}
	now = now.Add(70 * time.Second)
	want := `conformance: still on "commentsList pages 7, 8 and 101 comments" after 1m10s; its last request, commentsCreate, was sent 1m10s ago; the deployment's answers take 2s on average`
	if s := p.line(); s != want {
		t.Errorf("line %q, want %q", s, want)
	}
	now = now.Add(30 * time.Second)
	if s := p.line(); s != "" {
		t.Errorf("told again after 30s: %q", s)
	}
	p.end()
	now = now.Add(2 * time.Minute)
	if s := p.line(); s != "" {
		t.Errorf("told of a spec that ended: %q", s)
	}
}
