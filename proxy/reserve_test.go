package proxy

import (
	"sync"
	"sync/atomic"
	"testing"
)

// Answers arriving at once each reserve their bytes before reading: however many ask together,
// what is reserved never passes the budget, and a refused reservation takes nothing.
func TestReserveAnswerNeverPassesTheBudget(t *testing.T) {
	p := &Proxy{}
	var granted, peak atomic.Int64
	var wg sync.WaitGroup
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				const n = 8<<20 + 1
				if !p.reserveAnswer(n) {
					continue
				}
				granted.Add(1)
				for now := p.heldAnswers.Load(); now > peak.Load(); now = p.heldAnswers.Load() {
					peak.CompareAndSwap(peak.Load(), now)
				}
				p.heldAnswers.Add(-n)
			}
		}()
	}
	wg.Wait()
	if peak.Load() > maxHeldAnswers || granted.Load() == 0 || p.heldAnswers.Load() != 0 {
		t.Errorf("peak %d bytes reserved of %d, %d granted, %d left reserved", peak.Load(), maxHeldAnswers, granted.Load(), p.heldAnswers.Load())
	}
}
