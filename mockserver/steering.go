package mockserver

import (
	"context"
	"math/rand/v2"
	"net/http"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
)

// steering holds what the mock's controls change besides the world: fault rules, the journal,
// the random source of latency and probabilities, and what the configuration fixes (latency,
// admin token, CORS origins). Every part is safe for concurrent use.
type steering struct {
	latency Latency
	admin   string
	cors    corsPolicy
	journal *journal
	faults  *faultRules
	rand    *draws
	codes   map[string][]int  // by operation id: the statuses the spec lists, ascending
	field   map[string]string // by operation id: the field a forced 422 names

	ctrlMethods map[string]string // by control path: its methods, comma separated
}

func newSteering(cfg Config, doc *openapi3.T, ops []operation) *steering {
	st := &steering{
		latency: cfg.Latency,
		admin:   cfg.AdminToken,
		cors:    newCORSPolicy(cfg.CORSOrigins),
		journal: newJournal(cfg.JournalSize),
		faults:  &faultRules{},
		rand:    newDraws(cfg.Seed),
		codes:   map[string][]int{},
		field:   map[string]string{},
	}
	for _, op := range ops {
		st.codes[op.id], st.field[op.id] = specAnswers(doc, op.path)
	}
	return st
}

// specAnswers reads from the spec the statuses an operation lists and the first field of its
// request body (its first required field, else its first property, else "body"). 413 is left
// out: it is the mock's own answer to an oversized body (D41), not one the interface lists.
func specAnswers(doc *openapi3.T, path string) ([]int, string) {
	item := doc.Paths.Value(path)
	if item == nil || item.Post == nil {
		return nil, "body"
	}
	var codes []int
	for k := range item.Post.Responses.Map() {
		if c, err := strconv.Atoi(k); err == nil && c != http.StatusRequestEntityTooLarge {
			codes = append(codes, c)
		}
	}
	sort.Ints(codes)
	field := "body"
	if rb := item.Post.RequestBody; rb != nil && rb.Value != nil {
		if mt := rb.Value.Content.Get("application/json"); mt != nil && mt.Schema != nil && mt.Schema.Value != nil {
			field = firstField(mt.Schema.Value)
		}
	}
	return codes, field
}

func firstField(s *openapi3.Schema) string {
	if len(s.Required) > 0 {
		return s.Required[0]
	}
	names := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		names = append(names, k)
	}
	sort.Strings(names)
	if len(names) > 0 {
		return names[0]
	}
	return "body"
}

// draws is the mock's seeded random source for latency ranges and fault probabilities, so a
// test that resets to a seed sees the same draws every run.
type draws struct {
	mu sync.Mutex
	r  *rand.Rand
}

func newDraws(seed int64) *draws {
	d := &draws{}
	d.reseed(seed)
	return d
}

func (d *draws) reseed(seed int64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.r = rand.New(rand.NewPCG(uint64(seed), 0x6d6f636b))
}

// float64 draws in [0, 1).
func (d *draws) float64() float64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.r.Float64()
}

// duration draws in [min, max].
func (d *draws) duration(min, max time.Duration) time.Duration {
	if max <= min {
		return min
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return min + time.Duration(d.r.Int64N(int64(max-min)+1))
}

// sleep waits d, or less if ctx ends first; it reports whether the whole delay passed.
func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
