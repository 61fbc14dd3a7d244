package check

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// Rule GROUP-1 on traffic: a group deleted with success is gone, so a later delete of the same
// id is not a success. The tracker remembers each group a delete removed, whoever sent it, and
// judges a delete of it sent after that answer. A sync or a master card create (a push) may make
// groups, and a deployment may give a new group an id freed by a delete, so either makes it
// forget them.

// maxGone bounds the deleted groups a tracker remembers; past it, it forgets them.
const maxGone = 4096

// groupDelete judges a successful groups/delete, or forgets the deleted groups on a success
// that may make groups.
func (t *Tracker) groupDelete(ex Exchange, sent, answered time.Time) []Violation {
	switch ex.Op.ID {
	case "masterBoardsSync", "masterCardsCreate", "masterCardsUpdate":
		clear(t.gone)
		return nil
	case "groupsDelete":
	default:
		return nil
	}
	var req struct {
		ID json.Number `json:"id"`
	}
	if json.Unmarshal(ex.ReqBody, &req) != nil || req.ID == "" {
		return nil
	}
	first, gone := t.gone[req.ID.String()]
	if gone && !sent.Before(first) {
		return []Violation{{Rule: rules.GROUP1, Detail: fmt.Sprintf("group %s was deleted with success %s before, yet deleting it again answers %d", req.ID, sent.Sub(first).Round(time.Millisecond), ex.Status)}}
	}
	if t.gone == nil || len(t.gone) >= maxGone {
		t.gone = map[string]time.Time{}
	}
	if !gone {
		t.gone[req.ID.String()] = answered
	}
	return nil
}
