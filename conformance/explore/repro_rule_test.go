package explore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/explore"
	"github.com/opsapi/mocktoolkit/conformance/rules"
	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/internal/fulltest"
)

// rewriteRemovedCart hands the cart of every successful domain-cart/remove answer to change,
// with the session token the removal named, and answers what change made of it.
func rewriteRemovedCart(h http.Handler, change func(token string, cart map[string]any)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != conformance.OpDomainCartRemove.Path {
			h.ServeHTTP(w, r)
			return
		}
		raw, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(raw))
		var req struct {
			Token string `json:"session_token"`
		}
		_ = json.Unmarshal(raw, &req)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		var v map[string]any
		if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &v) != nil {
			copyAnswer(w, rec)
			return
		}
		if cart, ok := v["data"].(map[string]any)["cart"].(map[string]any); ok {
			change(req.Token, cart)
		}
		body, _ := json.Marshal(v)
		writeRecorded(w, rec, body)
	})
}

// stuckItemCount answers every successful domain-cart/remove with item_count n, whatever the
// cart holds.
func stuckItemCount(n int) func(http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		return rewriteRemovedCart(h, func(_ string, cart map[string]any) { cart["item_count"] = n })
	}
}

// The reproduction of a broken property states the rule on the answers it receives, never a
// value the run saw: the CART-2 spec once ended in `BeNumerically("<", 99)` after a run against
// a cart stuck at 99, and passed against a cart stuck at 4; its script printed no item_count
// and exited 0 either way.
func TestCartReproductionComparesItsOwnAnswers(t *testing.T) {
	t.Parallel() // each serves its own mock
	c, m := serve(t, stuckItemCount(99))
	res, err := explore.Run(context.Background(), c, m, explore.Options{Cases: 200, Seed: 20261123, ShrinkReplays: 30})
	if err != nil {
		t.Fatal(err)
	}
	f := res.Failure
	if f == nil || f.Rule != rules.CART2 {
		t.Fatalf("explore mode did not find CART-2 on a cart stuck at item_count 99 in %d cases: %+v", res.Cases, f)
	}
	spec := f.GoSpec()
	if strings.Contains(spec, "99") {
		t.Errorf("the regression spec holds the item_count the run saw:\n%s", spec)
	}
	if !regexp.MustCompile(`Expect\(count\(ex\d+, "data\.cart\.item_count"\)\)\.To\(BeNumerically\("<", count\(ex\d+, "data\.cart\.item_count"\)\)`).MatchString(spec) {
		t.Errorf("the regression spec does not compare item_count with the cart's earlier answer:\n%s", spec)
	}
	script := f.Script()
	for _, s := range []string{"item_count", "broken "} {
		if !strings.Contains(script, s) {
			t.Errorf("the script lacks %q:\n%s", s, script)
		}
	}
	t.Run("its spec fails on a cart stuck at another count", func(t *testing.T) {
		fulltest.Require(t, "building the suite with a pasted reproduction")
		dir := pasteIntoSuite(t, spec)
		for _, target := range []struct {
			name string
			wrap func(http.Handler) http.Handler
			fail bool
		}{{"a cart stuck at item_count 4", stuckItemCount(4), true}, {"the reference", nil, false}} {
			h := newReference(t)
			if target.wrap != nil {
				h = target.wrap(h)
			}
			srv := httptest.NewServer(h)
			t.Cleanup(srv.Close)
			cmd := exec.Command("go", "test", "-v", "-count=1", "-run", "^TestConformance$", "./"+filepath.Base(dir),
				"-args", "-ginkgo.focus=explore regression", "-ginkgo.no-color")
			cmd.Dir = filepath.Dir(dir)
			cmd.Env = append(os.Environ(), "CONFORMANCE_BASE_URL="+srv.URL, "CONFORMANCE_PROFILE=")
			out, err := cmd.CombinedOutput()
			if ran := strings.Contains(string(out), "Ran 1 of"); !ran || (err != nil) != target.fail {
				t.Errorf("against %s the spec ran %v and failed %v, want to run and fail %v:\n%s", target.name, ran, err != nil, target.fail, out)
			}
		}
	})
	if _, err := exec.LookPath("jq"); err != nil {
		t.Skip("running the script needs jq")
	}
	t.Run("its script fails on a cart stuck at another count", func(t *testing.T) {
		code, out := runScript(t, script, stuckItemCount(4))
		if code != 1 || !strings.Contains(out, "item_count: 4 after call") {
			t.Errorf("the script exited %d, want 1, printing item_count:\n%s\n%s", code, out, script)
		}
	})
	t.Run("its script passes on the reference", func(t *testing.T) {
		if code, out := runScript(t, script, nil); code != 0 {
			t.Errorf("the script exited %d against the reference, want 0:\n%s\n%s", code, out, script)
		}
	})
}

