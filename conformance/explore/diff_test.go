package explore_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/explore"
)

// TestDiffAgainstItself: the reference replayed against a fresh reference differs nowhere.
func TestDiffAgainstItself(t *testing.T) {
	c, m := serve(t, nil)
	res, err := explore.Run(context.Background(), c, m, explore.Options{Cases: 40, Seed: 11, Diff: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Failure != nil {
		t.Fatalf("the reference breaks a property:\n%s", res.Failure.Report())
	}
	if len(res.Diffs) > 0 {
		t.Fatalf("the reference differs from itself:\n%s", strings.Join(res.Diffs, "\n"))
	}
}

// TestDiffReportsOutcomes: a target that refuses every comment with 404 breaks no property
// (404 is an answer the interface allows a create), but differential mode reports where its
// outcomes part from the reference's: the status class and the count the comment list follows.
func TestDiffReportsOutcomes(t *testing.T) {
	c, m := serve(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != conformance.OpCommentsCreate.Path {
				h.ServeHTTP(w, r)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("X-RateLimit-Limit", "1000")
			w.Header().Set("X-RateLimit-Remaining", "999")
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"error":true,"message":"No such card.","data":[]}`))
		})
	})
	res, err := explore.Run(context.Background(), c, m, explore.Options{Cases: 60, Seed: 11, Diff: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Failure != nil {
		t.Fatalf("a refusal the interface allows breaks a property:\n%s", res.Failure.Report())
	}
	joined := strings.Join(res.Diffs, "\n")
	for _, want := range []string{"commentsCreate with a valid body: target 4xx, reference 2xx", "comments count: target 4xx, count +0, reference 2xx, count +1"} {
		if !strings.Contains(joined, want) {
			t.Errorf("the differences lack %q:\n%s", want, joined)
		}
	}
	t.Logf("%d differences:\n%s", len(res.Diffs), joined)
}
