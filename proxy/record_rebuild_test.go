package proxy_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/proxy"
)

// rebuildRig is a recording proxy in front of the mock, as `mockserver proxy --upstream
// <mock><base> --record-scenario` runs it; world, when not "", is sent as X-Mock-World.
type rebuildRig struct {
	mock, url, world string
	rec              *proxy.ScenarioRecorder
	srv              *httptest.Server
}

func newRebuildRig(t *testing.T, base, world string) *rebuildRig {
	t.Helper()
	up := httptest.NewServer(newMock(t))
	t.Cleanup(up.Close)
	u, err := url.Parse(up.URL + base)
	if err != nil {
		t.Fatal(err)
	}
	p, err := proxy.New(proxy.Config{Upstream: u})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := proxy.NewScenarioRecorder(p)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(rec)
	t.Cleanup(srv.Close)
	return &rebuildRig{mock: up.URL, url: srv.URL, world: world, rec: rec, srv: srv}
}

// stop closes the proxy as a stop does, waiting for its exchanges: the recorder reads an answer
// after the client has it; then it writes the scenario.
func (g *rebuildRig) stop(t *testing.T) (string, []string) {
	t.Helper()
	g.srv.Close()
	return writeChecked(t, g.rec)
}

// send sends method to base+path with body, the rig's world named when world is true, and
// returns the status and body.
func (g *rebuildRig) send(t *testing.T, method, base, path, token, body string, world bool) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if world && g.world != "" {
		req.Header.Set("X-Mock-World", g.world)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}

// op sends an operation through the proxy and fails the test unless it succeeds.
func (g *rebuildRig) op(t *testing.T, path, token, body string) []byte {
	t.Helper()
	status, b := g.send(t, http.MethodPost, g.url, path, token, body, true)
	if status != http.StatusOK {
		t.Fatalf("%s through the proxy: %d %s", path, status, b)
	}
	return b
}

// login logs the member in through the proxy.
func (g *rebuildRig) login(t *testing.T) string {
	t.Helper()
	m := manifest().Users.Member
	var a struct {
		Data struct {
			Token string `json:"token"`
		} `json:"data"`
	}
	if err := json.Unmarshal(g.op(t, "/v1/authenticate", "", fmt.Sprintf(`{"email":%q,"password":%q}`, m.Email, m.Password)), &a); err != nil || a.Data.Token == "" {
		t.Fatalf("login: %v", err)
	}
	return a.Data.Token
}

