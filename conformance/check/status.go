package check

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/opsapi/mocktoolkit/conformance/rules"
	"github.com/opsapi/mocktoolkit/internal/text"
	"github.com/opsapi/mocktoolkit/spec"
)

// statusOps are the operations that move a master card's status (a tour card is a master card
// of type tour): TRANS-1.
var statusOps = map[string]bool{"masterCardsUpdate": true, "tourCardsUpdate": true}

// MovesStatus tells the operations whose requests may move a card's status (StatusSent).
func MovesStatus(op spec.Operation) bool { return statusOps[op.ID] }

// statusMove is the status a card update asked for and the status its answer's card shows.
type statusMove struct {
	card     string // the id's value (normalID)
	given    string
	answered any
	shown    bool // the answer's card is an object with a status
}

// readStatusMove reads a status update: ok is false when ex is no successful update of a
// master card's status to a value of its enumeration (a value outside it is ERR-6's, null moves
// nothing).
func readStatusMove(ex Exchange) (m statusMove, ok bool) {
	if !statusOps[ex.Op.ID] || ex.ReqPartial || ex.BodyPartial || ex.Status < 200 || ex.Status > 299 || RefusedInSuccess(ex.Op, ex.Status, ex.Body) {
		return m, false
	}
	var req struct {
		ID     json.Number `json:"id"`
		Status any         `json:"status"`
	}
	dec := json.NewDecoder(bytes.NewReader(ex.ReqBody))
	dec.UseNumber()
	if dec.Decode(&req) != nil {
		return m, false
	}
	given, isString := req.Status.(string)
	if !isString || !slices.Contains(statusEnum(ex), any(given)) {
		return m, false
	}
	m.card, m.given = normalID(req.ID.String()), given
	var answer struct {
		Data struct {
			Card json.RawMessage `json:"card"`
		} `json:"data"`
	}
	if json.Unmarshal(ex.Body, &answer) != nil {
		return m, true
	}
	var card map[string]any
	if json.Unmarshal(answer.Data.Card, &card) == nil && card != nil {
		m.answered, m.shown = card["status"]
	}
	return m, true
}

// statusEnum lists the values the operation's document gives the request's status.
func statusEnum(ex Exchange) []any {
	if ex.Op.Request == nil || ex.Op.Request.Properties["status"] == nil || ex.Op.Request.Properties["status"].Value == nil {
		return nil
	}
	return ex.Op.Request.Properties["status"].Value.Enum
}

// normalID writes an integer id as its value (007 and 7.0 are 7); anything else as written.
func normalID(id string) string {
	whole, fraction, _ := strings.Cut(id, ".")
	if strings.Trim(fraction, "0") != "" {
		return id
	}
	if n, err := strconv.ParseInt(whole, 10, 64); err == nil {
		return strconv.FormatInt(n, 10)
	}
	return id
}

// GivenStatus is TRANS-1 within one answer: a successful update of a master card's or a tour
// card's status answers the card, where it is an object with a status, with the status given.
// A deployment that reads the card back after writing it may answer the status of another
// update of the card overlapping this one: the suite and explore never overlap two, and the
// proxy's Tracker excuses such an answer (StatusSent).
func GivenStatus(ex Exchange) []Violation {
	m, ok := readStatusMove(ex)
	if !ok || !m.shown || m.answered == m.given {
		return nil
	}
	return []Violation{{Rule: rules.TRANS1, Detail: fmt.Sprintf("%s gave card %s the status %q, yet answered the card with the status %s", ex.Op.ID, m.card, m.given, quoteValue(m.answered))}}
}

// quoteValue writes a JSON value as JSON (a string quoted, null as null).
func quoteValue(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return text.Clip(string(b), 80)
}

// maxStatusCards bounds the cards whose status updates a Tracker remembers, and
// maxStatusWrites the updates of one card.
const (
	maxStatusCards  = 4096
	maxStatusWrites = 64
)

// statusWrite is one update of a card's status: the status given, when it was sent and when
// its answer came (zero while it has not).
type statusWrite struct {
	status         string
	sent, answered time.Time
}

// StatusSent tells the tracker that ex's request, sent at sent, updates a card's status, before
// its answer comes; the function it returns is called with the time the answer came. An update whose
// answer shows the status another update of the card gave, sent before that answer came and
// not answered before this update was sent, is not judged by TRANS-1: the deployment may have
// read the card back after the other wrote it. Requests that update no status are not kept.
func (t *Tracker) StatusSent(ex Exchange, sent time.Time) (answered func(at time.Time)) {
	probe := ex
	probe.Status, probe.Body, probe.BodyPartial = 200, nil, false
	m, ok := readStatusMove(probe)
	if !ok {
		return func(time.Time) {}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.statuses == nil || len(t.statuses) >= maxStatusCards {
		t.statuses = map[string][]*statusWrite{}
	}
	w := &statusWrite{status: m.given, sent: sent}
	writes := append(t.statuses[m.card], w)
	if len(writes) > maxStatusWrites {
		writes = writes[len(writes)-maxStatusWrites:]
	}
	t.statuses[m.card] = writes
	return func(at time.Time) {
		t.mu.Lock()
		defer t.mu.Unlock()
		w.answered = at
	}
}

// givenStatus is GivenStatus less the answers another update of the card overlapping ex may
// explain (StatusSent).
func (t *Tracker) givenStatus(ex Exchange, sent, answered time.Time) []Violation {
	vs := GivenStatus(ex)
	if len(vs) == 0 {
		return nil
	}
	m, _ := readStatusMove(ex)
	for _, w := range t.statuses[m.card] {
		overlaps := w.sent.Before(answered) && (w.answered.IsZero() || !w.answered.Before(sent))
		if overlaps && m.answered == any(w.status) {
			return nil
		}
	}
	return vs
}

// Deprecated is TRANS-3 within one answer: a successful deprecation of a theme version answers
// `theme_status` "deprecated" (DOC-1 judges that the fields are there and their types).
func Deprecated(ex Exchange) []Violation {
	if ex.Op.ID != "themeVersionsDeprecate" || ex.BodyPartial || ex.Status < 200 || ex.Status > 299 || RefusedInSuccess(ex.Op, ex.Status, ex.Body) {
		return nil
	}
	var answer struct {
		Data map[string]any `json:"data"`
	}
	if json.Unmarshal(ex.Body, &answer) != nil {
		return nil
	}
	s, said := answer.Data["theme_status"]
	if !said || s == "deprecated" {
		return nil
	}
	return []Violation{{Rule: rules.TRANS3, Detail: fmt.Sprintf("the deprecation answered success with theme_status %s, not \"deprecated\"", quoteValue(s))}}
}
