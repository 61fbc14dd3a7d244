package check

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/opsapi/mocktoolkit/conformance/rules"
	"github.com/opsapi/mocktoolkit/spec"
)

// Rule ERR-8 on traffic: a record a caller created is found. The tracker remembers the records
// each caller's successful creates answered, and judges a 404 to a valid request of that caller
// whose every id names one of them, once the settle time since the last was created has passed
// (a deployment may find a new record only once a replica has it, as its lists may show it late).

// maxMade bounds the records a tracker remembers per caller; past it, it forgets them and starts
// again.
const maxMade = 4096

// madeBy is the kind of record each create makes and where its answer holds the id: the creates a
// caller can name the records of later. Master records are kinds of their own: an operation on
// project records may rightly not find a master record by the same id.
var madeBy = map[string]struct{ kind, path string }{
	"cardsCreate": {"card", "data.card.id"}, "tagsCreate": {"tag", "data.tag.id"},
	"masterCardsCreate":  {"master card", "data.card.id"},
	"masterGroupsCreate": {"master group", "data.group.id"},
	"masterBoardsCreate": {"master board", "data.board.id"},
}

// namedBy is, for the operations that list 404 and name records a caller can create, the kind of
// record each id field names. A request with another id field (a group of the project, a user)
// is not judged: the tracker cannot know that record exists.
var namedBy = map[string]map[string]string{
	"cardsUpdate":        {"id": "card", "tag_id": "tag"},
	"masterCardsUpdate":  {"id": "master card", "group_id": "master group"},
	"masterCardsCreate":  {"group_id": "master group"},
	"masterGroupsUpdate": {"id": "master group"},
	"masterBoardsSync":   {"board_id": "master board"},
}

// remember records the record a successful create of the caller made.
func (tr *trail) remember(ex Exchange, answered time.Time) {
	m, ok := madeBy[ex.Op.ID]
	if !ok || RefusedInSuccess(ex.Op, ex.Status, ex.Body) {
		return
	}
	id, ok := count(ex.Body, m.path)
	if !ok {
		return
	}
	if tr.made == nil || len(tr.made) >= maxMade {
		tr.made = map[string]time.Time{}
	}
	tr.made[fmt.Sprintf("%s %d", m.kind, id)] = answered
}

// found judges a 404 answer to the caller (ERR-8).
func (tr *trail) found(ex Exchange, answered time.Time, lag time.Duration) []Violation {
	kinds, judged := namedBy[ex.Op.ID]
	if !judged || ex.Status != 404 || ex.ReqPartial || len(tr.made) == 0 {
		return nil
	}
	var body map[string]any
	dec := json.NewDecoder(bytes.NewReader(ex.ReqBody))
	dec.UseNumber()
	if dec.Decode(&body) != nil {
		return nil
	}
	var named []string
	var last time.Time
	for k, v := range body {
		if v == nil || (k != "id" && !strings.HasSuffix(k, "_id")) {
			continue
		}
		n, _ := v.(json.Number)
		key := kinds[k] + " " + n.String()
		at, made := tr.made[key]
		if kinds[k] == "" || !made {
			return nil // an id the tracker cannot vouch for
		}
		named = append(named, key)
		if at.After(last) {
			last = at
		}
	}
	if len(named) == 0 || answered.Sub(last) < lag {
		return nil
	}
	if t, _ := spec.RequestBodyType(ex.ReqHeader); t != spec.BodyJSON {
		return nil
	}
	if vs, broken := Request(context.Background(), ex.Op, ex.ReqHeader, ex.ReqBody); len(vs) > 0 || len(broken) > 0 {
		return nil // the rule is about valid requests
	}
	slices.Sort(named)
	return []Violation{{Rule: rules.ERR8, Detail: fmt.Sprintf("%s answered 404 to a valid request naming only records this caller's own creates made (%s), %s after the last was created", ex.Op.ID, strings.Join(named, ", "), answered.Sub(last).Round(time.Second))}}
}

// deleted forgets, for every caller, what a successful groups/delete may have removed: the
// group (a master group, where a deployment allows deleting one that way) and every card and
// master card, since what becomes of a deleted group's cards is not stated (the reference
// removes them, D25) and the tracker does not know which group holds which card.
func (t *Tracker) deleted(ex Exchange) {
	if ex.Op.ID != "groupsDelete" {
		return
	}
	var req struct {
		ID json.Number `json:"id"`
	}
	_ = json.Unmarshal(ex.ReqBody, &req)
	for _, tr := range t.callers {
		for key := range tr.made {
			if strings.HasPrefix(key, "card ") || strings.HasPrefix(key, "master card ") || key == "master group "+req.ID.String() {
				delete(tr.made, key)
			}
		}
	}
}
