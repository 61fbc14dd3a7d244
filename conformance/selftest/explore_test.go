package selftest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/explore"
	"github.com/opsapi/mocktoolkit/internal/fulltest"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// Explore mode's self-test runs package explore in process (no suite binary): a fixed seed, a
// few hundred cases per mock.
const (
	exploreSeed  = 20261122
	exploreCases = 300
)

// exploreMock serves the reference mock (a rate limit explore does not reach; variants that
// set their own still answer 429) wrapped by wrap, and runs explore mode against it. 429
// answers come back at once (no waiting): explore counts them as inconclusive.
func exploreMock(t *testing.T, cases int, wrap func(httpHandler) httpHandler) explore.Result {
	t.Helper()
	mock, err := mockserver.New(mockserver.Config{RateLimit: 1 << 30})
	if err != nil {
		t.Fatalf("mockserver.New: %v", err)
	}
	var h httpHandler = mock
	if wrap != nil {
		h = wrap(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	ctx := context.Background()
	cfg := conformance.Config{Timeout: 10 * time.Second}
	c, err := conformance.NewClient(ctx, srv.URL, cfg)
	if err != nil {
		t.Fatal(err)
	}
	m, err := cfg.LoadManifest(ctx, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	res, err := explore.Run(ctx, c, m.Manifest, explore.Options{Cases: cases, Seed: exploreSeed, ShrinkReplays: 200})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// exploreOnly are broken variants the fixed contract specs are not built to see: each breaks a
// rule only for values the fixed specs do not send, or only after a sequence of calls.
var exploreOnly = []variant{
	{"counts the thumbnail limit per entity, not per project", "§Limits: 5 requests per project per 10 minutes",
		thumbLimitPerEntity()},
}

// exploreFound are broken variants explore mode found first; fixed contract specs written since
// (SYNC-1, PAGE-1, and ERR-3 on a title of two-byte characters) catch them too, and explore
// mode must still catch each. (A cart keeping item_count from its second removal on, found
// first by explore too, is the self-test's CART-2 variant now: explore sees it only when one
// case makes a cart's first two removals, which its draws need not do.)
var exploreFound = []variant{
	{"adds the master board's cards again on every repeated sync", "§Endpoints 10: a sync adds the cards a project lacks",
		syncAddsAgain()},
	{"answers every comment on the page whatever per_page asks", "§Endpoints 2: per_page",
		allCommentsOnPage()},
	titleBytes,
}

// titleBytes counts a title's or a name's bytes against its 255 characters. Stateless, so the
// quick loop and the sweep may both run it.
var titleBytes = variant{"counts a title's bytes against its 255-character maximum", "§Limits: title / name max 255 characters",
	rewrite(nil, func(r *http.Request, req map[string]any, a *answer) {
		for _, f := range []string{"title", "name"} {
			if s, ok := req[f].(string); ok && len(s) > 255 && utf8.RuneCountInString(s) <= 255 && a.status < 300 {
				a.status = 422
				a.body = map[string]any{"message": "The " + f + " is too long.", "errors": map[string]any{f: []any{"The " + f + " is too long."}}}
			}
		}
	})}

// syncAddsAgain: from the second sync of a master board on, the member's cards/list shows one
// more card per repeated sync.
func syncAddsAgain() func(httpHandler) httpHandler {
	var (
		mu     sync.Mutex
		syncs  = map[float64]int{}
		extras int
	)
	return rewrite(nil, func(r *http.Request, req map[string]any, a *answer) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case r.URL.Path == conformance.OpMasterBoardsSync.Path && a.status == 200:
			b, _ := req["board_id"].(float64)
			if syncs[b]++; syncs[b] > 1 {
				extras++
			}
		case r.URL.Path == conformance.OpCardsList.Path && a.status == 200:
			cards, _ := a.data()["cards"].([]any)
			for i := 0; i < extras && len(cards) > 0; i++ {
				cards = append(cards, cards[0])
			}
			a.data()["cards"] = cards
		}
	})
}

// allCommentsOnPage answers comments/list with up to 100 comments a page, whatever per_page
// asks, and says in pagination the per_page that was asked.
func allCommentsOnPage() func(httpHandler) httpHandler {
	return func(h httpHandler) httpHandler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			raw, _ := io.ReadAll(r.Body)
			var req map[string]any
			_ = json.Unmarshal(raw, &req)
			asked, paged := req["per_page"].(float64)
			if r.URL.Path != conformance.OpCommentsList.Path || !paged || asked < 1 || asked > 100 {
				r.Body = io.NopCloser(bytes.NewReader(raw))
				h.ServeHTTP(w, r)
				return
			}
			req["per_page"], req["page"] = 100, 1
			raw, _ = json.Marshal(req)
			r.Body = io.NopCloser(bytes.NewReader(raw))
			r.ContentLength = int64(len(raw))
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			a := &answer{status: rec.Code, header: rec.Header().Clone()}
			_ = json.Unmarshal(rec.Body.Bytes(), &a.body)
			if p, ok := a.data()["pagination"].(map[string]any); ok {
				p["per_page"] = asked
			}
			writeAnswer(w, a, rec.Body.Bytes())
		})
	}
}

