package explore_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/check"
	"github.com/opsapi/mocktoolkit/conformance/explore"
)

// keepsFieldRules reports whether r's body keeps op's field rules, as the checker reads it (and
// puts the body back): a body that breaks one is refused with a validation error, not a quota.
func keepsFieldRules(r *http.Request, op conformance.Operation) bool {
	raw, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(raw))
	vs, _ := check.Request(r.Context(), op.Operation, r.Header, raw)
	return len(vs) == 0
}

// Where a create's codes are not shown, a 2xx with `error: true` is a refusal (D209): a target
// that refuses every second valid tag so (a quota), creating nothing, breaks no property. Its
// lists counted such a refusal as a create, and LIST-1 failed a correct deployment.
func TestRefusalInASuccessStatusCreatesNothing(t *testing.T) {
	t.Parallel() // each serves its own mock
	var n atomic.Int64
	c, m := serve(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != conformance.OpTagsCreate.Path || !keepsFieldRules(r, conformance.OpTagsCreate) || n.Add(1)%2 == 1 || !issued(h, r) {
				h.ServeHTTP(w, r)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("X-RateLimit-Limit", "1000")
			w.Header().Set("X-RateLimit-Remaining", "999")
			_, _ = w.Write([]byte(`{"error":true,"message":"Tag quota reached, try again later."}`))
		})
	})
	res, err := explore.Run(context.Background(), c, m, explore.Options{Cases: 60, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if res.Failure != nil {
		t.Fatalf("a refusal the interface allows breaks a property:\n%s", res.Failure.Report())
	}
	if n.Load() < 4 {
		t.Fatalf("only %d tag creates in %d cases: the run did not try the refusal", n.Load(), res.Cases)
	}
}
