package proxy

import (
	"encoding/json"
	"fmt"
)

// This file leaves out of a recording the records that are gone (D174): one the upstream showed
// deleted (deleted_at not null), one a successful delete operation removed, one inactive where
// the scenario cannot say so (written, it would come back alive or active), and the records
// that would name one of them (a deleted group's cards: the file would not load, or would bring
// the group back as a placeholder). Each is named in the log as D197's records left out are.

// deleteOps maps the interface's operations that delete a record (spec/openapi.yaml) to the
// kind of the record their body's id names: groupsDelete soft-deletes a group and its cards.
var deleteOps = map[string]string{"/services/operations/v1/operations/groups/delete": "groups"}

// holdsIsActive are the scenario's kinds that hold is_active (scenario.schema.json): an
// inactive record of another kind would be written active.
var holdsIsActive = map[string]bool{"cards": true}

// removedBy is the deleted_at the recorder gives a record a successful delete operation removed,
// naming the operation's path. No decoded answer holds this type, so the log tells it from the
// upstream's own deleted_at; and, as for any field, a later answer showing the record with
// deleted_at null wins and brings it back.
type removedBy string

// noteDelete marks the record a successful delete operation of path removed, named by the id of
// its request's body; a record no answer showed is kept as that mark alone, so that the records
// naming it are left out rather than given a placeholder.
func (r *ScenarioRecorder) noteDelete(path string, reqBody []byte) {
	kind, ok := deleteOps[path]
	if !ok {
		return
	}
	var body map[string]any
	if json.Unmarshal(reqBody, &body) != nil {
		return
	}
	id, ok := intField(body, "id")
	if !ok || id < 1 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.keep(kind, map[string]any{"id": float64(id), "deleted_at": removedBy(path)})
}

// goneWhy is the reason a record of kind is left out of the file as gone, "" when it is not
// (a placeholder, rec nil, never is).
func goneWhy(kind string, rec map[string]any) string {
	switch d := rec["deleted_at"].(type) {
	case nil:
	case removedBy:
		return fmt.Sprintf("records of %s removed by a successful %s left out of the recording", kind, string(d))
	default:
		return fmt.Sprintf("records of %s the upstream showed deleted (deleted_at not null) left out of the recording", kind)
	}
	if active, ok := rec["is_active"].(bool); ok && !active && !holdsIsActive[kind] {
		return fmt.Sprintf("records of %s whose is_active is false left out of the recording: a scenario's %s cannot hold is_active, and written they would be active", kind, kind)
	}
	return ""
}

// withParent is the reason a record of kind is left out with the parent it names.
func withParent(kind, parent string) string {
	return fmt.Sprintf("records of %s whose %s was left out of the recording left out with it", kind, parent)
}

// gone tells whether the record key of kind is left out of the file: it was already, or why is
// a reason, and then the log names it ("groups 11") and the count of kind grows.
func (b *scenarioBuilder) gone(kind, key string, id int64, why string) bool {
	if b.left[key] {
		return true
	}
	if why == "" {
		return false
	}
	b.left[key] = true
	b.leftOut[kind]++
	addNamed(b.goneNotes, why, fmt.Sprintf("%s %d", kind, id))
	return true
}

// goneCounted is how many records left out as gone the log counts without naming them.
func (b *scenarioBuilder) goneCounted() int {
	n := 0
	for _, l := range b.goneNotes {
		n += l.more
	}
	return n
}
