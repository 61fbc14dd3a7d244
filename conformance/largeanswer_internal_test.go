package conformance

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// largeList answers tags/list with a sound list of n bytes or more: the tags padded with white
// space, as a deployment with many records (or one that pretty-prints) might answer.
func largeList(t *testing.T, n int) string {
	return answering(t, `{"tags":[{"id":1,"name":"a"}]`+strings.Repeat(" ", n)+`}`)
}

// answering serves a success with data as written, and its rate-limit headers, to every call.
func answering(t *testing.T, data string) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-RateLimit-Limit", "60")
		w.Header().Set("X-RateLimit-Remaining", "59")
		_, _ = w.Write([]byte(`{"error":false,"message":"ok","data":` + data + `}`))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// A sound answer larger than the proxy's bound is read whole and judged: a deployment listing
// many records is not failed for the suite's want of room (a body cut at 8 MiB failed ENV-1 as
// "not JSON"). One past the suite's own bound is marked partial, and its shape is not judged.
func TestLargeAnswersAreReadWholeOrMarkedPartial(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		size    int
		partial bool
	}{{9 << 20, false}, {maxAnswer, true}} {
		cl, err := NewClient(ctx, largeList(t, c.size), Config{Timeout: 30e9})
		if err != nil {
			t.Fatal(err)
		}
		ex, err := cl.Send(ctx, Request{Op: OpTagsList, Token: "member-token"})
		if err != nil {
			t.Fatal(err)
		}
		if ex.BodyPartial != c.partial || len(ex.Violations) > 0 {
			t.Errorf("a sound answer of %d MiB: partial %v, violations %v; want partial %v and none", c.size>>20, ex.BodyPartial, ex.Violations, c.partial)
		}
		if !c.partial && ex.JSON == nil {
			t.Errorf("a sound answer of %d MiB is not read as JSON: %v", c.size>>20, ex.JSONErr)
		}
		if c.partial && (ex.JSONErr == nil || !strings.Contains(ex.JSONErr.Error(), "MiB")) {
			t.Errorf("a partial answer says %v, want the bound it passed", ex.JSONErr)
		}
	}
}