// thumbLimitPerEntity lets a regeneration through while its entity has had fewer than five
// accepted, whatever the project's count.
func thumbLimitPerEntity() func(httpHandler) httpHandler {
	return thumbLimitPer(func(_ *http.Request, req map[string]any) string { return fmt.Sprint(req["type"], req["entity_id"]) })
}

// thumbLimitPerUser lets a regeneration through while its caller (by bearer token) has had
// fewer than five accepted, whatever the project's count.
func thumbLimitPerUser() func(httpHandler) httpHandler {
	return thumbLimitPer(func(r *http.Request, _ map[string]any) string { return r.Header.Get("Authorization") })
}

// thumbLimitPer counts the thumbnail limit per key instead of per project: a 429 of the mock
// becomes a success while the request's key has had fewer than five accepted.
func thumbLimitPer(key func(r *http.Request, req map[string]any) string) func(httpHandler) httpHandler {
	var (
		mu       sync.Mutex
		accepted = map[string]int{}
	)
	return rewrite(op(conformance.OpThumbnailsRegenerate), func(r *http.Request, req map[string]any, a *answer) {
		k := key(r, req)
		mu.Lock()
		defer mu.Unlock()
		switch {
		case a.status == 200:
			accepted[k]++
		case a.status == 429 && accepted[k] < 5:
			accepted[k]++
			a.status = 200
			a.body = success(map[string]any{"preview_image": "https://thumbnails.example.invalid/p.png"})
			a.header.Del("Retry-After")
		}
	})
}

// TestExploreQuick is the quick loop's explore run (seconds): a fixed seed, 100 cases, against
// the reference mock, which must pass, and against one variant explore found first (a stateless
// one: the stateful ones keep their counts for the sweep), which it must catch.
func TestExploreQuick(t *testing.T) {
	if res := exploreMock(t, 100, nil); res.Failure != nil {
		t.Fatalf("explore mode fails the reference mock:\n%s", res.Failure.Report())
	} else {
		t.Logf("reference: %d cases, %d calls in %s", res.Cases, res.Calls, res.Elapsed)
	}
	v := titleBytes
	if res := exploreMock(t, 100, v.wrap); res.Failure == nil {
		t.Fatalf("explore mode misses a mock that %s", v.name)
	}
}

// TestExploreCatchesBreaks runs explore mode against every broken variant of the self-test and
// against the explore-only ones, and the fixed contract profile against the explore-only ones:
// explore must catch every explore-only variant, which the contract profile passes. Which
// variant explore catches, by which rule, is kept in ../testdata/explore.golden (-update).
func TestExploreCatchesBreaks(t *testing.T) {
	t.Parallel() // the sweeps wait on answers and windows more than they compute: they overlap
	fulltest.Require(t, "explore mode against every broken variant")
	all := append(append(append([]variant{}, variants...), exploreFound...), exploreOnly...)
	var (
		mu       sync.Mutex
		verdicts = map[string]string{}
		fixed    = map[string]bool{} // explore-only variant -> the contract profile caught it
	)
	budgets := exploreBudgets(t)
	t.Run("variants", func(t *testing.T) {
		for i, v := range all {
			found := i >= len(variants)                  // explore must catch it
			only := i >= len(variants)+len(exploreFound) // and the fixed profile must pass it
			t.Run(v.name, func(t *testing.T) {
				res := exploreMock(t, budgets.cases(v.name), v.wrap)
				verdict := "missed"
				if f := res.Failure; f != nil {
					verdict = fmt.Sprintf("caught: %s at case %d", f.Rule, res.FoundAt)
					t.Logf("%s: %s found by case %d, shrunk to %d calls (%d replays)\n%s", v.name, f.Rule, res.FoundAt, len(f.Calls), res.Replays, f.Report())
				}
				mu.Lock()
				verdicts[v.name] = verdict
				mu.Unlock()
				if found && res.Failure == nil {
					t.Errorf("explore mode misses a mock that %s (breaks %s)", v.name, v.rule)
				}
				if !only {
					return
				}
				_, ok, _ := runSuite(t, startMock(t, v.wrap), "-ginkgo.label-filter=contract")
				mu.Lock()
				fixed[v.name] = !ok
				mu.Unlock()
				if !ok {
					t.Errorf("the fixed contract profile catches a mock that %s: not an explore-only variant", v.name)
				}
			})
		}
	})

	var b strings.Builder
	fmt.Fprintf(&b, "# Explore mode (seed %d, %d cases) against the broken variants of the self-test\n", exploreSeed, exploreCases)
	fmt.Fprintf(&b, "# (regenerate: OPSAPI_FULL_TESTS=1 go test ./conformance/selftest -run TestExploreCatchesBreaks -update;\n")
	fmt.Fprintf(&b, "# without -update each caught variant runs up to the case that caught it, each missed one %d cases)\n", missedCases)
	b.WriteString("\n## The self-test's variants (every one is caught by the fixed contract specs: selftest.golden)\n")
	caught := 0
	for _, v := range variants {
		fmt.Fprintf(&b, "%s: %s\n", v.name, verdicts[v.name])
		if strings.HasPrefix(verdicts[v.name], "caught") {
			caught++
		}
	}
	fmt.Fprintf(&b, "explore mode catches %d of %d\n", caught, len(variants))
	b.WriteString("\n## Variants explore mode found first (fixed contract specs catch them too now)\n")
	for _, v := range exploreFound {
		fmt.Fprintf(&b, "%s (breaks %s): explore %s\n", v.name, v.rule, verdicts[v.name])
	}
	b.WriteString("\n## Variants only explore mode catches (the fixed contract profile passes them)\n")
	for _, v := range exploreOnly {
		profile := "passes"
		if fixed[v.name] {
			profile = "FAILS"
		}
		fmt.Fprintf(&b, "%s (breaks %s): explore %s; contract profile %s\n", v.name, v.rule, verdicts[v.name], profile)
	}
	t.Log("\n" + b.String())
	golden := filepath.Join("..", "testdata", "explore.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want, err := os.ReadFile(golden); err != nil || string(want) != b.String() {
		t.Errorf("explore mode's verdicts differ from %s (%v); review and regenerate with -update\n%s", golden, err, diffLines(string(want), b.String()))
	}
}

