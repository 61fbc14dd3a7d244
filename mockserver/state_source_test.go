package mockserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/fixtures"
)

// A state file keeps the seed and scenario its world was built from, and a start from it
// reports them and builds the manifest from them: a world reset to another seed, saved and
// started again, reported the start's --seed and blanked the manifest's carts (the start's
// seed's carts are not among the saved records).
func TestStateFileKeepsTheSeedItsWorldCameFrom(t *testing.T) {
	s, err := New(Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Default().Reset(7); err != nil {
		t.Fatal(err)
	}
	want := s.Manifest()
	if len(want.Domains.Carts) == 0 {
		t.Fatal("seed 7's manifest has no carts to compare")
	}
	b, err := json.Marshal(s.Default().StateFile())
	if err != nil {
		t.Fatal(err)
	}
	f, err := DecodeState(b)
	if err != nil {
		t.Fatalf("the saved file does not read back: %v", err)
	}
	again, err := New(Config{Seed: 1, State: &f.State, StateSource: f.Source})
	if err != nil {
		t.Fatal(err)
	}
	if src := again.Default().Source(); src.Seed != 7 || !src.Snapshot {
		t.Errorf("started from the saved file: source %+v, want seed 7 from a snapshot", src)
	}
	if got := again.Manifest(); !reflect.DeepEqual(got.Domains.Carts, want.Domains.Carts) {
		t.Errorf("started from the saved file: carts %+v, want seed 7's %+v", got.Domains.Carts, want.Domains.Carts)
	}

	// PUT /__mock/state takes the member too; a scenario the mock has not loaded is refused.
	fresh, err := New(Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	fresh.ServeHTTP(rec, httptest.NewRequest(http.MethodPut, "/__mock/state", strings.NewReader(string(b))))
	if rec.Code != http.StatusOK || fresh.Default().Source().Seed != 7 || !reflect.DeepEqual(fresh.Manifest().Domains.Carts, want.Domains.Carts) {
		t.Errorf("PUT of the saved file: %d %s, source %+v; want seed 7 and its carts", rec.Code, rec.Body, fresh.Default().Source())
	}
	// GET /__mock/state carries it too: a snapshot of a seed-7 world put into another world
	// keeps seed 7's carts (flows recorded there named carts the manifest had blanked).
	rec = httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/__mock/state", nil))
	got := rec.Body.String()
	rec = httptest.NewRecorder()
	fresh.ServeHTTP(rec, httptest.NewRequest(http.MethodPut, "/__worlds/other/__mock/state", strings.NewReader(got)))
	other, err := fresh.World("other")
	if err != nil {
		t.Fatal(err)
	}
	if rec.Code != http.StatusOK || other.Source().Seed != 7 || !reflect.DeepEqual(other.Manifest().Domains.Carts, want.Domains.Carts) {
		t.Errorf("PUT of GET /__mock/state into another world: %d %s, source %+v; want seed 7 and its carts", rec.Code, rec.Body, other.Source())
	}
	unknown := strings.Replace(string(b), `"scenario":"default"`, `"scenario":"nowhere"`, 1)
	if unknown == string(b) {
		t.Fatalf("the saved file names no default scenario: %.300s", b[len(b)-300:])
	}
	rec = httptest.NewRecorder()
	fresh.ServeHTTP(rec, httptest.NewRequest(http.MethodPut, "/__mock/state", strings.NewReader(unknown)))
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "nowhere") {
		t.Errorf("PUT naming an unknown scenario: %d %s, want 422 naming it", rec.Code, rec.Body)
	}
}

// A snapshot's source seed is the one its records were built from, even when the scenario's
// file now names another seed of its own: the file's seed replaced it, the manifest's carts
// were blanked and the next save wrote the file's seed in place of the records'.
func TestSnapshotSourceSeedWinsOverTheScenarioFilesNewSeed(t *testing.T) {
	s, err := New(Config{Scenarios: map[string]*fixtures.ScenarioFile{"second": scenarioWithSeed(t, 42)}})
	if err != nil {
		t.Fatal(err)
	}
	a, err := s.World("a")
	if err != nil {
		t.Fatal(err)
	}
	if err := a.ResetTo(Source{Scenario: "second"}); err != nil {
		t.Fatal(err)
	}
	want := a.Manifest().Domains
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/__worlds/a/__mock/state", nil))
	snapshot := rec.Body.String()
	s.SetScenarios(map[string]*fixtures.ScenarioFile{"second": scenarioWithSeed(t, 43)}) // the file edited
	rec = httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodPut, "/__worlds/b/__mock/state", strings.NewReader(snapshot)))
	b, err := s.World("b")
	if err != nil {
		t.Fatal(err)
	}
	if rec.Code != http.StatusOK || b.Source().Seed != 42 || !reflect.DeepEqual(b.Manifest().Domains, want) {
		t.Errorf("snapshot of seed 42 put after the file moved to 43: %d, source %+v, carts %+v; want seed 42 and its carts %+v", rec.Code, b.Source(), b.Manifest().Domains, want)
	}
}

// scenarioWithSeed is a scenario file on the default world naming seed as its own.
func scenarioWithSeed(t *testing.T, seed int64) *fixtures.ScenarioFile {
	t.Helper()
	path := filepath.Join(t.TempDir(), "second.yaml")
	if err := os.WriteFile(path, fmt.Appendf(nil, "name: second\nbase: default\nseed: %d\n", seed), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := fixtures.LoadScenarioFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// Each snapshot is checked against the manifest of its source as built, not against the one the
// last snapshot left: a snapshot without carts blanked them, and putting the world's own
// snapshot back left them blank.
func TestSnapshotsAreCheckedAgainstTheBuiltManifest(t *testing.T) {
	s, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	want := s.Manifest().Domains
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/__mock/state", nil))
	snapshot := rec.Body.Bytes()
	var noCarts map[string]any
	if err := json.Unmarshal(snapshot, &noCarts); err != nil {
		t.Fatal(err)
	}
	noCarts["carts"] = []any{}
	stripped, _ := json.Marshal(noCarts)
	for _, body := range [][]byte{stripped, snapshot} {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(http.MethodPut, "/__mock/state", bytes.NewReader(body)))
		if rec.Code != http.StatusOK {
			t.Fatalf("PUT: %d %s", rec.Code, rec.Body)
		}
	}
	if got := s.Manifest().Domains; !reflect.DeepEqual(got, want) {
		t.Errorf("after a snapshot without carts and the world's own again: carts %+v, want %+v", got, want)
	}
}
