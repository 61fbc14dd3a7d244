package mockserver

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/reference"
)

// BenchmarkCardsCreateAt measures cards/create through the whole handler in a project that
// already holds n cards: the cost must stay flat from 0 to 100k.
func BenchmarkCardsCreateAt(b *testing.B) {
	for _, n := range []int{0, 1_000, 10_000, 100_000} {
		b.Run(fmt.Sprintf("cards=%d", n), func(b *testing.B) {
			m := newBenchMock(b, func(st *reference.State, mf fixtures.Manifest) { addCards(st, mf, n) })
			body := mustJSON(b, map[string]any{"title": "Bench card", "group_id": m.manifest.Operations.GroupID})
			m.loop(b, opsV1+"cards/create", body, true)
		})
	}
}

// BenchmarkCommentsListAt measures a comments/list page of 15 on a card with n comments: the
// cost must follow per_page, not n. The last page is read, the one a naive slice would reach
// last.
func BenchmarkCommentsListAt(b *testing.B) {
	for _, n := range []int{100, 10_000, 100_000} {
		b.Run(fmt.Sprintf("comments=%d", n), func(b *testing.B) {
			m := newBenchMock(b, func(st *reference.State, mf fixtures.Manifest) { addComments(st, mf, n) })
			body := mustJSON(b, map[string]any{"card_id": m.manifest.Operations.CardID, "per_page": 15, "page": n / 15})
			m.loop(b, opsV1+"comments/list", body, true)
		})
	}
}

// BenchmarkMemoryPerRecord loads 50k extra cards, then 50k extra comments, into a store and
// reports the live heap each record adds (B/card, B/comment), index entries included. One
// iteration takes seconds: run it with -benchtime=1x (make bench does).
func BenchmarkMemoryPerRecord(b *testing.B) {
	const n = 50_000
	for range b.N {
		b.ReportMetric(heapPerRecord(b, n, func(st *reference.State, mf fixtures.Manifest) { addCards(st, mf, n) }), "B/card")
		b.ReportMetric(heapPerRecord(b, n, func(st *reference.State, mf fixtures.Manifest) { addComments(st, mf, n) }), "B/comment")
	}
}

// heapPerRecord is the live heap of a store of the seeded world grown by grow, less that of the
// seeded world alone, per record.
func heapPerRecord(b *testing.B, n int, grow func(*reference.State, fixtures.Manifest)) float64 {
	storeHeap := func(grow func(*reference.State, fixtures.Manifest)) uint64 {
		before := liveHeap()
		w := fixtures.Build(fixtures.DefaultSeed, benchNow)
		if grow != nil {
			grow(&w.State, w.Manifest)
		}
		st, err := reference.New(w.State)
		if err != nil {
			b.Fatalf("load: %v", err)
		}
		w = fixtures.World{} // only the store stays reachable
		after := liveHeap()
		runtime.KeepAlive(st)
		return after - min(before, after)
	}
	base := storeHeap(nil)
	grown := storeHeap(grow)
	return float64(grown-min(base, grown)) / float64(n)
}

func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
