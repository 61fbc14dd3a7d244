package explore_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/explore"
	"github.com/opsapi/mocktoolkit/conformance/rules"
	"github.com/opsapi/mocktoolkit/internal/fulltest"
)

// absent is an id no record of the mock's world has: a request naming it gets the mock's own 404.
const absent = 2147480001

// TestFindsTagLookedUpElsewhere: a card update that names a tag looks it up where tags are not
// kept, so it answers 404 though the tag and the card exist: ERR-8.
//
// The case names a card it created a moment before: its reproduction asks again while the card
// may not be found yet (a replica), as the run did, the script for up to SETTLE_SECONDS and the
// pasted spec with the suite's finding.
func TestFindsTagLookedUpElsewhere(t *testing.T) {
	t.Parallel() // each serves its own mock
	f := findsPlanted(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			raw, _ := io.ReadAll(r.Body)
			var req map[string]any
			_ = json.Unmarshal(raw, &req)
			if r.URL.Path == conformance.OpCardsUpdate.Path && req["tag_id"] != nil {
				req["id"] = absent
				raw, _ = json.Marshal(req)
			}
			h.ServeHTTP(w, cloneTo(r, r.URL.Path, raw))
		})
	}, 200, rules.ERR8)
	if script := f.Script(); !strings.Contains(script, "ask again, for up to SETTLE_SECONDS") {
		t.Errorf("the script sends the update of a new card once:\n%s", script)
	}
	spec := f.GoSpec()
	if !strings.Contains(spec, "finding(ctx, func() *Exchange") {
		t.Fatalf("the pasted spec sends the update of a new card once:\n%s", spec)
	}
	fulltest.Require(t, "building the suite with a pasted reproduction")
	dir := pasteIntoSuite(t, spec)
	cmd := exec.Command("go", "vet", "./"+filepath.Base(dir))
	cmd.Dir = filepath.Dir(dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the pasted spec does not build in the suite: %v\n%s\n%s", err, out, spec)
	}
}

// lateLookups answers 404, as for an absent record, to a request naming by id a record created
// less than lag ago, as a deployment that looks records up on a read replica behind its writes
// does; lists and creates are the mock's own.
func lateLookups(lag time.Duration) func(http.Handler) http.Handler {
	var (
		mu      sync.Mutex
		created = map[float64]time.Time{}
	)
	return func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			raw, _ := io.ReadAll(r.Body)
			var req map[string]any
			_ = json.Unmarshal(raw, &req)
			mu.Lock()
			for _, f := range []string{"id", "group_id", "board_id", "card_id"} {
				if id, ok := req[f].(float64); ok && time.Since(created[id]) < lag {
					req[f] = absent
				}
			}
			mu.Unlock()
			raw, _ = json.Marshal(req)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, cloneTo(r, r.URL.Path, raw))
			var ans struct {
				Data map[string]any `json:"data"`
			}
			if json.Unmarshal(rec.Body.Bytes(), &ans) == nil && rec.Code < 300 {
				mu.Lock()
				for _, v := range ans.Data {
					if rec, ok := v.(map[string]any); ok {
						if id, ok := rec["id"].(float64); ok {
							if _, seen := created[id]; !seen {
								created[id] = time.Now()
							}
						}
					}
				}
				mu.Unlock()
			}
			writeRecorded(w, rec, rec.Body.Bytes())
		})
	}
}

// A deployment that finds a record only 700 ms after creating it breaks no property: a 404
// naming a record the case just created is asked again for up to the settle time (ERR-8).
func TestRecordsFoundLatePass(t *testing.T) {
	fulltest.Require(t, "explore against lookups that lag the writes")
	t.Parallel() // each serves its own mock
	passes(t, lateLookups(700*time.Millisecond), explore.Options{Cases: 40, Seed: 20261130, Settle: 3 * time.Second}, "a deployment that finds new records late")
}
