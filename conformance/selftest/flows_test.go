package selftest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/fixtures"
)

// post sends body to base+path with token and returns the status and the decoded answer.
func post(t *testing.T, base, path, token string, body any) (int, map[string]any) {
	t.Helper()
	raw, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, base+path, bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out
}

// recordFrontendFlow makes a frontend's end-to-end run in a world of a fresh mock (log in,
// create a card, comment on it, list its comments, rename it, deprecate the unapproved theme
// version, remove the locked cart's item, list the cards, list tags with the wrong content
// type, create tags with a fraction for an integer and without a content type) and returns
// the world's flow, written to a file.
func recordFrontendFlow(t *testing.T) string {
	t.Helper()
	base := startMock(t, nil) + "/__worlds/frontend-e2e"
	res, err := http.Get(base + "/__mock/fixtures")
	if err != nil {
		t.Fatal(err)
	}
	var m fixtures.Manifest
	_ = json.NewDecoder(res.Body).Decode(&m)
	res.Body.Close()
	_, login := post(t, base, conformance.OpAuthenticate.Path, "", map[string]any{"email": m.Users.Member.Email, "password": m.Users.Member.Password})
	tok, _ := login["data"].(map[string]any)["token"].(string)
	_, created := post(t, base, conformance.OpCardsCreate.Path, tok, map[string]any{"title": "Order new toner", "group_id": m.Operations.GroupID})
	id := created["data"].(map[string]any)["card"].(map[string]any)["id"]
	post(t, base, conformance.OpCommentsCreate.Path, tok, map[string]any{"card_id": id, "comment": "Two cartridges"})
	post(t, base, conformance.OpCommentsList.Path, tok, map[string]any{"card_id": id})
	post(t, base, conformance.OpCardsUpdate.Path, tok, map[string]any{"id": id, "title": "Order new toner (urgent)"})
	post(t, base, conformance.OpThemeVersionsDeprecate.Path, tok, map[string]any{"version_id": m.Websites.UnapprovedVersionID})
	post(t, base, conformance.OpDomainCartRemove.Path, "", map[string]any{"session_token": m.Domains.LockedCart.SessionToken, "cart_item_id": m.Domains.LockedCart.ItemID})
	post(t, base, conformance.OpCardsList.Path, tok, map[string]any{}) // a step without a body
	// A request the frontend sent with the wrong content type: its header is in the flow and
	// replayed, so the replay is refused as the recording was.
	req, _ := http.NewRequest(http.MethodPost, base+conformance.OpTagsList.Path, strings.NewReader("{}"))
	req.Header.Set("Content-Type", "text/plain")
	req.Header.Set("Authorization", "Bearer "+tok)
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode < 400 {
		t.Fatalf("tags/list with text/plain: %v %v", res, err)
	} else {
		res.Body.Close()
	}
	// A position a hair off whole, refused as no integer: replayed as written, not as 1.
	if status, _ := post(t, base, conformance.OpTagsCreate.Path, tok, json.RawMessage(`{"name":"Hair","position":1.0000000000000000001}`)); status != 422 {
		t.Fatalf("tags/create with a fraction for position: %d", status)
	}
	// A body sent without a Content-Type: the replay sends none either.
	req, _ = http.NewRequest(http.MethodPost, base+conformance.OpTagsCreate.Path, strings.NewReader(`{"name":"Bare"}`))
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Del("Content-Type")
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != 400 {
		t.Fatalf("tags/create without a Content-Type: %v %v", res, err)
	} else {
		res.Body.Close()
	}
	res, err = http.Get(base + "/__mock/flow")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	path := filepath.Join(t.TempDir(), "frontend.json")
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// flowSpecs runs only the flow specs of the suite against base with CONFORMANCE_FLOWS=path.
func flowSpecs(t *testing.T, base, path string) []specResult {
	t.Helper()
	specs, _, out := runSuiteEnv(t, base, []string{conformance.EnvFlows + "=" + path}, "-ginkgo.label-filter="+conformance.LabelFlow)
	var ran []specResult
	for _, s := range specs {
		if !s.LeftOut {
			ran = append(ran, s)
		}
	}
	if len(ran) == 0 {
		t.Fatalf("no flow spec ran:\n%s", tail(out, 4000))
	}
	return ran
}

func correctVariant(t *testing.T, name string) correct {
	t.Helper()
	for _, c := range corrects {
		if strings.HasPrefix(c.name, name) {
			return c
		}
	}
	t.Fatalf("no correct variant %q", name)
	return correct{}
}

// A frontend's run recorded as a flow replays green against the mock and against correct
// implementations with other gap choices, and red against one that answers a step of it with
// another status.
func TestFlowReplaysGreenAgainstCorrectAndRedAgainstBroken(t *testing.T) {
	path := recordFrontendFlow(t)
	green := map[string]func(httpHandler) httpHandler{"the reference mock": nil}
	for _, name := range []string{"answers 201 to the creates", "refuses to deprecate a version that is not approved with 422", "answers untyped records as JSON-encoded strings"} {
		c := correctVariant(t, name)
		green[name] = func(h httpHandler) httpHandler { return c.wrapCounting(h, new(atomic.Int64)) }
	}
	for name, wrap := range green {
		t.Run("passes against "+name, func(t *testing.T) {
			t.Parallel()
			specs := flowSpecs(t, startMock(t, wrap), path)
			if len(specs) != 1 || specs[0].State != types.SpecStatePassed {
				t.Errorf("want one passing flow spec, got %+v", specs)
			}
		})
	}
	always := func(*http.Request, map[string]any) bool { return true }
	shapeA := func(msg string) map[string]any { return map[string]any{"error": true, "message": msg, "data": []any{}} }
	for _, b := range []struct {
		name, step, got string
		wrap            func(httpHandler) httpHandler
	}{
		{"answers the rename 404", "step 5", "404 (4xx)", fake(conformance.OpCardsUpdate, always, 404, shapeA("Card not found."))},
		{"answers the comment 403", "step 3", "403 (4xx)", fake(conformance.OpCommentsCreate, always, 403, shapeA("Forbidden."))},
		{"answers the comment without its envelope", "step 3", "", fake(conformance.OpCommentsCreate, always, 200, map[string]any{"comment": map[string]any{"id": 1}})},
		{"removes the locked cart's item", "step 7", "200 (2xx)", fake(conformance.OpDomainCartRemove, always, 200,
			success(map[string]any{"cart": map[string]any{"session_token": "x", "status": "open", "currency": "EUR", "total_price": 0, "item_count": 0, "is_claimed": false, "items": []any{}}}))},
	} {
		t.Run("fails against a deployment that "+b.name, func(t *testing.T) {
			t.Parallel()
			specs := flowSpecs(t, startMock(t, b.wrap), path)
			if len(specs) != 1 || !specs[0].State.Is(types.SpecStateFailureStates) {
				t.Fatalf("want one failing flow spec, got %+v", specs)
			}
			wants := []string{b.step + ":", "recorded answer: ", "outline", "the target answered " + b.got, "rule: a replayed step answers the status class its recording did"}
			if b.got == "" { // same class: the suite's answer checks refuse it, naming their rule
				wants = append(wants[:3], "breaks a rule every answer keeps", "ENV-1")
			}
			for _, want := range wants {
				if !strings.Contains(specs[0].Failure, want) {
					t.Errorf("the failure lacks %q:\n%s", want, specs[0].Failure)
				}
			}
		})
	}
}

// Bad flows fail their own spec with a message naming the file, the step and the cause.
func TestBadFlowsFailWithClearErrors(t *testing.T) {
	dir := t.TempDir()
	step := func(op, body string) string {
		return `{"flow":1,"name":"x","steps":[{"step":1,"operation":"` + op + `","as":"member","body":` + body + `,"answer":{"status":200,"outline":"null"}}]}`
	}
	for name, doc := range map[string]string{
		"malformed.json":  `{"flow":1,"steps":[`,
		"unknown-op.json": step("cardsDestroy", `{}`),
		"unbound.json":    step("themeVersionsDeprecate", `{"version_id":{"manifest":"websites.retired_version_id"}}`),
		// A name that would retitle the spec in a terminal or a CI view ("checkout FAIL ok").
		"bidi.json": strings.Replace(step("tagsList", `{}`), `"name":"x"`, `"name":"checkout \u202eLIAF\u202c ok \u001b[31m"`, 1),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	specs := flowSpecs(t, startMock(t, nil), dir)
	want := map[string]string{
		"malformed.json":  "not a flow document",
		"unknown-op.json": `step 1: unknown operation "cardsDestroy"`,
		"unbound.json":    `flow "x", step 1: field "version_id" refers to the manifest's "websites.retired_version_id", which the target's manifest does not have`,
	}
	if len(specs) != len(want)+1 {
		t.Fatalf("want %d flow specs, got %+v", len(want)+1, specs)
	}
	for _, s := range specs {
		if strings.Contains(s.Name, "bidi.json") && strings.ContainsAny(s.Name, "\u202e\u202c\x1b") {
			t.Errorf("the spec name holds the flow name's controls: %q", s.Name)
		}
		for file, msg := range want {
			if strings.Contains(s.Name, file) && (!s.State.Is(types.SpecStateFailureStates) || !strings.Contains(s.Failure, msg)) {
				t.Errorf("%s: state %v, failure %q; want a failure containing %q", file, s.State, s.Failure, msg)
			}
		}
	}
}
