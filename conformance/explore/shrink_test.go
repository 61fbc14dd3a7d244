package explore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/explore"

	"github.com/opsapi/mocktoolkit/conformance/rules"
	"github.com/opsapi/mocktoolkit/internal/fulltest"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// plantBug breaks the reference only after three calls in order: a card is created, then a
// tag, then a comment on that card; from then on comments/list leaves one of that card's
// comments out. Each card is its own trigger, so every case starts clean on the same mock.
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
			// One comment goes missing, the page still adding up within itself (PAGE-1 holds):
			// only the count across calls shows it.
			if p, ok := data["pagination"].(map[string]any); ok {
				total, per := p["total"].(float64)-1, p["per_page"].(float64)
				p["total"], p["total_pages"] = total, math.Ceil(total/per)
				if list, _ := data["comments"].([]any); len(list) > 0 {
					data["comments"] = list[:len(list)-1]
				}
			}
		}
		mu.Unlock()
		out := rec.Body.Bytes()
		if body != nil {
			out, _ = json.Marshal(body)
		}
		writeRecorded(w, rec, out)
	})
}

// writeRecorded answers with rec's status and headers and body in place of rec's own body.
func writeRecorded(w http.ResponseWriter, rec *httptest.ResponseRecorder, body []byte) {
	for k, v := range rec.Header() {
		if k != "Content-Length" {
			w.Header()[k] = v
		}
	}
	w.WriteHeader(rec.Code)
	_, _ = w.Write(body)
}

// TestShrinksToThePlantedCalls finds the planted bug and shrinks the failing case, within a
// fixed number of replays, to the three calls that plant it and at most two more (plus the list
// reads that observe it), and prints them as a script that names those calls.
func TestShrinksToThePlantedCalls(t *testing.T) {
	fulltest.Require(t, "shrinking a planted bug over 300 cases")
	t.Parallel() // each serves its own mock
	c, m := serve(t, plantBug)
	res, err := explore.Run(context.Background(), c, m, explore.Options{Cases: 300, Seed: 1, ShrinkReplays: 150})
	if err != nil {
		t.Fatal(err)
	}
	f := res.Failure
	if f == nil {
		t.Fatalf("explore mode missed the planted bug in %d cases", res.Cases)
	}
	if f.Rule != rules.LIST1 {
		t.Fatalf("want %s, got:\n%s", rules.LIST1, f.Report())
	}
	var acts []string
	for _, call := range f.Calls {
		if !strings.HasSuffix(call.Op.ID, "List") {
			acts = append(acts, call.Op.ID)
		}
	}
	// Shrinking stops after a number of replays (not at a time), so the case is the same on any
	// machine: the three planted calls in order, and at most two calls more.
	want := []string{"cardsCreate", "tagsCreate", "commentsCreate"}
	if !inOrder(acts, want) || len(acts) > len(want)+2 {
		t.Fatalf("the shrunk case acts by %v, want %v in order and at most two calls more (%d cases, %s)\n%s\n%s", acts, want, res.Cases, res.Elapsed, f.Report(), f.Rapid)
	}
	script := f.Script()
	for _, s := range []string{conformance.OpCardsCreate.Path, conformance.OpTagsCreate.Path, conformance.OpCommentsCreate.Path, `"$card1"`, "$TOKEN", "BASE_URL"} {
		if !strings.Contains(script, s) {
			t.Errorf("the script lacks %q:\n%s", s, script)
		}
	}
	t.Logf("found by case %d; %d shrinking replays (%d calls, %s); shrunk to %d calls:\n%s", res.FoundAt, res.Replays, res.Calls, res.Elapsed, len(f.Calls), f.Report())
	t.Run("its Go spec compiles and fails", func(t *testing.T) { reproductionCompilesAndFails(t, f) })
}

// inOrder reports whether want is a subsequence of got.
func inOrder(got, want []string) bool {
	i := 0
	for _, g := range got {
		if i < len(want) && g == want[i] {
			i++
		}
	}
	return i == len(want)
}

// reproductionCompilesAndFails pastes the Go spec of the planted bug's shrunk case into a
// copy of the suite's test package, builds it, and runs it: it must fail against the mock with
// the planted bug and pass against the mock without it. The build takes a while, so it runs in
// the full loop.
func reproductionCompilesAndFails(t *testing.T, f *explore.Failure) {
	fulltest.Require(t, "building the suite with a pasted reproduction")
	dir := pasteIntoSuite(t, f.GoSpec())
	broken := httptest.NewServer(plantBug(newReference(t)))
	t.Cleanup(broken.Close)
	clean := httptest.NewServer(newReference(t))
	t.Cleanup(clean.Close)
	for _, target := range []struct {
		name, url string
		fail      bool
	}{{"the mock with the planted bug", broken.URL, true}, {"the mock", clean.URL, false}} {
		cmd := exec.Command("go", "test", "-v", "-count=1", "-run", "^TestConformance$", "./"+filepath.Base(dir),
			"-args", "-ginkgo.focus=explore regression", "-ginkgo.no-color")
		cmd.Dir = filepath.Dir(dir)
		cmd.Env = append(os.Environ(), "CONFORMANCE_BASE_URL="+target.url, "CONFORMANCE_PROFILE=")
		out, err := cmd.CombinedOutput()
		ran := strings.Contains(string(out), "Ran 1 of")
		if !ran || (err != nil) != target.fail {
			t.Errorf("against %s the reproduction ran %v and failed %v, want to run and fail %v:\n%s", target.name, ran, err != nil, target.fail, out)
		}
	}
}

// pasteIntoSuite copies the suite's test files into a new directory beside them (its name
// starts with _, so ./... leaves it out) with spec wrapped in a Describe, and returns it.
func pasteIntoSuite(t *testing.T, spec string) string {
	t.Helper()
	dir, err := os.MkdirTemp("..", "_regression")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	files, err := filepath.Glob(filepath.Join("..", "*_test.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no suite test files (%v)", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// Only the external test package is the suite; internal tests need the package's own
		// unexported names, which the copy does not have.
		if !bytes.Contains(b, []byte("\npackage conformance_test\n")) && !bytes.HasPrefix(b, []byte("package conformance_test\n")) {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	src := "package conformance_test\n\nimport (\n\t. \"github.com/onsi/ginkgo/v2\"\n\t. \"github.com/onsi/gomega\"\n\n\t. \"github.com/opsapi/mocktoolkit/conformance\"\n)\n\n" +
		"var _ = Describe(\"Pasted\", func() {\n" + spec + "})\n"
	if err := os.WriteFile(filepath.Join(dir, "regression_test.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// newReference is a fresh reference mock (a rate limit no run reaches).
func newReference(t *testing.T) http.Handler {
	t.Helper()
	mock, err := mockserver.New(mockserver.Config{RateLimit: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	return mock
}