// runScript runs a reproduction script with sh against a fresh reference mock wrapped by wrap
// (nil: as it is), its variables read from the mock's manifest; it returns the exit code and
// what the script printed.
func runScript(t *testing.T, script string, wrap func(http.Handler) http.Handler) (int, string) {
	t.Helper()
	h := newReference(t)
	if wrap != nil {
		h = wrap(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	cfg := conformance.Config{}
	m, err := cfg.LoadManifest(context.Background(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "BASE_URL="+srv.URL, "SETTLE_SECONDS=4")
	for _, v := range regexp.MustCompile(`: "\$\{(\w+):\?`).FindAllStringSubmatch(script, -1) {
		if v[1] == "BASE_URL" {
			continue
		}
		val, ok := scriptVar(t, srv.URL, m.Manifest, v[1])
		if !ok {
			t.Skipf("the test does not supply %s to the script:\n%s", v[1], script)
		}
		env = append(env, v[1]+"="+val)
	}
	cmd := exec.Command("sh", "-c", script)
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0, out.String()
	case errors.As(err, &exit):
		return exit.ExitCode(), out.String()
	}
	t.Fatalf("run the script: %v", err)
	return 0, ""
}

// scriptVar is the value of a reproduction's variable read from the deployment at base and its
// manifest: cart tokens, the tool key, the users' credentials, and their tokens (logged in).
func scriptVar(t *testing.T, base string, m fixtures.Manifest, name string) (string, bool) {
	t.Helper()
	users := map[string]fixtures.Credentials{"MEMBER": m.Users.Member, "SUPERADMIN": m.Users.Superadmin, "OUTSIDER": m.Users.Outsider}
	switch name {
	case "LOCKED_CART_TOKEN":
		return m.Domains.LockedCart.SessionToken, true
	case "TOOL_KEY":
		return m.Operations.ToolKey, true
	case "TOKEN":
		return login(t, base, m.Users.Member), true
	}
	for i, c := range m.Domains.Carts {
		if name == fmt.Sprintf("CART%d_TOKEN", i) {
			return c.SessionToken, true
		}
	}
	for u, c := range users {
		switch name {
		case u + "_TOKEN":
			return login(t, base, c), true
		case u + "_EMAIL":
			return c.Email, true
		case u + "_PASSWORD":
			return c.Password, true
		}
	}
	return "", false
}

// login authenticates c at base and returns the token.
func login(t *testing.T, base string, c fixtures.Credentials) string {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"email": c.Email, "password": c.Password})
	resp, err := http.Post(base+conformance.OpAuthenticate.Path, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v struct{ Data struct{ Token string } }
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil || v.Data.Token == "" {
		t.Fatalf("log in as %s: %d %v", c.Email, resp.StatusCode, err)
	}
	return v.Data.Token
}

// hideNewCards leaves out of every cards/list the cards created after its first answer.
func hideNewCards(h http.Handler) http.Handler {
	var (
		mu    sync.Mutex
		limit float64 = -1
	)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != conformance.OpCardsList.Path {
			h.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		var v struct {
			Data map[string]any `json:"data"`
		}
		var whole map[string]any
		if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &v) != nil || json.Unmarshal(rec.Body.Bytes(), &whole) != nil {
			copyAnswer(w, rec)
			return
		}
		cards, _ := v.Data["cards"].([]any)
		mu.Lock()
		if limit < 0 {
			for _, c := range cards {
				if id, _ := c.(map[string]any)["id"].(float64); id > limit {
					limit = id
				}
			}
		}
		kept := []any{}
		for _, c := range cards {
			if id, _ := c.(map[string]any)["id"].(float64); id <= limit {
				kept = append(kept, c)
			}
		}
		mu.Unlock()
		v.Data["cards"] = kept
		whole["data"] = v.Data
		body, _ := json.Marshal(whole)
		writeRecorded(w, rec, body)
	})
}

