package explore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/explore"
)

// plantBug breaks the reference only after three calls in order: a card is created, then a
// tag, then a comment on that card; from then on comments/list under-counts that card's
// comments by one. Each card is its own trigger, so every case starts clean on the same mock.
func plantBug(h http.Handler) http.Handler {
	var (
		mu    sync.Mutex
		stage = map[int64]int{} // card id -> 0 created, 1 a tag after it, 2 commented after that
	)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(raw))
		var req map[string]any
		_ = json.Unmarshal(raw, &req)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		var body map[string]any
		_ = json.Unmarshal(rec.Body.Bytes(), &body)
		data, _ := body["data"].(map[string]any)
		card, _ := req["card_id"].(float64)
		mu.Lock()
		switch {
		case rec.Code == 200 && r.URL.Path == conformance.OpCardsCreate.Path:
			if c, ok := data["card"].(map[string]any); ok {
				id, _ := c["id"].(float64)
				stage[int64(id)] = 0
			}
		case rec.Code == 200 && r.URL.Path == conformance.OpTagsCreate.Path:
			for id, s := range stage {
				if s == 0 {
					stage[id] = 1
				}
			}
		case rec.Code == 200 && r.URL.Path == conformance.OpCommentsCreate.Path:
			if s, ok := stage[int64(card)]; ok && s == 1 {
				stage[int64(card)] = 2
			}
		case rec.Code == 200 && r.URL.Path == conformance.OpCommentsList.Path && stage[int64(card)] == 2:
			if p, ok := data["pagination"].(map[string]any); ok {
				p["total"] = p["total"].(float64) - 1
			}
		}
		mu.Unlock()
		out := rec.Body.Bytes()
		if body != nil {
			out, _ = json.Marshal(body)
		}
		for k, v := range rec.Header() {
			if k != "Content-Length" {
				w.Header()[k] = v
			}
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(out)
	})
}

// TestShrinksToThePlantedCalls finds the planted bug and shrinks the failing case to the three
// calls that plant it (plus the list reads that observe it), and prints them as a script and a
// spec that name those calls.
func TestShrinksToThePlantedCalls(t *testing.T) {
	c, m := serve(t, plantBug)
	res, err := explore.Run(context.Background(), c, m, explore.Options{Cases: 300, Seed: 5, ShrinkTime: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	f := res.Failure
	if f == nil {
		t.Fatalf("explore mode missed the planted bug in %d cases", res.Cases)
	}
	if f.Rule != explore.RuleListCount {
		t.Fatalf("want %s, got:\n%s", explore.RuleListCount, f.Report())
	}
	var acts []string
	for _, call := range f.Calls {
		if !strings.HasSuffix(call.Op.ID, "List") {
			acts = append(acts, call.Op.ID)
		}
	}
	want := []string{"cardsCreate", "tagsCreate", "commentsCreate"}
	if strings.Join(acts, " ") != strings.Join(want, " ") {
		t.Fatalf("the shrunk case acts by %v, want exactly %v (%d cases, %s)\n%s\n%s", acts, want, res.Cases, res.Elapsed, f.Report(), f.Rapid)
	}
	script, spec := f.Script(), f.GoSpec()
	for _, s := range []string{conformance.OpCardsCreate.Path, conformance.OpTagsCreate.Path, conformance.OpCommentsCreate.Path, `"$card1"`, "$TOKEN", "BASE_URL"} {
		if !strings.Contains(script, s) {
			t.Errorf("the script lacks %q:\n%s", s, script)
		}
	}
	for _, s := range []string{"OpCardsCreate", "OpTagsCreate", "OpCommentsCreate", `card1, _ := `, `"card_id": card1`, "count(ex"} {
		if !strings.Contains(spec, s) {
			t.Errorf("the spec lacks %q:\n%s", s, spec)
		}
	}
	t.Logf("found by case %d; %d cases with the shrinking replays (%d calls, %s); shrunk to %d calls:\n%s", res.FoundAt, res.Cases, res.Calls, res.Elapsed, len(f.Calls), f.Report())
}
