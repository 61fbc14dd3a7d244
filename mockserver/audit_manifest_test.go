package mockserver_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// After a snapshot that keeps only the users (one with no users is refused, D198) every id,
// token and list of ids in the manifest is blanked and each one that named a record is in the
// world's notes (D102, D181). The walk is over the manifest as served, so a key added later
// without its check fails here.
func TestUsersOnlySnapshotBlanksEveryManifestKey(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	before := m.ctl(http.MethodGet, "/__worlds/msg/__mock/fixtures", nil).wantStatus(t, 200).body
	full := m.ctl(http.MethodGet, "/__worlds/msg/__mock/state", nil).wantStatus(t, 200).body
	usersOnly := map[string]any{"projects": full["projects"], "users": full["users"]}
	m.ctl(http.MethodPut, "/__worlds/msg/__mock/state", usersOnly).wantStatus(t, 200)
	after := m.ctl(http.MethodGet, "/__worlds/msg/__mock/fixtures", nil).wantStatus(t, 200).body
	var notes string
	for _, w := range m.ctl(http.MethodGet, "/__mock/worlds", nil).wantStatus(t, 200).list(t, "worlds") {
		if w["name"] == "msg" {
			notes = fmt.Sprint(w["notes"])
		}
	}
	leaves := map[string]any{}
	flatten("", after, leaves)
	for key, v := range leaves {
		if key == "seed" || key == "operations.tool_key" || strings.HasPrefix(key, "users.") {
			continue // the users are kept
		}
		if v != float64(0) && v != "" && fmt.Sprint(v) != "[]" {
			t.Errorf("after a users-only snapshot the manifest still has %s = %v", key, v)
		}
	}
	old := map[string]any{}
	flatten("", before, old)
	for key, v := range old {
		if key == "seed" || key == "operations.tool_key" || strings.HasPrefix(key, "users.") || v == float64(0) {
			continue
		}
		if field, _, _ := strings.Cut(key, "["); !strings.Contains(notes, field+":") && !strings.Contains(notes, field+"[") {
			t.Errorf("%s (%v) was blanked with no note: %s", key, v, notes)
		}
	}
}

// flatten lists the leaves of a decoded JSON value by path ("domains.carts[0].item_ids[1]").
func flatten(path string, v any, out map[string]any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			p := k
			if path != "" {
				p = path + "." + k
			}
			flatten(p, e, out)
		}
	case []any:
		if len(x) == 0 {
			out[path] = "[]"
		}
		for i, e := range x {
			flatten(fmt.Sprintf("%s[%d]", path, i), e, out)
		}
	default:
		out[path] = v
	}
}

// The manifest's shape never changes (D102): a snapshot whose users the manifest's logins no
// longer name blanks them, the teammate as the others (it was dropped from the manifest, and a
// client reading users.teammate.email got nothing where the others read "").
func TestSnapshotKeepsTheManifestsShape(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	before := m.ctl(http.MethodGet, "/__worlds/shape/__mock/fixtures", nil).wantStatus(t, 200).body
	full := m.ctl(http.MethodGet, "/__worlds/shape/__mock/state", nil).wantStatus(t, 200).body
	oneUser := map[string]any{"users": full["users"].([]any)[:1], "projects": full["projects"].([]any)[:1]}
	m.ctl(http.MethodPut, "/__worlds/shape/__mock/state", oneUser).wantStatus(t, 200)
	after := m.ctl(http.MethodGet, "/__worlds/shape/__mock/fixtures", nil).wantStatus(t, 200).body
	was, is := map[string]bool{}, map[string]bool{}
	objectKeys("", before, was)
	objectKeys("", after, is)
	for k := range was {
		if !is[k] {
			t.Errorf("the manifest lost %s after the snapshot", k)
		}
	}
	for k := range is {
		if !was[k] {
			t.Errorf("the manifest gained %s after the snapshot", k)
		}
	}
}

// objectKeys lists the paths of a decoded JSON value's object keys, arrays counted as one.
func objectKeys(path string, v any, out map[string]bool) {
	obj, ok := v.(map[string]any)
	if !ok {
		return
	}
	for k, e := range obj {
		p := k
		if path != "" {
			p = path + "." + k
		}
		out[p] = true
		objectKeys(p, e, out)
	}
}

// Every reference a snapshot breaks is named at once (D76): the first ended the load, and a
// user fixed them one PUT at a time.
func TestSnapshotNamesEveryBrokenReference(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	m.ctl(http.MethodGet, "/__worlds/refs/__mock/fixtures", nil).wantStatus(t, 200) // makes the world
	st := m.ctl(http.MethodGet, "/__worlds/refs/__mock/state", nil).wantStatus(t, 200).body
	cards := st["cards"].([]any)
	comments := st["comments"].([]any)
	var projectCards []map[string]any
	for _, c := range cards {
		if c := c.(map[string]any); c["project_id"] != nil {
			projectCards = append(projectCards, c)
		}
	}
	projectCards[0]["group_id"] = 999999
	projectCards[1]["owner_id"] = 999998
	comments[0].(map[string]any)["card_id"] = 999997
	a := m.ctl(http.MethodPut, "/__worlds/refs/__mock/state", st).wantStatus(t, 422)
	for _, want := range []string{"group 999999", "owner 999998", "card 999997"} {
		if !strings.Contains(string(a.raw), want) {
			t.Errorf("the refusal does not name %s: %s", want, a.raw)
		}
	}
}

// A snapshot's source.seed of 0 or null, or none, stands for the mock's --seed (D65): it was
// refused ("want a seed other than 0"), and a state file so written stopped the start.
func TestSnapshotSourceSeedZeroIsTheMocksSeed(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	m.ctl(http.MethodGet, "/__worlds/z/__mock/fixtures", nil).wantStatus(t, 200)
	st := m.ctl(http.MethodGet, "/__worlds/z/__mock/state", nil).wantStatus(t, 200).body
	for _, seed := range []any{0, nil, "absent"} {
		src := map[string]any{"scenario": "default", "seed": seed}
		if seed == "absent" {
			delete(src, "seed")
		}
		st["source"] = src
		m.ctl(http.MethodPut, "/__worlds/z/__mock/state", st).wantStatus(t, 200)
	}
}
