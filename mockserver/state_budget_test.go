package mockserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

const cardsCreate = "/services/operations/v1/operations/cards/create"

// A client writing large cards cannot grow the mock past --max-state-mb (D206): the least
// recently used idle worlds go first, then a write is refused with 400 shape (a) naming the
// flag while reads, the snapshot and the other controls keep working; deleting the world gives
// the room back.
func TestStateBudgetBoundsWritesAcrossWorlds(t *testing.T) {
	m := newMock(t, mockserver.Config{MaxStateMB: 2})
	for _, w := range []string{"idle1", "idle2"} {
		m.ctl(http.MethodGet, "/__worlds/"+w+"/__mock/clock", nil).wantStatus(t, http.StatusOK)
	}
	p := "/__worlds/writer"
	wtok := m.post(p+"/v1/authenticate", "", map[string]any{"email": m.manifest.Users.Member.Email, "password": m.manifest.Users.Member.Password}).wantStatus(t, http.StatusOK).data()["token"].(string)
	desc := strings.Repeat("x", 200<<10)
	var refused answer
	created := 0
	for range 40 {
		a := m.post(p+cardsCreate, wtok, map[string]any{"title": "Big", "group_id": m.manifest.Operations.GroupID, "description": desc})
		if a.status != http.StatusOK {
			refused = a
			break
		}
		created++
	}
	if refused.status != http.StatusBadRequest || !strings.Contains(string(refused.raw), "--max-state-mb 2") {
		t.Fatalf("after %d cards of 200 KiB under --max-state-mb 2: %d %s; want 400 naming --max-state-mb", created, refused.status, refused.raw)
	}
	refused.wantShape(t, "a")
	if created < 5 || created > 10 {
		t.Fatalf("%d cards of 200 KiB fit under 2 MiB, want 5 to 10 (the seeded worlds hold about 64 KiB each)", created)
	}
	// The least recently used idle world went for a write that then fitted; one too small to
	// make room for the refused write stays (nothing is dropped for a change bound to fail).
	if names := m.worldNames(t); strings.Contains(names, "idle1") || !strings.Contains(names, "writer") {
		t.Fatalf("worlds %s, want idle1 dropped before a write is refused", names)
	}
	m.post(p+"/services/operations/v1/operations/cards/list", wtok, map[string]any{}).wantStatus(t, http.StatusOK)
	m.login(m.manifest.Users.Member) // a login (a token) is let through a full mock: nobody is locked out
	m.ctl(http.MethodGet, p+"/__mock/state", nil).wantStatus(t, http.StatusOK)
	m.ctl(http.MethodDelete, "/__mock/worlds?name=writer", nil).wantStatus(t, http.StatusOK)
	again := m.post("/__worlds/next/v1/authenticate", "", map[string]any{"email": m.manifest.Users.Member.Email, "password": m.manifest.Users.Member.Password}).wantStatus(t, http.StatusOK).data()["token"].(string)
	m.post("/__worlds/next"+cardsCreate, again, map[string]any{"title": "Big", "group_id": m.manifest.Operations.GroupID, "description": desc}).wantStatus(t, http.StatusOK)
}