// missedCases is how many cases the full loop runs against a variant explore.golden records as
// missed (the fixed specs catch it): enough to notice explore mode catching it now.
const missedCases = 50

// exploreBudget is the number of cases each variant needs, read from explore.golden: the case
// that caught it ("caught: RULE at case N"), missedCases for one it missed, exploreCases for one
// it does not list. With -update every variant runs exploreCases, so the golden records what the
// whole budget finds; a variant no longer caught within its case changes the golden and fails.
type exploreBudget map[string]int

var caughtAtCase = regexp.MustCompile(`caught: \S+ at case (\d+)`)

func exploreBudgets(t *testing.T) exploreBudget {
	t.Helper()
	budget := exploreBudget{}
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "explore.golden"))
	if err != nil || *update {
		return budget
	}
	for _, v := range slices.Concat(variants, exploreFound, exploreOnly) {
		for _, line := range strings.Split(string(raw), "\n") {
			if !strings.HasPrefix(line, v.name+": ") && !strings.HasPrefix(line, v.name+" (breaks ") {
				continue
			}
			if m := caughtAtCase.FindStringSubmatch(line); m != nil {
				budget[v.name], _ = strconv.Atoi(m[1])
			} else if strings.Contains(line, "missed") {
				budget[v.name] = missedCases
			}
		}
	}
	return budget
}

func (b exploreBudget) cases(name string) int {
	if n, ok := b[name]; ok && n > 0 {
		return n
	}
	return exploreCases
}

// Cases of explore mode against a correct variant: a third of the sweep's (each variant changes
// hundreds of requests or answers within them), and a tenth of that against one that holds every
// answer (its hundreds of calls cost seconds each ten; it shows that slow answers are not
// judged, which a few cases show as well as many).
const (
	correctCases     = exploreCases / 3
	correctSlowCases = correctCases / 10
)

// TestExplorePassesCorrectVariants runs explore mode against every correct variant (other
// choices the interface permits): none may fail it.
func TestExplorePassesCorrectVariants(t *testing.T) {
	t.Parallel() // the sweeps wait on answers and windows more than they compute: they overlap
	fulltest.Require(t, "explore mode against every correct variant")
	for _, v := range corrects {
		t.Run(v.name, func(t *testing.T) {
			var changed atomic.Int64
			cases := correctCases
			if v.delay != nil {
				cases = correctSlowCases
			}
			res := exploreMock(t, cases, func(h httpHandler) httpHandler { return v.wrapCounting(h, &changed) })
			if res.Failure != nil {
				t.Errorf("explore mode fails a correct mock that %s (%s):\n%s", v.name, v.basis, res.Failure.Report())
			}
			t.Logf("%s: changed %d requests or answers; %d cases", v.name, changed.Load(), res.Cases)
		})
	}
}
