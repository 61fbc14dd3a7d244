package mockserver_test

import (
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// Concurrent GET /__mock/state build one snapshot at a time, whatever the worlds and their
// sizes: each built its own copy in memory, and six at once of a 60 MB world took the mock
// 250 MB past its bound. All are still answered, with the same bytes as one alone.
func TestConcurrentSnapshotsAreBuiltOneAtATime(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	worlds := []string{"a", "b", "c"}
	for _, w := range worlds {
		m.ctl(http.MethodPost, "/__worlds/"+w+"/__mock/reset", nil).wantStatus(t, http.StatusOK)
	}
	alone := string(m.ctl(http.MethodGet, "/__worlds/a/__mock/state", nil).wantStatus(t, http.StatusOK).raw)

	var now, most atomic.Int32
	t.Cleanup(mockserver.OnSnapshotBuild(func() {
		n := now.Add(1)
		defer now.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		time.Sleep(20 * time.Millisecond) // long enough for the others to overlap, were they let in
	}))
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := worlds[i%len(worlds)]
			a := m.ctl(http.MethodGet, "/__worlds/"+w+"/__mock/state", nil).wantStatus(t, http.StatusOK)
			if w == "a" && string(a.raw) != alone {
				t.Errorf("world a's snapshot read concurrently differs from the one read alone")
			}
		}()
	}
	wg.Wait()
	if n := most.Load(); n != 1 {
		t.Errorf("%d snapshots were built at once, want 1", n)
	}
}
