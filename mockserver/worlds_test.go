package mockserver_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// raw is a goroutine-safe call for the worlds tests: it returns the status and the JSON body.
func raw(method, url, token string, body any) (int, map[string]any, error) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	var out map[string]any
	err = json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out, err
}

// worker runs one world's loop: reset, log in, write a tag, fault the tag list once, read it,
// count the calls. Every answer must be its own world's.
func worker(base, name, email, password string, rounds int) error {
	w := base + "/__worlds/" + name
	for round := range rounds {
		if st, _, err := raw("POST", w+"/__mock/reset", "", nil); err != nil || st != 200 {
			return fmt.Errorf("%s reset: %d %v", name, st, err)
		}
		st, login, err := raw("POST", w+pAuthenticate, "", map[string]any{"email": email, "password": password})
		if err != nil || st != 200 {
			return fmt.Errorf("%s login: %d %v", name, st, err)
		}
		token := login["data"].(map[string]any)["token"].(string)
		tag := fmt.Sprintf("tag-%s-%d", name, round)
		if st, _, err := raw("POST", w+"/services/operations/v1/operations/tags/create", token, map[string]any{"name": tag}); err != nil || st != 200 {
			return fmt.Errorf("%s tag create: %d %v", name, st, err)
		}
		if st, _, err := raw("POST", w+"/__mock/faults", "", map[string]any{"operation": "tagsList", "status": 500, "times": 1}); err != nil || st != 201 {
			return fmt.Errorf("%s fault: %d %v", name, st, err)
		}
		if st, _, _ := raw("POST", w+pTagsList, token, nil); st != 500 {
			return fmt.Errorf("%s: faulted tags/list answered %d, want 500", name, st)
		}
		st, list, err := raw("POST", w+pTagsList, token, nil)
		if err != nil || st != 200 {
			return fmt.Errorf("%s tags/list: %d %v (another world's reset?)", name, st, err)
		}
		mine := 0
		for _, t := range list["data"].(map[string]any)["tags"].([]any) {
			n := t.(map[string]any)["name"].(string)
			if strings.HasPrefix(n, "tag-") && n != tag {
				return fmt.Errorf("%s sees tag %q of another world or round", name, n)
			}
			if n == tag {
				mine++
			}
		}
		if mine != 1 {
			return fmt.Errorf("%s: its tag %q seen %d times", name, tag, mine)
		}
		_, count, _ := raw("GET", w+"/__mock/requests/count?operation=tagsList", "", nil)
		if count["count"] != float64(2) {
			return fmt.Errorf("%s: tagsList count %v, want 2", name, count["count"])
		}
		if st, _, _ := raw("POST", base+pTagsList, token, nil); st != 401 {
			return fmt.Errorf("%s: its token in the default world answered %d, want 401", name, st)
		}
	}
	return nil
}

// Eight workers, each resetting, faulting and writing its own world in a loop, never see one
// another (D100). Run with -race.
func TestWorldsIsolateParallelWorkers(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	member := m.manifest.Users.Member
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- worker(m.url, fmt.Sprintf("w%d", i), member.Email, member.Password, 4)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	a := m.ctl(http.MethodGet, "/__mock/worlds", nil).wantStatus(t, 200)
	if got := len(a.list(t, "worlds")); got != 9 {
		t.Errorf("%d worlds listed, want the default and 8 named", got)
	}
}

// A world is named by path prefix or header; bad names and a prefix that disagrees with the
// header answer 400 shape (a).
func TestWorldNames(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	tok := m.login(m.manifest.Users.Member)
	m.ctl(http.MethodPost, pTagsList, nil, "Authorization", "Bearer "+tok, mockserver.WorldHeader, "other").wantStatus(t, 401)
	m.ctl(http.MethodPost, pTagsList, nil, "Authorization", "Bearer "+tok, mockserver.WorldHeader, "default").wantStatus(t, 200)
	for _, path := range []string{"/__worlds/bad%20name/__mock/clock", "/__worlds/" + strings.Repeat("x", 65) + "/__mock/clock", "/__worlds//__mock/clock", "/__worlds/-x/__mock/clock",
		"/__worlds/DEFAULT/__mock/clock", "/__worlds/Default/__mock/clock"} { // not the default world, nor a second one taken for it
		a := m.ctl(http.MethodGet, path, nil).wantStatus(t, 400)
		a.wantShape(t, "a")
	}
	m.ctl(http.MethodGet, "/__worlds/a/__mock/clock", nil, mockserver.WorldHeader, "b").wantStatus(t, 400)
	m.ctl(http.MethodGet, "/__worlds/a/__mock/clock", nil, mockserver.WorldHeader, "a").wantStatus(t, 200)
}

