package mockserver

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
)

// A journal size far past what the journals' byte bound lets any journal hold is accepted:
// the ring grows with the entries held instead of being made whole in New (it asked for 16
// bytes per slot up front, 16 TiB for 1<<40, and the process died out of memory).
func TestJournalHugeSizeServes(t *testing.T) {
	s, err := New(Config{JournalSize: 1 << 40})
	if err != nil {
		t.Fatal(err)
	}
	// a request to an unknown path makes no world (D185): asking for its clock does
	s.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/__worlds/big/__mock/clock", nil))
	for i := range 3 {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, fmt.Sprintf("/__worlds/big/nope/%d", i), nil))
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/__worlds/big/__mock/requests", nil))
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "/nope/2") {
		t.Errorf("journal of the world with JournalSize 1<<40: %d %s", rec.Code, rec.Body.String())
	}
}

// 64 worlds of one request each, with a large journal size, hold about what their entries
// cost, not the size's worth of slots per world (500000 slots took about 8 MB a world).
func TestJournalLargeSizeMemoryFollowsEntries(t *testing.T) {
	s, err := New(Config{JournalSize: 500000})
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for w := range 64 {
		s.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, fmt.Sprintf("/__worlds/w%d/__mock/clock", w), nil))
		s.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, fmt.Sprintf("/__worlds/w%d/nope", w), nil))
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 100<<20 {
		t.Errorf("64 worlds of one request each with JournalSize 500000 grew the heap by %d MB", grew>>20)
	}
	runtime.KeepAlive(s)
}

// Journals sharing a small budget, so that entries go for the budget while a ring is still
// growing (its oldest entry not in its first slot), still hold consecutive requests, newest
// first, never more than their size, and exactly min(requests, size) while the budget has room.
func TestJournalGrowingRingKeepsOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	b := newJournalBudget(40 * journalEntryCost)
	sizes := []int{1, 3, 7, 25, 1000}
	js := make([]*journal, len(sizes))
	added := make([]int, len(sizes))
	for i, n := range sizes {
		js[i] = newJournal(n, b)
	}
	for step := range 5000 {
		k := r.IntN(len(js))
		if step%700 == 699 {
			js[k].clear()
			added[k] = 0
		}
		added[k]++
		js[k].add(journalEntry{Method: "GET", Path: strings.Repeat("p", r.IntN(2*journalEntryCost))})
		for i, j := range js {
			got := j.list(0)
			if len(got) > sizes[i] || len(got) > added[i] {
				t.Fatalf("step %d: journal of size %d holds %d after %d requests", step, sizes[i], len(got), added[i])
			}
			for x, e := range got {
				if e.ID != j.nextID-int64(x) {
					t.Fatalf("step %d: journal of size %d lists id %d at %d, want %d", step, sizes[i], e.ID, x, j.nextID-int64(x))
				}
			}
		}
	}
	// With room in the budget, each keeps exactly its last min(requests, size).
	big := newJournalBudget(journalBytes)
	for _, n := range sizes {
		j := newJournal(n, big)
		for i := 1; i <= 2*n+3; i++ {
			j.add(journalEntry{Method: "GET", Path: "/"})
			if got := len(j.list(0)); got != min(i, n) {
				t.Fatalf("journal of size %d holds %d after %d requests, want %d", n, got, i, min(i, n))
			}
		}
	}
}
