package explore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/explore"
	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/internal/fulltest"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// TestDiffAgainstItself: the reference replayed against a fresh reference differs nowhere.
func TestDiffAgainstItself(t *testing.T) {
	t.Parallel() // each serves its own mock
	c, m := serve(t, nil)
	res, err := explore.Run(context.Background(), c, m, explore.Options{Cases: 40, Seed: 11, Diff: true, Reference: reference(t)})
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

// TestDiffReportsOutcomes: a target that refuses every comment it would keep with 404 breaks no property
// (404 is an answer the interface allows a create), but differential mode reports where its
// outcomes part from the reference's: the status class and the count the comment list follows.
func TestDiffReportsOutcomes(t *testing.T) {
	t.Parallel() // each serves its own mock
	c, m := serve(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != conformance.OpCommentsCreate.Path {
				h.ServeHTTP(w, r)
				return
			}
			// A body that breaks a field rule, or a token in a wrong form or not issued, keeps the
			// reference's answer (a validation error, a 401); every other comment is refused with 404.
			if f := strings.Fields(r.Header.Get("Authorization")); len(f) != 2 || f[0] != "Bearer" || f[1] == "Bearer" || !wellFormedComment(r) || !issued(h, r) {
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
	res, err := explore.Run(context.Background(), c, m, explore.Options{Cases: 60, Seed: 11, Diff: true, Reference: reference(t)})
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

// wellFormedComment reports whether r's body keeps the field rules of comment create (and puts
// the body back).
func wellFormedComment(r *http.Request) bool {
	raw, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(raw))
	var body map[string]any
	if json.Unmarshal(raw, &body) != nil {
		return false
	}
	card, isNum := body["card_id"].(float64)
	comment, isText := body["comment"].(string)
	parent, hasParent := body["parent_comment_id"]
	_, parentNum := parent.(float64)
	for k := range body {
		if k != "card_id" && k != "comment" && k != "parent_comment_id" {
			return false
		}
	}
	return isNum && card == float64(int64(card)) && isText && comment != "" && (!hasParent || parent == nil || parentNum)
}

// issued reports whether h knows r's bearer token: the comment list of no card, sent with it,
// is not answered 401.
func issued(h http.Handler, r *http.Request) bool {
	probe := httptest.NewRequest(http.MethodPost, conformance.OpCommentsList.Path, strings.NewReader(`{"card_id":1}`))
	probe.Header.Set("Content-Type", "application/json")
	probe.Header.Set("Authorization", r.Header.Get("Authorization"))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, probe)
	return w.Code != http.StatusUnauthorized
}

// reference is a fresh in-process reference mock for differential mode.
func reference(t *testing.T) http.Handler {
	t.Helper()
	mock, err := mockserver.New(mockserver.Config{RateLimit: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	return mock
}

// TestDiffTargetWithOtherFixtureCounts: a target whose manifest lists other carts than the
// reference's (six: the mock's three, each listed twice; one; none) is explored in differential
// mode without a crash: every value drawn from the target's manifest is resolved again in the
// reference's.
func TestDiffTargetWithOtherFixtureCounts(t *testing.T) {
	fulltest.Require(t, "differential replay against three cart counts")
	t.Parallel() // each serves its own mock
	for name, carts := range map[string]func([]fixtures.ManifestCart) []fixtures.ManifestCart{
		"six carts": func(c []fixtures.ManifestCart) []fixtures.ManifestCart { return append(c, c...) },
		"one cart":  func(c []fixtures.ManifestCart) []fixtures.ManifestCart { return c[:1] },
		"no cart":   func([]fixtures.ManifestCart) []fixtures.ManifestCart { return nil },
	} {
		t.Run(name, func(t *testing.T) {
			c, m := serve(t, nil)
			m.Domains.Carts = carts(m.Domains.Carts)
			res, err := explore.Run(context.Background(), c, m, explore.Options{Cases: 30, Seed: 7, Diff: true, Reference: reference(t)})
			if err != nil {
				t.Fatal(err)
			}
			if res.Failure != nil {
				t.Fatalf("the reference breaks a property:\n%s", res.Failure.Report())
			}
		})
	}
}