// Past --max-worlds the least recently used named world goes; with named worlds off, a named
// world answers 400.
func TestWorldsAreBounded(t *testing.T) {
	m := newMock(t, mockserver.Config{MaxWorlds: 2})
	for _, n := range []string{"a", "b", "c"} {
		m.ctl(http.MethodGet, "/__worlds/"+n+"/__mock/clock", nil).wantStatus(t, 200)
		time.Sleep(2 * time.Millisecond)
	}
	names := []string{}
	for _, w := range m.ctl(http.MethodGet, "/__mock/worlds", nil).wantStatus(t, 200).list(t, "worlds") {
		names = append(names, w["name"].(string))
	}
	if strings.Join(names, ",") != "default,b,c" {
		t.Errorf("worlds %v, want default,b,c", names)
	}
	off := newMock(t, mockserver.Config{MaxWorlds: -1})
	off.ctl(http.MethodGet, "/__worlds/a/__mock/clock", nil).wantStatus(t, 400).wantShape(t, "a")
	if got := off.ctl(http.MethodGet, "/__mock/worlds", nil).field("max_worlds"); got != 0.0 {
		t.Errorf("worlds turned off (--max-worlds 0): max_worlds %v, want 0 as the flag says", got)
	}
}

// A page of another site may make a world while there is room, but never pushes out another:
// when --max-worlds are held, its call answers 503 and every world stays.
func TestCrossSiteCallsNeverEvict(t *testing.T) {
	m := newMock(t, mockserver.Config{MaxWorlds: 2})
	for _, n := range []string{"a", "b"} {
		m.ctl(http.MethodGet, "/__worlds/"+n+"/__mock/clock", nil).wantStatus(t, 200)
	}
	st, body := send(t, "POST", m.url+"/__worlds/evil1"+pAuthenticate, "", `{}`, "Content-Type", "application/json",
		"Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "cors")
	if st != http.StatusServiceUnavailable {
		t.Errorf("a cross-site call for a new world with the registry full: %d %s, want 503", st, body)
	}
	names := []string{}
	for _, w := range m.ctl(http.MethodGet, "/__mock/worlds", nil).wantStatus(t, 200).list(t, "worlds") {
		names = append(names, w["name"].(string))
	}
	if strings.Join(names, ",") != "default,a,b" {
		t.Errorf("worlds %v, want default,a,b: a cross-site call pushed one out", names)
	}
}

// Clocks, fault rules and the journal are per world; Go tests reach a world through World.
func TestWorldSteeringIsPerWorld(t *testing.T) {
	s, err := mockserver.New(mockserver.Config{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	w, err := s.World("w1")
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Advance(time.Hour); err != nil {
		t.Fatal(err)
	}
	if d := w.Now().Sub(s.Now()); d < 59*time.Minute {
		t.Errorf("w1's clock is %v ahead of the default world, want an hour", d)
	}
	at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	w.Freeze(true)
	if err := w.SetClock(at); err != nil {
		t.Fatal(err)
	}
	time.Sleep(10 * time.Millisecond)
	if !w.Now().Equal(at) {
		t.Errorf("frozen clock reads %v, want %v", w.Now(), at)
	}
	if _, err := s.World("no good"); err == nil {
		t.Error("a bad name made a world")
	}
}

// A reset names a scenario; the manifest and the worlds list describe the world loaded, also
// after a snapshot (D101, D102).
func TestScenariosAndManifest(t *testing.T) {
	f, err := fixtures.LoadScenarioFile("../fixtures/scenarios/launch.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m := newMock(t, mockserver.Config{Scenarios: map[string]*fixtures.ScenarioFile{f.Name: f}})
	m.ctl(http.MethodPost, "/__worlds/s/__mock/reset", map[string]any{"scenario": "nope"}).wantStatus(t, 422).wantFieldError(t, "scenario")
	a := m.ctl(http.MethodPost, "/__worlds/s/__mock/reset", map[string]any{"scenario": "empty"}).wantStatus(t, 200)
	if a.field("scenario") != "empty" {
		t.Errorf("reset answered scenario %v", a.field("scenario"))
	}
	man := m.ctl(http.MethodGet, "/__worlds/s/__mock/fixtures", nil).wantStatus(t, 200)
	if ops := man.body["operations"].(map[string]any); ops["card_id"] != float64(0) {
		t.Errorf("the empty world's manifest names card %v", ops["card_id"])
	}
	m.ctl(http.MethodPost, "/__worlds/s/__mock/reset", map[string]any{"scenario": "launch"}).wantStatus(t, 200)

	st := m.ctl(http.MethodGet, "/__mock/state", nil).wantStatus(t, 200)
	var cards []any
	for _, c := range st.body["cards"].([]any) {
		if c.(map[string]any)["id"] != float64(m.manifest.Operations.CardID) {
			cards = append(cards, c)
		}
	}
	var comments []any
	for _, c := range st.body["comments"].([]any) {
		if c.(map[string]any)["card_id"] != float64(m.manifest.Operations.CardID) {
			comments = append(comments, c)
		}
	}
	st.body["cards"], st.body["comments"] = cards, comments
	m.ctl(http.MethodPut, "/__mock/state", st.body).wantStatus(t, 200)
	man = m.ctl(http.MethodGet, "/__mock/fixtures", nil).wantStatus(t, 200)
	if ops := man.body["operations"].(map[string]any); ops["card_id"] != float64(0) {
		t.Errorf("after the snapshot the manifest still names card %v", ops["card_id"])
	}
	worlds := m.ctl(http.MethodGet, "/__mock/worlds", nil).wantStatus(t, 200).list(t, "worlds")
	notes := fmt.Sprint(worlds[0]["notes"])
	if worlds[0]["snapshot"] != true || !strings.Contains(notes, "operations.card_id") {
		t.Errorf("default world after a snapshot: %v", worlds[0])
	}
	if worlds[1]["scenario"] != "launch" {
		t.Errorf("world s: %v", worlds[1])
	}
}

// POST /__mock/clock sets, freezes and advances one world's clock; wrong values answer 422
// and leave it as it was (D104).
func TestClockSetAndFreeze(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	w := "/__worlds/clock"
	a := m.ctl(http.MethodPost, w+"/__mock/clock", map[string]any{"set": "2025-01-02T03:04:05Z", "freeze": true}).wantStatus(t, 200)
	if a.field("now") != "2025-01-02T03:04:05Z" || a.field("frozen") != true {
		t.Errorf("set and freeze: %s", a.raw)
	}
	time.Sleep(1100 * time.Millisecond)
	if got := m.ctl(http.MethodGet, w+"/__mock/clock", nil).field("now"); got != "2025-01-02T03:04:05Z" {
		t.Errorf("a frozen clock moved to %v", got)
	}
	a = m.ctl(http.MethodPost, w+"/__mock/clock", map[string]any{"advance_seconds": 60}).wantStatus(t, 200)
	if a.field("now") != "2025-01-02T03:05:05Z" {
		t.Errorf("advance while frozen: %v", a.field("now"))
	}
	for _, body := range []map[string]any{
		{"set": "yesterday"}, {"set": "9999-06-01T00:00:00Z"}, {"advance_seconds": -1}, {},
		{"set": "2030-01-01T00:00:00Z", "advance_seconds": -5},
	} {
		m.ctl(http.MethodPost, w+"/__mock/clock", body).wantStatus(t, 422)
	}
	if got := m.ctl(http.MethodGet, w+"/__mock/clock", nil).field("now"); got != "2025-01-02T03:05:05Z" {
		t.Errorf("a refused change moved the clock to %v", got)
	}
	if got := m.ctl(http.MethodGet, "/__mock/clock", nil).field("now"); got == "2025-01-02T03:05:05Z" {
		t.Error("the default world's clock followed another world's")
	}
}

// The busy and edge worlds serve every operation as the default one does, their answers
// checked against the spec (D101): a scenario never makes the mock answer what the interface
// forbids.
func TestEveryOperationSucceedsInBusyAndEdgeWorlds(t *testing.T) {
	for _, scenario := range []string{"busy", "edge"} {
		t.Run(scenario, func(t *testing.T) {
			m := newMock(t, mockserver.Config{Scenario: scenario})
			member, admin := m.login(m.manifest.Users.Member), m.login(m.manifest.Users.Superadmin)
			for _, list := range []string{pCardsList, pTagsList, pBoardsList} {
				m.post(list, member, nil).wantStatus(t, 200)
			}
			m.post(pCommentsList, member, map[string]any{"card_id": m.manifest.Operations.CardID, "per_page": 100, "page": 15}).wantStatus(t, 200)
			for _, c := range validCalls(m.manifest) {
				token := member
				if c.superadmin {
					token = admin
				} else if c.public {
					token = ""
				}
				m.post(c.path, token, c.body).wantStatus(t, c.status)
			}
		})
	}
}

// DELETE /__mock/worlds?name= forgets a named world; the default one is reset, never forgotten (D100).
func TestDeleteWorld(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	m.ctl(http.MethodGet, "/__worlds/gone/__mock/clock", nil).wantStatus(t, 200)
	m.ctl(http.MethodDelete, "/__mock/worlds?name=gone", nil).wantStatus(t, 200)
	m.ctl(http.MethodDelete, "/__mock/worlds?name=gone", nil).wantStatus(t, 404).wantShape(t, "a")
	// A read of the deleted world says it was deleted (it said: never made, or dropped to make
	// room, neither of which was so).
	if a := m.ctl(http.MethodGet, "/__worlds/gone/__mock/requests", nil).wantStatus(t, 404); !strings.Contains(string(a.raw), "was deleted at") {
		t.Errorf("a read of a deleted world: %s", a.raw)
	}
	m.ctl(http.MethodDelete, "/__mock/worlds?name=default", nil).wantStatus(t, 200)
	m.ctl(http.MethodDelete, "/__mock/worlds", nil).wantStatus(t, 422)
	if n := len(m.ctl(http.MethodGet, "/__mock/worlds", nil).list(t, "worlds")); n != 1 {
		t.Errorf("%d worlds after the delete, want 1", n)
	}
}

// A handle follows its world's name, as the endpoints under /__worlds/<name>/ do: once the world
// is dropped to make room, or deleted, the handle's next call acts on the world of that name
// (made again), not on the one no request reaches any more (its resets and clock moves answered
// nil and changed nothing a client saw).
func TestWorldHandleFollowsItsName(t *testing.T) {
	srv, err := mockserver.New(mockserver.Config{Seed: 7, MaxWorlds: 2})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	get := func(path string) map[string]any {
		t.Helper()
		res, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var body map[string]any
		_ = json.NewDecoder(res.Body).Decode(&body)
		return body
	}
	w, err := srv.World("w1")
	if err != nil {
		t.Fatal(err)
	}
	for _, gone := range []func(){
		func() { get("/__worlds/w2/__mock/fixtures"); get("/__worlds/w3/__mock/fixtures") }, // w1 dropped (least recently used)
		func() {
			req, _ := http.NewRequest(http.MethodDelete, ts.URL+"/__mock/worlds?name=w1", nil)
			if res, err := http.DefaultClient.Do(req); err == nil {
				res.Body.Close()
			}
		},
	} {
		gone()
		if err := w.Reset(3); err != nil {
			t.Fatal(err)
		}
		at := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
		if err := w.SetClock(at); err != nil {
			t.Fatal(err)
		}
		if seed := get("/__worlds/w1/__mock/fixtures")["seed"]; seed != float64(3) {
			t.Errorf("after the handle's Reset(3): the world w1 serves seed %v", seed)
		}
		if now := get("/__worlds/w1/__mock/clock")["now"]; now != at.Format(time.RFC3339) {
			t.Errorf("after the handle's SetClock(%s): the world w1's clock reads %v", at, now)
		}
		if w.Manifest().Seed != 3 || !w.Now().Equal(at.Truncate(time.Second)) && w.Now().Before(at) {
			t.Errorf("the handle reads seed %d, clock %s", w.Manifest().Seed, w.Now())
		}
	}
}

// A world's requests count the calls made in it, not what is the same in every world (health
// checks, the OpenAPI document, the list of worlds): a container's health check every five
// seconds made the default world look busy, and the same paths counted in no named world.
func TestWorldRequestsLeaveOutServerWideCalls(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	count := func(name string) float64 {
		t.Helper()
		for _, w := range m.ctl(http.MethodGet, "/__mock/worlds", nil).wantStatus(t, 200).list(t, "worlds") {
			if w["name"] == name {
				return w["requests"].(float64)
			}
		}
		t.Fatalf("no world %q", name)
		return 0
	}
	m.ctl(http.MethodPost, "/__worlds/pf/__mock/reset", nil).wantStatus(t, 200)
	for _, prefix := range []string{"", "/__worlds/pf"} {
		name := map[string]string{"": "default", "/__worlds/pf": "pf"}[prefix]
		before := count(name)
		for _, path := range []string{"/healthz", "/openapi.json", "/openapi.yaml", "/__mock/worlds"} {
			m.ctl(http.MethodGet, prefix+path, nil)
		}
		if after := count(name); after != before {
			t.Errorf("world %s: %v requests before health checks and the OpenAPI document, %v after", name, before, after)
		}
		m.ctl(http.MethodGet, prefix+"/__mock/clock", nil).wantStatus(t, 200)
		if after := count(name); after != before+1 {
			t.Errorf("world %s: %v requests before a call of its own, %v after, want one more", name, before, after)
		}
	}
}