// A recording starts over when the world it records is rebuilt: a group deleted before a reset
// is back after it, and a comment made before it is gone. The recording kept the delete and the
// comment, so the file left out the group (and its cards) the world held again, and held a
// comment the world no longer had; the log never said why. Whether the reset goes through the
// proxy, or straight to the mock (which the proxy learns from X-Mock-World-Build), with the
// world named by --upstream's path or by X-Mock-World, the file holds what the answers showed
// after the reset, and the log says the recording restarted there.
func TestRecordingRestartsAtItsWorldsRebuild(t *testing.T) {
	ops := "/services/operations/v1/operations/"
	for _, c := range []struct {
		name, base, world string
		throughProxy      bool
	}{
		{"reset through the proxy, world named by --upstream", "/__worlds/rr3", "", true},
		{"reset sent to the mock, world named by --upstream", "/__worlds/rr3", "", false},
		{"reset through the proxy, world named by X-Mock-World", "", "rr3", true},
		{"reset sent to the mock, world named by X-Mock-World", "", "rr3", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := newRebuildRig(t, c.base, c.world)
			group, card := manifest().Operations.GroupID, manifest().Operations.CardID
			token := g.login(t)
			g.op(t, ops+"cards/list", token, `{}`)
			g.op(t, ops+"comments/create", token, fmt.Sprintf(`{"card_id":%d,"comment":"Made before the reset"}`, card))
			g.op(t, ops+"groups/delete", token, fmt.Sprintf(`{"id":%d}`, group))

			reset, resetPath := g.url, "/__mock/reset"
			if !c.throughProxy {
				reset, resetPath = g.mock, "/__worlds/rr3/__mock/reset"
			}
			if status, b := g.send(t, http.MethodPost, reset, resetPath, "", `{}`, c.throughProxy); status != http.StatusOK {
				t.Fatalf("reset: %d %s", status, b)
			}
			token = g.login(t)
			var listed struct {
				Data struct {
					Cards []struct {
						ID      int64 `json:"id"`
						GroupID int64 `json:"group_id"`
					} `json:"cards"`
				} `json:"data"`
			}
			if err := json.Unmarshal(g.op(t, ops+"cards/list", token, `{}`), &listed); err != nil {
				t.Fatal(err)
			}
			var inGroup []int64
			for _, cd := range listed.Data.Cards {
				if cd.GroupID == group {
					inGroup = append(inGroup, cd.ID)
				}
			}
			if len(inGroup) == 0 {
				t.Fatalf("after the reset, cards/list shows no card of group %d", group)
			}

			file, notes := g.stop(t)
			for _, want := range []string{fmt.Sprintf("ref: group-%d", group), fmt.Sprintf("ref: card-%d", inGroup[0])} {
				if !strings.Contains(file, want) {
					t.Errorf("the file lacks %s, which the world holds again after its reset:\n%s", want, file)
				}
			}
			if strings.Contains(file, "Made before the reset") {
				t.Errorf("the file holds the comment made before the reset, which the reset removed:\n%s", file)
			}
			if n := noteWith(notes, "removed by a successful"); n != "" {
				t.Errorf("the log leaves out records for a delete the reset undid: %q", n)
			}
			if noteWith(notes, "the recording restarted at a rebuild of the world it records") == "" {
				t.Errorf("no note says the recording restarted at the world's rebuild: %q", notes)
			}
			if g.rec.Restarts() != 1 {
				t.Errorf("Restarts() = %d, want 1", g.rec.Restarts())
			}
		})
	}
}

// A reset of another world than the one recorded, through the proxy, leaves the recording as
// it was: the group deleted in the recorded world stays out of the file.
func TestRecordingKeepsItsRecordsAtAnotherWorldsReset(t *testing.T) {
	g := newRebuildRig(t, "", "rr3")
	ops := "/services/operations/v1/operations/"
	group := manifest().Operations.GroupID
	token := g.login(t)
	g.op(t, ops+"cards/list", token, `{}`)
	g.op(t, ops+"groups/delete", token, fmt.Sprintf(`{"id":%d}`, group))
	for _, path := range []string{"/__mock/reset", "/__worlds/other/__mock/reset"} { // the default world, then world other
		if status, b := g.send(t, http.MethodPost, g.url, path, "", `{}`, false); status != http.StatusOK {
			t.Fatalf("reset %s: %d %s", path, status, b)
		}
	}
	g.op(t, ops+"cards/list", token, `{}`)
	file, notes := g.stop(t)
	if strings.Contains(file, fmt.Sprintf("ref: group-%d", group)) {
		t.Errorf("the file holds group %d, deleted in the recorded world:\n%s", group, file)
	}
	if n := noteWith(notes, "restarted"); n != "" || g.rec.Restarts() != 0 {
		t.Errorf("the recording restarted at another world's reset (%d): %q", g.rec.Restarts(), n)
	}
}

// A deployment that answers 2xx to every path, /__mock/reset included, is not the mock: with
// no X-Mock-World-Build on that answer, nothing was rebuilt, and the recording keeps its records.
func TestRecordingIgnoresAResetTheMockDidNotMark(t *testing.T) {
	rec := recordExchanges(t, []exchange{
		{pathCards, `{}`, 200, ok(`"cards":[{"id":40,"title":"Kept","group_id":12}]`)},
		{"/__mock/reset", `{}`, 200, `{"ok":true}`},
	})
	file, _ := writeChecked(t, rec)
	if !strings.Contains(file, "Kept") || rec.Restarts() != 0 {
		t.Errorf("an unmarked 200 to /__mock/reset restarted the recording (%d):\n%s", rec.Restarts(), file)
	}
}
