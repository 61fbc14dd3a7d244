package explore_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/conformance/explore"
	"github.com/opsapi/mocktoolkit/internal/fulltest"
)

// staleLists serves every list's body as it was up to lag ago, as a read replica or a cache
// behind the writes would; the headers (the rate limit among them) are the answer's own.
func staleLists(lag time.Duration) func(http.Handler) http.Handler {
	type kept struct {
		body []byte
		at   time.Time
	}
	var (
		mu    sync.Mutex
		cache = map[string]kept{}
	)
	return func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !strings.HasSuffix(r.URL.Path, "/list") {
				h.ServeHTTP(w, r)
				return
			}
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			key := r.URL.Path + " " + r.Header.Get("Authorization") + " " + string(body)
			out := rec.Body.Bytes()
			mu.Lock()
			if k, ok := cache[key]; ok && rec.Code == 200 && time.Since(k.at) < lag {
				out = k.body
			} else if rec.Code == 200 {
				cache[key] = kept{out, time.Now()}
			}
			mu.Unlock()
			writeRecorded(w, rec, out)
		})
	}
}

// A deployment whose lists lag its writes by up to 700 ms breaks no property: a create's list,
// and a sync's copies, are read again for up to the settle time (LIST-1, SYNC-1, D210).
func TestListsThatLagTheWritesPass(t *testing.T) {
	fulltest.Require(t, "explore against lists that lag the writes")
	t.Parallel() // each serves its own mock
	passes(t, staleLists(700*time.Millisecond), explore.Options{Cases: 40, Seed: 20261128, Settle: 3 * time.Second}, "a deployment whose lists lag its writes")
}