// The LIST-1 reproduction reads the counts and whether the create succeeded from its own
// answers: its script prints both counts and fails where the created card is never listed.
func TestListReproductionComparesItsOwnAnswers(t *testing.T) {
	t.Parallel() // each serves its own mock
	c, m := serve(t, hideNewCards)
	res, err := explore.Run(context.Background(), c, m, explore.Options{Cases: 200, Seed: 20261123, ShrinkReplays: 30, Settle: -1})
	if err != nil {
		t.Fatal(err)
	}
	f := res.Failure
	if f == nil || f.Rule != rules.LIST1 {
		t.Fatalf("explore mode did not find LIST-1 on a card list hiding new cards in %d cases: %+v", res.Cases, f)
	}
	spec := f.GoSpec()
	if !regexp.MustCompile(`if ex\d+\.Succeeded\(\) \{\s+want\+\+`).MatchString(spec) {
		t.Errorf("the regression spec does not read whether its create succeeded:\n%s", spec)
	}
	if _, err := exec.LookPath("jq"); err != nil {
		t.Skip("running the script needs jq")
	}
	script := f.Script()
	if code, out := runScript(t, script, hideNewCards); code != 1 || !strings.Contains(out, "data.cards: ") {
		t.Errorf("the script exited %d against a list hiding new cards, want 1, printing the counts:\n%s\n%s", code, out, script)
	}
	if code, out := runScript(t, script, nil); code != 0 {
		t.Errorf("the script exited %d against the reference, want 0:\n%s\n%s", code, out, script)
	}
	// A correct deployment whose list shows a write 1.5 s late (a replica) is not broken: the
	// script read the list once and called it broken, where explore waits.
	if code, out := runScript(t, script, lagCards(1500*time.Millisecond)); code != 0 {
		t.Errorf("the script exited %d against a list 1.5 s behind its writes, want 0:\n%s\n%s", code, out, script)
	}
	// The pasted spec charges the create, waits as the suite does, and runs alone.
	for _, want := range []string{"Serial, Contract(OpCardsCreate,", "cfg.Reaching(ctx, want,"} {
		if !strings.Contains(spec, want) {
			t.Errorf("the regression spec lacks %q:\n%s", want, spec)
		}
	}
	if f.Op() != conformance.OpCardsCreate.ID {
		t.Errorf("the failure is charged to %s, want the create", f.Op())
	}
}

// lagCards leaves out of every cards/list the cards created less than lag ago, as a read
// replica behind the writes would.
func lagCards(lag time.Duration) func(http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		var (
			mu      sync.Mutex
			created = map[float64]time.Time{}
		)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			var whole map[string]any
			if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &whole) != nil {
				copyAnswer(w, rec)
				return
			}
			data, _ := whole["data"].(map[string]any)
			mu.Lock()
			defer mu.Unlock()
			switch r.URL.Path {
			case conformance.OpCardsCreate.Path:
				if card, ok := data["card"].(map[string]any); ok {
					id, _ := card["id"].(float64)
					created[id] = time.Now()
				}
				copyAnswer(w, rec)
				return
			case conformance.OpCardsList.Path:
				cards, _ := data["cards"].([]any)
				kept := []any{}
				for _, c := range cards {
					id, _ := c.(map[string]any)["id"].(float64)
					if at, ok := created[id]; !ok || time.Since(at) >= lag {
						kept = append(kept, c)
					}
				}
				data["cards"] = kept
				body, _ := json.Marshal(whole)
				writeRecorded(w, rec, body)
				return
			}
			copyAnswer(w, rec)
		})
	}
}

// Every property judged across answers has a reproduction that judges it on its own answers:
// a script that exits 1 through broken, valid sh, and a spec that compiles in the suite.
func TestReproductionsAcrossAnswersStateTheRule(t *testing.T) {
	var specs strings.Builder
	for _, f := range explore.AcrossAnswers() {
		script, spec := f.Script(), f.GoSpec()
		if !strings.Contains(script, "broken ") || strings.Contains(script, "suite's checker, which this script does not repeat") {
			t.Errorf("%s: the script does not judge the property:\n%s", f.Rule, script)
		}
		if out, err := exec.Command("sh", "-n", "-c", script).CombinedOutput(); err != nil {
			t.Errorf("%s: the script is not valid sh: %v\n%s\n%s", f.Rule, err, out, script)
		}
		if !regexp.MustCompile(`(Expect|Reaching)\(.*ex\d+`).MatchString(spec) && !strings.Contains(spec, "accepted") {
			t.Errorf("%s: the spec compares no answers of its own:\n%s", f.Rule, spec)
		}
		specs.WriteString(spec)
	}
	t.Run("the specs compile in the suite", func(t *testing.T) {
		fulltest.Require(t, "building the suite with pasted reproductions")
		dir := pasteIntoSuite(t, specs.String())
		cmd := exec.Command("go", "vet", "./"+filepath.Base(dir))
		cmd.Dir = filepath.Dir(dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("the pasted specs do not build: %v\n%s\n%s", err, out, specs.String())
		}
	})
}

