package selftest_test

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/internal/fulltest"
)

// refusesTransitionsMade is a correct deployment that refuses a transition made already (where
// the interface does not show the answer): restoring a conversation that is not archived, the
// active one included, answers 404; deprecating a version deprecated already answers 400.
func refusesTransitionsMade(h httpHandler, m fixtures.Manifest) http.HandlerFunc {
	var mu sync.Mutex
	restored := map[int64]bool{m.AI.ActiveConversationID: true}
	deprecated := map[int64]bool{}
	return func(w http.ResponseWriter, r *http.Request) {
		var (
			seen map[int64]bool
			id   int64
			no   *answer
		)
		switch r.URL.Path {
		case conformance.OpConversationsRestore.Path:
			seen, id = restored, idOf(bodyOf(r)["conversation_id"])
			no = &answer{status: 404, body: map[string]any{"error": true, "message": "Archived conversation not found.", "data": []any{}}}
		case conformance.OpThemeVersionsDeprecate.Path:
			seen, id = deprecated, idOf(bodyOf(r)["version_id"])
			no = &answer{status: 400, body: map[string]any{"error": true, "message": "The version is deprecated already.", "data": []any{}}}
		default:
			h.ServeHTTP(w, r)
			return
		}
		mu.Lock()
		done := seen[id]
		mu.Unlock()
		rec := httptest.NewRecorder() // asked all the same: its rate-limit headers stand
		h.ServeHTTP(rec, r)
		if done && rec.Code == http.StatusOK {
			no.header = rec.Header().Clone()
			writeAnswer(w, no, nil)
			return
		}
		if rec.Code == http.StatusOK {
			mu.Lock()
			seen[id] = true
			mu.Unlock()
		}
		copyAnswer(w, rec.Code, rec.Header(), rec.Body.Bytes())
	}
}

// The suite can run twice against one deployment (conformance/README.md, Destructive specs): a
// deployment that refuses a transition made already passes the destructive specs a second time,
// each passing over the records the first run used for the next the manifest lists.
func TestDestructiveSpecsRunTwice(t *testing.T) {
	t.Parallel()
	fulltest.Require(t, "the destructive specs twice against one deployment")
	base := startMock(t, stateful(refusesTransitionsMade))
	filter := "-ginkgo.label-filter=contract && aspect:transition && (op:conversationsRestore || op:themeVersionsDeprecate)"
	for run := 1; run <= 2; run++ {
		if _, ok, out := runSuite(t, base, filter); !ok {
			t.Fatalf("run %d of the destructive specs failed:\n%s", run, tail(out, 4000))
		}
	}
}