// A snapshot or a reset that would pass --max-state-mb is refused and the world stays as it
// was (D206); so is a start whose scenario alone passes it.
func TestStateBudgetRefusesSnapshotResetAndStart(t *testing.T) {
	m := newMock(t, mockserver.Config{MaxStateMB: 1})
	snap := m.ctl(http.MethodGet, "/__mock/state", nil).wantStatus(t, http.StatusOK).body
	cards := snap["cards"].([]any)
	cards[0].(map[string]any)["description"] = strings.Repeat("y", 2<<20)
	a := m.ctl(http.MethodPut, "/__mock/state", snap).wantStatus(t, http.StatusRequestEntityTooLarge)
	a.wantShape(t, "a")
	if !strings.Contains(string(a.raw), "--max-state-mb 1") || !strings.Contains(string(a.raw), "unchanged") {
		t.Fatalf("snapshot past the bound: %s", a.raw)
	}
	a = m.ctl(http.MethodPost, "/__mock/reset", map[string]any{"scenario": "busy"}).wantStatus(t, http.StatusServiceUnavailable)
	a.wantShape(t, "a")
	if !strings.Contains(string(a.raw), "busy") || !strings.Contains(string(a.raw), "--max-state-mb 1") {
		t.Fatalf("reset past the bound: %s", a.raw)
	}
	// The scenario alone passes the bound: no other world's room would help, so the refusal
	// does not advise deleting one.
	if strings.Contains(string(a.raw), "another world") {
		t.Errorf("a reset larger than the whole bound advises freeing another world: %s", a.raw)
	}
	for _, w := range m.ctl(http.MethodGet, "/__mock/worlds", nil).list(t, "worlds") {
		if w["scenario"] != "default" || w["snapshot"] != false {
			t.Fatalf("the world changed after refusals: %v", w)
		}
	}
	m.login(m.manifest.Users.Member) // the old world still answers
	_, err := mockserver.New(mockserver.Config{MaxStateMB: 1, Scenario: "busy"})
	if err == nil || !strings.Contains(err.Error(), "--max-state-mb") {
		t.Fatalf("a start whose scenario passes the bound: %v, want an error naming --max-state-mb", err)
	}
}

// Many first requests to one new world at once build it once, and each is served by it.
func TestNewWorldBuiltOnceForConcurrentFirstUse(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	var wg sync.WaitGroup
	statuses := make([]int, 16)
	for i := range statuses {
		wg.Go(func() {
			st, _ := send(t, http.MethodGet, m.url+"/__worlds/fresh/__mock/clock", "", "")
			statuses[i] = st
		})
	}
	wg.Wait()
	for i, st := range statuses {
		if st != http.StatusOK {
			t.Fatalf("request %d: %d", i, st)
		}
	}
	for _, w := range m.ctl(http.MethodGet, "/__mock/worlds", nil).list(t, "worlds") {
		if w["name"] == "fresh" && w["requests"] != float64(16) {
			t.Fatalf("world fresh served %v requests, want all 16 (one world, built once)", w["requests"])
		}
	}
}

// A refused write names the worlds holding the most, which GET /__mock/worlds also sizes, so a
// user knows which to reset or delete; and a world's own snapshot loads back at the bound.
func TestStateBudgetNamesTheLargestWorlds(t *testing.T) {
	m := newMock(t, mockserver.Config{MaxStateMB: 1})
	p := "/__worlds/hog"
	tok := m.post(p+"/v1/authenticate", "", map[string]any{"email": m.manifest.Users.Member.Email, "password": m.manifest.Users.Member.Password}).wantStatus(t, http.StatusOK).data()["token"].(string)
	desc := strings.Repeat("x", 100<<10)
	var refused answer
	for range 20 {
		if a := m.post(p+cardsCreate, tok, map[string]any{"title": "Big", "group_id": m.manifest.Operations.GroupID, "description": desc}); a.status != http.StatusOK {
			refused = a
			break
		}
	}
	if msg, _ := refused.body["message"].(string); refused.status != http.StatusBadRequest || !strings.Contains(msg, `"hog"`) {
		t.Fatalf("the refusal %d %s does not name the largest world", refused.status, refused.raw)
	}
	var hogSize float64
	for _, w := range m.ctl(http.MethodGet, "/__mock/worlds", nil).list(t, "worlds") {
		if w["name"] == "hog" {
			hogSize, _ = w["records_bytes"].(float64)
		}
	}
	if hogSize < 500<<10 {
		t.Errorf("GET /__mock/worlds sizes the hog world at %v bytes, want its records (over 500 KiB)", hogSize)
	}
	snap := m.ctl(http.MethodGet, p+"/__mock/state", nil).wantStatus(t, http.StatusOK).body
	m.ctl(http.MethodPut, p+"/__mock/state", snap).wantStatus(t, http.StatusOK)
}