// A rule judged on a successful answer (the status a deprecation answers, the cart a removal
// leaves, a page's arithmetic, the status an update set) says nothing of a refusal: replayed
// against a deployment that refuses the call, the script cannot judge and exits 2, where it
// exited 1 calling the deployment broken (a correct deployment refusing a second deprecation
// failed the TRANS-3 script).
func TestReproductionsOnSuccessesDoNotJudgeRefusals(t *testing.T) {
	if _, err := exec.LookPath("jq"); err != nil {
		t.Skip("running the scripts needs jq")
	}
	for _, f := range explore.OnSuccesses() {
		t.Run(string(f.Rule), func(t *testing.T) {
			t.Parallel()
			if code, out := runScript(t, f.Script(), nil); code != 2 {
				t.Errorf("the script exited %d against a refusal, want 2 (cannot judge):\n%s\n%s", code, out, f.Script())
			}
		})
	}
}

// The report's list of shrunk calls says when a call sent its caller's token in a wrong form:
// "masterGroupsUpdate as the superadmin -> 401" read as a valid superadmin refused.
func TestReportNamesAWrongAuthorizationForm(t *testing.T) {
	rep := explore.WrongFormCall().Report()
	if !strings.Contains(rep, "as the superadmin (Authorization: the superadmin's token after the scheme twice)") {
		t.Errorf("the report does not say how the token was sent:\n%s", rep)
	}
}

// secondRemovalStuck answers each cart's second successful removal with the item_count of the
// first (the count stuck once), every other removal as it is.
func secondRemovalStuck(h http.Handler) http.Handler {
	var (
		mu   sync.Mutex
		seen = map[string]int{}
		last = map[string]any{}
	)
	return rewriteRemovedCart(h, func(token string, cart map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		if seen[token]++; seen[token] == 2 {
			cart["item_count"] = last[token]
		}
		last[token] = cart["item_count"]
	})
}

// A cart whose count sticks on its second removal only is caught: a case that spends a cart
// spends it whole, so the two removals are compared (they fell in different cases, and explore
// passed such a deployment over 300 cases).
func TestExploreCatchesACountStuckOnOneRemoval(t *testing.T) {
	t.Parallel() // each serves its own mock
	c, m := serve(t, secondRemovalStuck)
	res, err := explore.Run(context.Background(), c, m, explore.Options{Cases: 100, Seed: 11, ShrinkReplays: 30})
	if err != nil {
		t.Fatal(err)
	}
	if f := res.Failure; f == nil || f.Rule != rules.CART2 {
		t.Fatalf("explore mode did not find CART-2 on a count stuck on each cart's second removal in %d cases: %+v", res.Cases, f)
	}
}

// A report of a case that changes the target says the shrinker's replays changed it too: a
// reproduction of a deployment listing one tag per name held on a fresh deployment (the tag's
// name was new there) and broke on its second run, and nothing said why.
func TestReportSaysShrinkingChangedTheTarget(t *testing.T) {
	f := explore.AcrossAnswers()[0] // LIST-1: a card created between two lists
	if !strings.Contains(f.Report(), "shrinking replayed these calls against the target") {
		t.Errorf("the report of a case that creates does not say its replays changed the target:\n%s", f.Report())
	}
	if strings.Contains(explore.WrongFormCall().Report(), "shrinking replayed") {
		t.Error("the report of a case that changes nothing says its replays changed the target")
	}
}

// A target that closes a connection without answering breaks UP-1: explore says so, naming the
// operation, and stops without replaying (rapid called the case flaky, in its own words, with a
// command that does not run, after sending its replays to the target).
func TestExploreStopsOnARequestLeftUnanswered(t *testing.T) {
	t.Parallel() // each serves its own mock
	var n atomic.Int64
	dropFifth := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasPrefix(r.URL.Path, "/services/") && n.Add(1) == 5 {
				conn, _, err := http.NewResponseController(w).Hijack()
				if err == nil {
					_ = conn.Close()
				}
				return
			}
			h.ServeHTTP(w, r)
		})
	}
	c, m := serve(t, dropFifth)
	res, err := explore.Run(context.Background(), c, m, explore.Options{Cases: 50, Seed: 11, ShrinkReplays: 30})
	if err == nil || !strings.Contains(err.Error(), "UP-1") || !strings.Contains(err.Error(), "got no answer") || strings.Contains(err.Error(), "rapid") {
		t.Fatalf("explore against a connection closed without an answer: %v (failure %+v)", err, res.Failure)
	}
	if got := n.Load(); got > 6 {
		t.Errorf("explore sent %d API calls; it should stop at the one left unanswered (5), not replay", got)
	}
}
