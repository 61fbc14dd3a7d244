package main

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// titles lists the "title" of the records under data.<key> of an answer.
func titles(answer map[string]any, key string) []string {
	data, _ := answer["data"].(map[string]any)
	list, _ := data[key].([]any)
	var out []string
	for _, e := range list {
		if rec, ok := e.(map[string]any); ok {
			s, _ := rec["title"].(string)
			if s == "" {
				s, _ = rec["comment"].(string)
			}
			out = append(out, s)
		}
	}
	return out
}

// A proxy with --record-scenario in front of a mock writes at stop a scenario; a mock started
// from it lists the boards, cards and comments the proxy saw, with e-mails replaced.
func TestProxyRecordsAScenarioTheMockStartsFrom(t *testing.T) {
	upstream, stopUpstream := startMock(t, "--scenario", filepath.Join("..", "..", "fixtures", "scenarios", "launch.yaml"))
	defer func() { _ = stopUpstream() }()
	file := filepath.Join(t.TempDir(), "staging.yaml")
	base, stop := startProxyCmd(t, nil, "--upstream", upstream, "--record-scenario", file)
	tok := loginMember(t, base)
	ops := base + "/services/operations/v1/operations/"
	boards := titles(postJSON(t, ops+"boards/list", tok, map[string]any{}), "boards")
	cards := postJSON(t, ops+"cards/list", tok, map[string]any{})
	created := postJSON(t, ops+"cards/create", tok, map[string]any{"title": "Recorded through the proxy"})
	card := created["data"].(map[string]any)["card"].(map[string]any)["id"]
	postJSON(t, ops+"comments/create", tok, map[string]any{"card_id": card, "comment": "Ask ann.lee@customer.example about it"})
	postJSON(t, ops+"comments/list", tok, map[string]any{"card_id": card})
	open := removeFirstItem(t, upstream, base)
	if len(boards) == 0 || len(titles(cards, "cards")) == 0 {
		t.Fatalf("the upstream showed no boards or cards: %v %v", boards, cards)
	}
	if err := stop(); err != nil {
		t.Fatalf("stop the proxy: %v", err)
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("no scenario written: %v", err)
	}
	if strings.Contains(string(raw), open.SessionToken) {
		t.Errorf("the scenario holds the cart's session token:\n%s", raw)
	}
	if strings.Contains(string(raw), "ann.lee@customer.example") || !strings.Contains(string(raw), "person-1@example.com") {
		t.Errorf("the e-mail in the comment is not replaced:\n%s", raw)
	}

	replay, stopReplay := startMock(t, "--scenario", file)
	defer func() { _ = stopReplay() }()
	rtok := loginMember(t, replay)
	rops := replay + "/services/operations/v1/operations/"
	got := strings.Join(titles(postJSON(t, rops+"boards/list", rtok, map[string]any{}), "boards"), "|")
	for _, b := range boards {
		if !strings.Contains(got, b) {
			t.Errorf("the mock from the recording lists boards %q, not %q the proxy saw\n%s", got, b, raw)
		}
	}
	replayed := postJSON(t, rops+"cards/list", rtok, map[string]any{})
	for _, c := range replayed["data"].(map[string]any)["cards"].([]any) {
		if rec := c.(map[string]any); rec["title"] == "Recorded through the proxy" && rec["id"] != card {
			t.Errorf("the recorded card has id %v in the new mock, want the upstream's %v (no collision)", rec["id"], card)
		}
	}
	checkRecordedCart(t, upstream, replay, len(open.ItemIDs)-1)
	gotCards := strings.Join(titles(replayed, "cards"), "|")
	for _, c := range append(titles(cards, "cards"), "Recorded through the proxy") {
		if !strings.Contains(gotCards, c) {
			t.Errorf("the mock from the recording lists cards %q, not %q", gotCards, c)
		}
	}
}

func getJSON(t *testing.T, url string, out any) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if err := json.NewDecoder(res.Body).Decode(out); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
}

// openCart is an open cart of the manifest.
type openCart struct {
	SessionToken string  `json:"session_token"`
	ItemIDs      []int64 `json:"item_ids"`
}