// What the writes build within the bound, the mock saves and loads back with the same flags:
// its snapshot PUT back, and a restart from the state file it would write at stop.
func TestStateBudgetFullWorldLoadsBack(t *testing.T) {
	m := newMock(t, mockserver.Config{MaxStateMB: 2})
	tok := m.login(m.manifest.Users.Member)
	desc := strings.Repeat("x", 300<<10)
	for range 20 {
		if a := m.ctl(http.MethodPost, cardsCreate, map[string]any{"title": "Big", "group_id": m.manifest.Operations.GroupID, "description": desc}, "Authorization", "Bearer "+tok); a.status != http.StatusOK {
			break
		}
	}
	raw := m.ctl(http.MethodGet, "/__mock/state", nil).wantStatus(t, http.StatusOK).raw
	m.ctl(http.MethodPut, "/__mock/state", string(raw)).wantStatus(t, http.StatusOK)
	st, err := mockserver.DecodeState(raw)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mockserver.New(mockserver.Config{MaxStateMB: 2, State: &st.State}); err != nil {
		t.Fatalf("a restart from the full world's state file, same flags: %v", err)
	}
}

// A world dropped to make room leaves a trace: the world made afresh under its name says, in
// its notes, that the earlier one was dropped and why.
func TestDroppedWorldSaysSoWhenMadeAgain(t *testing.T) {
	m := newMock(t, mockserver.Config{MaxStateMB: 1})
	m.ctl(http.MethodGet, "/__worlds/w1/__mock/clock", nil).wantStatus(t, http.StatusOK)
	tok := m.post("/__worlds/w2/v1/authenticate", "", map[string]any{"email": m.manifest.Users.Member.Email, "password": m.manifest.Users.Member.Password}).data()["token"].(string)
	desc := strings.Repeat("x", 20<<10) // small enough that dropping w1 makes room for one
	for range 80 {
		if a := m.post("/__worlds/w2"+cardsCreate, tok, map[string]any{"title": "Big", "group_id": m.manifest.Operations.GroupID, "description": desc}); a.status != http.StatusOK {
			break
		}
	}
	if names := m.worldNames(t); strings.Contains(names, "w1") {
		t.Fatalf("worlds %s: w1 was not dropped", names)
	}
	// Made again by a reset (which builds its state afresh): the note stays.
	m.ctl(http.MethodPost, "/__worlds/w1/__mock/reset", nil).wantStatus(t, http.StatusOK)
	for _, w := range m.ctl(http.MethodGet, "/__mock/worlds", nil).list(t, "worlds") {
		if w["name"] == "w1" {
			notes, _ := w["notes"].([]any)
			if len(notes) == 0 || !strings.Contains(notes[len(notes)-1].(string), "--max-state-mb 1") {
				t.Errorf("w1 made again has notes %v, want one saying the earlier w1 was dropped for --max-state-mb", notes)
			}
		}
	}
}

// A push copies a master card into every project: its admission counts the copies, so one
// superadmin request cannot carry the records far past the bound.
func TestStateBudgetCountsPushedCopies(t *testing.T) {
	m := newMock(t, mockserver.Config{MaxStateMB: 2})
	tok := m.login(m.manifest.Users.Superadmin)
	desc := strings.Repeat("x", 700<<10)
	a := m.ctl(http.MethodPost, "/services/operations/v1/admin/master-cards/create", map[string]any{"group_id": m.manifest.Operations.MasterGroupID, "title": "Pushed", "description": desc, "push_to_projects": true}, "Authorization", "Bearer "+tok)
	if a.status != http.StatusBadRequest {
		t.Fatalf("a push of 700 KiB into every project under --max-state-mb 2: %d, want 400", a.status)
	}
	var total float64
	for _, w := range m.ctl(http.MethodGet, "/__mock/worlds", nil).list(t, "worlds") {
		total += w["records_bytes"].(float64)
	}
	if total > 2<<20 {
		t.Errorf("records hold %.0f bytes after the refused push, past the bound", total)
	}
}

