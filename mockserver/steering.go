package mockserver

import (
	"context"
	"math/rand/v2"
	"sync"
	"time"
)

// steering holds what the configuration fixes for every world: latency, admin token, CORS
// origins and the hosts the controls answer (D103). What the controls change (fault rules, the
// journal, random draws) belongs to each world (world.go).
type steering struct {
	latency Latency
	admin   string
	cors    corsPolicy
	hosts   hostPolicy

	ctrlMethods map[string]string // by control path: its methods, comma separated
}

func newSteering(cfg Config) *steering {
	return &steering{
		latency: cfg.Latency,
		admin:   cfg.AdminToken,
		cors:    newCORSPolicy(cfg.CORSOrigins),
		hosts:   newHostPolicy(cfg.AllowedHosts),
	}
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