// removeFirstItem removes, through the proxy at base, the first item of the first open cart of
// the upstream's manifest, and returns that cart.
func removeFirstItem(t *testing.T, upstream, base string) openCart {
	t.Helper()
	var m struct {
		Domains struct {
			Carts []openCart `json:"carts"`
		} `json:"domains"`
	}
	getJSON(t, upstream+"/__mock/fixtures", &m)
	open := m.Domains.Carts[0]
	postJSON(t, base+"/services/domains/v1/domain-cart/remove", "", map[string]any{"session_token": open.SessionToken, "cart_item_id": open.ItemIDs[0]})
	return open
}

// checkRecordedCart checks that the mock at replay holds the upstream's carts plus the one the
// recording wrote, with items items.
func checkRecordedCart(t *testing.T, upstream, replay string, items int) {
	t.Helper()
	var before, after struct {
		Carts []struct {
			Items []any `json:"items"`
		} `json:"carts"`
	}
	getJSON(t, upstream+"/__mock/state", &before)
	getJSON(t, replay+"/__mock/state", &after)
	if len(after.Carts) != len(before.Carts)+1 || len(after.Carts[len(after.Carts)-1].Items) != items {
		t.Errorf("the mock from the recording has %d carts (upstream %d), want the recorded cart with %d items added", len(after.Carts), len(before.Carts), items)
	}
}

// A recording that cannot be written at stop (its folder removed while the proxy ran) does not
// cost the run its reports: both are written, and the error names the recording and why.
func TestProxyWritesItsReportsWhenTheRecordingFails(t *testing.T) {
	upstream, stopUpstream := startMock(t)
	defer func() { _ = stopUpstream() }()
	dir := t.TempDir()
	recDir := filepath.Join(dir, "rec")
	if err := os.Mkdir(recDir, 0o700); err != nil {
		t.Fatal(err)
	}
	jsonReport, junit := filepath.Join(dir, "report.json"), filepath.Join(dir, "junit.xml")
	base, stop := startProxyCmd(t, nil, "--upstream", upstream, "--record-scenario", filepath.Join(recDir, "s.yaml"), "--report-json", jsonReport, "--report-junit", junit)
	loginMember(t, base)
	if err := os.RemoveAll(recDir); err != nil {
		t.Fatal(err)
	}
	err := stop()
	if err == nil || !strings.Contains(err.Error(), "--record-scenario") || !strings.Contains(err.Error(), "not written") || !strings.Contains(err.Error(), "removed") || strings.Contains(err.Error(), ".mockserver-state-") {
		t.Errorf("stop: %v, want an error naming the recording and why", err)
	}
	for _, f := range []string{jsonReport, junit} {
		if fi, err := os.Stat(f); err != nil || fi.Size() == 0 {
			t.Errorf("report %s not written: %v", f, err)
		}
	}
}

// A proxy stopped before any answer showed a record leaves an existing scenario file as it was
// (a re-run that recorded nothing does not wipe yesterday's recording), through a link too;
// a recording that holds records replaces it, keeping its rights.
func TestProxyRecordingNothingKeepsTheFile(t *testing.T) {
	upstream, stopUpstream := startMock(t)
	defer func() { _ = stopUpstream() }()
	dir := t.TempDir()
	file := filepath.Join(dir, "kept.yaml")
	const earlier = "name: kept\nbase: empty\n"
	if err := os.WriteFile(file, []byte(earlier), 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.yaml")
	if err := os.Symlink("kept.yaml", link); err != nil {
		t.Fatal(err)
	}
	_, stop := startProxyCmd(t, nil, "--upstream", upstream, "--record-scenario", link)
	if err := stop(); err != nil {
		t.Fatalf("stop the proxy: %v", err)
	}
	if raw, _ := os.ReadFile(file); string(raw) != earlier {
		t.Errorf("a recording of nothing replaced the file:\n%s", raw)
	}
	base, stop := startProxyCmd(t, nil, "--upstream", upstream, "--record-scenario", link)
	postJSON(t, base+"/services/operations/v1/operations/boards/list", loginMember(t, base), map[string]any{})
	if err := stop(); err != nil {
		t.Fatalf("stop the proxy: %v", err)
	}
	fi, err := os.Lstat(file)
	if raw, _ := os.ReadFile(file); err != nil || string(raw) == earlier || fi.Mode().Perm() != 0o640 {
		t.Errorf("a recording of boards: file mode %v, content:\n%s\nwant the boards written, mode 0640", fi.Mode(), raw)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link is no longer a link")
	}
}