// Snapshots loaded into many worlds at once stay under --max-state-mb together (D206): each
// load's room is made and its records counted in one step, where parallel loads all passed the
// check and then all swapped in.
func TestStateBudgetHoldsUnderParallelLoads(t *testing.T) {
	const limitMB = 4
	m := newMock(t, mockserver.Config{MaxStateMB: limitMB})
	m.ctl(http.MethodPost, "/__worlds/src/__mock/reset", map[string]any{}).wantStatus(t, http.StatusOK)
	growWorld(t, m, "src", 300<<10)
	snap := string(m.ctl(http.MethodGet, "/__worlds/src/__mock/state", nil).wantStatus(t, http.StatusOK).raw)
	m.ctl(http.MethodDelete, "/__mock/worlds?name=src", nil).wantStatus(t, http.StatusOK)
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() { m.ctl(http.MethodPut, fmt.Sprintf("/__worlds/w%d/__mock/state", i), snap) })
	}
	wg.Wait()
	var worlds struct {
		Worlds []struct {
			RecordsBytes int64 `json:"records_bytes"`
		} `json:"worlds"`
	}
	if err := json.Unmarshal(m.ctl(http.MethodGet, "/__mock/worlds", nil).wantStatus(t, http.StatusOK).raw, &worlds); err != nil {
		t.Fatal(err)
	}
	var total int64
	for _, w := range worlds.Worlds {
		total += w.RecordsBytes
	}
	if limit := int64(limitMB << 20); total > limit {
		t.Errorf("%d worlds hold %d bytes of records together, past --max-state-mb %d (%d)", len(worlds.Worlds), total, limitMB, limit)
	}
}

// A reset or a snapshot refused for want of room, to a world not there yet, makes no world and
// pushes none out (D141, D206): the 503 and the 413 said the world was unchanged while the
// world appeared, made from the default scenario, and an idle worker's world was dropped.
func TestRefusedForRoomMakesNoWorld(t *testing.T) {
	m := newMock(t, mockserver.Config{MaxStateMB: 1})
	var workers []string
	for i := range 20 {
		w := fmt.Sprintf("w%d", i)
		if a := m.ctl(http.MethodPost, "/__worlds/"+w+"/__mock/reset", nil); a.status != http.StatusOK {
			break
		}
		workers = append(workers, w)
	}
	before := m.worldNames(t)
	a := m.ctl(http.MethodPost, "/__worlds/newtwo/__mock/reset", map[string]any{"scenario": "busy"}).wantStatus(t, http.StatusServiceUnavailable)
	a.wantShape(t, "a")
	big := m.ctl(http.MethodPost, "/__worlds/"+workers[0]+"/__mock/reset", map[string]any{"scenario": "busy"})
	if big.status == http.StatusOK { // the busy scenario fits alone: take its snapshot
		raw := m.ctl(http.MethodGet, "/__worlds/"+workers[0]+"/__mock/state", nil).wantStatus(t, http.StatusOK).raw
		m.ctl(http.MethodPost, "/__worlds/"+workers[0]+"/__mock/reset", nil).wantStatus(t, http.StatusOK)
		before = m.worldNames(t)
		if st := m.ctl(http.MethodPut, "/__worlds/newthree/__mock/state", string(raw)).status; st != http.StatusRequestEntityTooLarge && st != http.StatusServiceUnavailable {
			t.Fatalf("a snapshot past the room: %d", st)
		}
	}
	if after := m.worldNames(t); after != before {
		t.Errorf("worlds %s after refused changes, want %s (none made, none dropped)", after, before)
	}
}
