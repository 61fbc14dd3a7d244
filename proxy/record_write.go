package proxy

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/opsapi/mocktoolkit/spec"
)

// The scenario file's records (fixtures/scenarios/scenario.schema.json): new records of the
// member's project, named by refs made of the upstream's ids ("card-50").
type (
	scenarioDoc struct {
		Name     string            `yaml:"name"`
		Base     string            `yaml:"base"`
		Seed     int64             `yaml:"seed,omitempty"`
		Boards   []scenarioBoard   `yaml:"boards,omitempty"`
		Groups   []scenarioGroup   `yaml:"groups,omitempty"`
		Tags     []scenarioTag     `yaml:"tags,omitempty"`
		Cards    []scenarioCard    `yaml:"cards,omitempty"`
		Comments []scenarioComment `yaml:"comments,omitempty"`
		Carts    []scenarioCart    `yaml:"carts,omitempty"`
	}
	scenarioBoard struct {
		ID          *int64  `yaml:"id,omitempty"`
		Ref         string  `yaml:"ref"`
		Title       string  `yaml:"title"`
		Description *string `yaml:"description,omitempty"`
		Color       *string `yaml:"color,omitempty"`
		Icon        *string `yaml:"icon,omitempty"`
		Position    *int64  `yaml:"position,omitempty"`
	}
	scenarioGroup struct {
		ID          *int64  `yaml:"id,omitempty"`
		Ref         string  `yaml:"ref"`
		Board       string  `yaml:"board"`
		Title       string  `yaml:"title"`
		Description *string `yaml:"description,omitempty"`
		Color       *string `yaml:"color,omitempty"`
		Icon        *string `yaml:"icon,omitempty"`
		Position    *int64  `yaml:"position,omitempty"`
	}
	scenarioTag struct {
		ID       *int64  `yaml:"id,omitempty"`
		Ref      string  `yaml:"ref"`
		Name     string  `yaml:"name"`
		Color    *string `yaml:"color,omitempty"`
		Icon     *string `yaml:"icon,omitempty"`
		Position *int64  `yaml:"position,omitempty"`
	}
	scenarioCard struct {
		ID           *int64  `yaml:"id,omitempty"`
		Ref          string  `yaml:"ref"`
		Group        *string `yaml:"group,omitempty"`
		Title        string  `yaml:"title"`
		Description  *string `yaml:"description,omitempty"`
		Status       *string `yaml:"status,omitempty"`
		Priority     *string `yaml:"priority,omitempty"`
		CardType     *string `yaml:"card_type,omitempty"`
		Owner        *string `yaml:"owner,omitempty"`
		Tag          *string `yaml:"tag,omitempty"`
		DueDate      *string `yaml:"due_date,omitempty"`
		SnoozedUntil *string `yaml:"snoozed_until,omitempty"`
		IsActive     *bool   `yaml:"is_active,omitempty"`
	}
	scenarioComment struct {
		ID      *int64  `yaml:"id,omitempty"`
		Ref     string  `yaml:"ref"`
		Card    string  `yaml:"card"`
		Comment string  `yaml:"comment"`
		Author  string  `yaml:"author"`
		ReplyTo *string `yaml:"reply_to,omitempty"`
		IsRead  *bool   `yaml:"is_read,omitempty"`
	}
)

// ScenarioOptions say how WriteScenario names and numbers the scenario.
type ScenarioOptions struct {
	// Name is the scenario's name (letters, digits, '-' and '_'; ScenarioName makes one).
	Name string
	// Comment heads the file.
	Comment string
	// Seed pins the base world the scenario is built on (0: the mock's --seed).
	Seed int64
	// MaxBytes, when set, is the largest file the mock loads as a scenario: records are left
	// out, last first, until the file fits.
	MaxBytes int
	// Taken tells the ids the base world of Seed already holds, by kind ("boards", "groups",
	// "tags", "cards", "comments", "cart_items"): a record keeps the upstream's id unless Taken says it is
	// taken (D176), and then takes a free one (renumber). Nil: no record keeps its id.
	Taken func(kind string, id int64) bool
	// Check loads a scenario file's bytes as `mockserver --scenario` does and returns its
	// problems ("line N: …"), none when it loads; records it refuses are left out (D197).
	// Nil: the file is written unchecked.
	Check func([]byte) []string
	// BaseCarts is the number of carts of the base world: the loader names a cart by its place
	// among the world's.
	BaseCarts int
	// Note is told of each record left out of the file (D197); nil: nobody is told.
	Note func(string)
}

// WriteScenario writes what the recorder saw as a scenario: the empty world plus every record,
// in the fixture member's project (D174), with e-mail addresses and the names of logged-in
// users in its texts replaced by generated ones and every record's owner or author the member
// (D175). It returns how many records of each kind the file holds (boards, groups, tags,
// cards, comments, carts), those left out not counted.
func (r *ScenarioRecorder) WriteScenario(w io.Writer, opts ScenarioOptions) (map[string]int, error) {
	r.mu.Lock()
	b := &scenarioBuilder{seen: r.seen, carts: r.carts, scrub: newScrubber(r.names, r.secrets), made: map[string]bool{}, taken: opts.Taken, changes: map[string]bool{}, leftOut: map[string]int{},
		left: map[string]bool{}, goneNotes: map[string]*leftOutReason{}}
	b.build(opts.Name)
	notes := append(append(r.leftOutNotes(), reasonNotes(b.goneNotes)...), slices.Sorted(maps.Keys(r.notes))...)
	if n := r.restartNote(); n != "" { // first: it says why earlier records are missing (D174)
		notes = append([]string{n}, notes...)
	}
	if r.notesOver > 0 {
		notes = append(notes, fmt.Sprintf("and %d more notes like these, not shown", r.notesOver))
	}
	if r.over > 0 {
		notes = append(notes, fmt.Sprintf("%d records left out of the recording past the first %d it keeps", r.over, maxRecorded))
	}
	changes := slices.Sorted(maps.Keys(b.changes))
	if len(changes) > maxNotes {
		changes = append(changes[:maxNotes], fmt.Sprintf("and %d more changes like these, not shown", len(changes)-maxNotes))
	}
	notes = append(notes, changes...)
	r.mu.Unlock()
	note := opts.Note
	if note == nil {
		note = func(string) {}
	}
	for _, n := range notes {
		note(n)
	}
	b.doc.Seed = opts.Seed
	out, err := b.loadable(opts, note)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	r.fileLeft, r.fileCounted = b.leftOut, b.trimmed+b.goneCounted()
	r.mu.Unlock()
	head := "# " + strings.ReplaceAll(opts.Comment, "\n", "\n# ") + "\n"
	if _, err := io.WriteString(w, head+string(out)); err != nil {
		return nil, fmt.Errorf("write scenario: %w", err)
	}
	d := b.doc
	return map[string]int{"boards": len(d.Boards), "groups": len(d.Groups), "tags": len(d.Tags), "cards": len(d.Cards), "comments": len(d.Comments), "carts": len(d.Carts)}, nil
}

// ScenarioName makes a scenario name of a file name: its base without extension, other
// characters than letters, digits, '-' and '_' replaced by '-'.
func ScenarioName(file string) string {
	base := file[strings.LastIndexAny(file, `/\`)+1:]
	if i := strings.LastIndex(base, "."); i > 0 {
		base = base[:i]
	}
	name := strings.Map(func(c rune) rune {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' {
			return c
		}
		return '-'
	}, base)
	if name == "" || name[0] == '-' || name[0] == '_' || slices.Contains([]string{"default", "empty", "busy", "edge"}, name) {
		name = "recorded-" + strings.TrimLeft(name, "-_")
	}
	return strings.TrimRight(name, "-")
}

// scenarioBuilder turns the records seen into the file's lists, making a placeholder for a
// record another one names but no answer showed.
type scenarioBuilder struct {
	seen  map[string]map[int64]map[string]any
	carts []map[string]any
	scrub *scrubber
	doc   scenarioDoc
	made  map[string]bool // refs already in the file
	taken func(kind string, id int64) bool
	// at is the ref of the record being written, changes what was cut or left out of its
	// fields: each is a note of the log, so nothing changes silently (D174).
	at      string
	changes map[string]bool
	// moved says, by the id field renumber set, why a record was not written under staging's
	// id, so that the mock's refusal of the id it was given names both.
	moved map[*int64]string
	// leftOut counts by kind the records dropped from the file (refused by the loader, given
	// no free id, cut for size; "cart items" for items), trimmed those cut for size, which the
	// log counts without naming (D197).
	leftOut map[string]int
	trimmed int
	// left are the refs of records left out as gone (record_gone.go), goneNotes their names
	// by reason for the log.
	left      map[string]bool
	goneNotes map[string]*leftOutReason
}

// within makes ref the record being written, until the returned func puts back the one before
// (a card writes its group, which writes its board).
func (b *scenarioBuilder) within(ref string) func() {
	old := b.at
	b.at = ref
	return func() { b.at = old }
}

// keep is the id a new record of kind is written under until renumber has seen every record:
// the upstream's (nil without Taken, when no record keeps its id).
func (b *scenarioBuilder) keep(kind string, id int64) *int64 {
	if b.taken == nil || id < 1 {
		return nil
	}
	return &id
}

func (b *scenarioBuilder) build(name string) scenarioDoc {
	b.doc = scenarioDoc{Name: name, Base: "empty"}
	for _, id := range sortedIDs(b.seen["boards"]) {
		b.board(id, b.seen["boards"][id])
	}
	for _, id := range sortedIDs(b.seen["groups"]) {
		b.group(id, b.seen["groups"][id])
	}
	for _, id := range sortedIDs(b.seen["tags"]) {
		b.tag(id, b.seen["tags"][id])
	}
	for _, id := range sortedIDs(b.seen["cards"]) {
		b.card(id, b.seen["cards"][id])
	}
	for _, id := range sortedIDs(b.seen["comments"]) {
		b.comment(id, b.seen["comments"][id])
	}
	b.cartList()
	b.renumber()
	return b.doc
}

func ref(kind string, id int64) string { return kind + "-" + strconv.FormatInt(id, 10) }

func (b *scenarioBuilder) board(id int64, rec map[string]any) string {
	key, kind := ref("board", id), "Board"
	if id == 0 { // groups whose board no answer named
		key, kind = "board-not-shown", "Groups whose board was not shown"
	}
	if b.gone("boards", key, id, goneWhy("boards", rec)) {
		return ""
	}
	if !b.made[key] {
		defer b.within(key)()
		b.made[key] = true
		title := kind // the placeholder of groups whose board no answer named: its own title
		if id != 0 {
			title = b.title(rec, "title", kind, id, 255)
		}
		b.doc.Boards = append(b.doc.Boards, scenarioBoard{ID: b.keep("boards", id), Ref: key, Title: title,
			Description: b.text(rec, "description", 0), Color: b.text(rec, "color", 50), Icon: b.text(rec, "icon", 100), Position: b.position(rec)})
	}
	return key
}

func (b *scenarioBuilder) group(id int64, rec map[string]any) string {
	key := ref("group", id)
	if b.made[key] {
		return key
	}
	if b.gone("groups", key, id, goneWhy("groups", rec)) {
		return ""
	}
	board := int64(0)
	if n := b.recordID(rec, "groups", "board_id"); n != nil {
		board = *n
	}
	boardRef := b.board(board, b.seen["boards"][board])
	if boardRef == "" {
		b.gone("groups", key, id, withParent("groups", "board"))
		return ""
	}
	defer b.within(key)()
	b.made[key] = true
	b.doc.Groups = append(b.doc.Groups, scenarioGroup{ID: b.keep("groups", id), Ref: key, Board: boardRef, Title: b.title(rec, "title", "Group", id, 255),
		Description: b.text(rec, "description", 0), Color: b.text(rec, "color", 50), Icon: b.text(rec, "icon", 100), Position: b.position(rec)})
	return key
}

func (b *scenarioBuilder) tag(id int64, rec map[string]any) string {
	key := ref("tag", id)
	if b.gone("tags", key, id, goneWhy("tags", rec)) {
		return ""
	}
	if !b.made[key] {
		defer b.within(key)()
		b.made[key] = true
		b.doc.Tags = append(b.doc.Tags, scenarioTag{ID: b.keep("tags", id), Ref: key, Name: b.title(rec, "name", "Tag", id, 255),
			Color: b.text(rec, "color", 50), Icon: b.text(rec, "icon", 100), Position: b.position(rec)})
	}
	return key
}

func (b *scenarioBuilder) card(id int64, rec map[string]any) string {
	key := ref("card", id)
	if b.made[key] {
		return key
	}
	if b.gone("cards", key, id, goneWhy("cards", rec)) {
		return ""
	}
	defer b.within(key)()
	var group *string
	if g := b.recordID(rec, "cards", "group_id"); g != nil {
		s := b.group(*g, b.seen["groups"][*g])
		if s == "" { // a deleted group takes its cards along (groupsDelete)
			b.gone("cards", key, id, withParent("cards", "group"))
			return ""
		}
		group = &s
	}
	c := scenarioCard{Group: group, ID: b.keep("cards", id), Ref: key, Title: b.title(rec, "title", "Card", id, 255), Description: b.text(rec, "description", 0),
		Status: b.text(rec, "status", 50), Priority: b.enum(rec, "priority", "low", "normal", "high", "urgent"),
		CardType: b.enum(rec, "card_type", "widget", "widget_tour", "tour"), DueDate: b.date(rec, "due_date"), SnoozedUntil: b.date(rec, "snoozed_until")}
	if t := b.recordID(rec, "cards", "tag_id"); t != nil {
		// A card outlives its tag (a tag is a label, not a container): it stays, untagged.
		if s := b.tag(*t, b.seen["tags"][*t]); s != "" {
			c.Tag = &s
		} else {
			b.changes[fmt.Sprintf("%s: tag left out: tag %d was left out of the recording", key, *t)] = true
		}
	}
	if b.integer(rec, "owner_id") != nil {
		member := "member"
		c.Owner = &member
	}
	c.IsActive = b.boolean(rec, "is_active")
	for _, f := range cardFieldsNotKept {
		if v, ok := rec[f]; ok && v != nil && v != "" {
			b.changes["cards: "+f+" is left out (a scenario card has no such field; the mock gives it its own value)"] = true
		}
	}
	b.made[key] = true
	b.doc.Cards = append(b.doc.Cards, c)
	return key
}

// cardFieldsNotKept are the fields of a card record a scenario card cannot hold; the log says
// when a recorded card had one set (D175).
var cardFieldsNotKept = []string{"unique_identifier", "evaluation_check", "tour_key", "short_description", "sort_order", "position"}

func (b *scenarioBuilder) comment(id int64, rec map[string]any) {
	card := b.recordID(rec, "comments", "card_id")
	if card == nil {
		return // a comment the scenario cannot attach to a card
	}
	key := ref("comment", id)
	if b.gone("comments", key, id, goneWhy("comments", rec)) {
		return
	}
	cardRef := b.card(*card, b.seen["cards"][*card])
	if cardRef == "" {
		b.gone("comments", key, id, withParent("comments", "card"))
		return
	}
	defer b.within(key)()
	// The body is required, as a title is: one that is empty or not text takes a stand-in, so
	// the comment and its replies stay (written as "", the mock refused it).
	c := scenarioComment{ID: b.keep("comments", id), Ref: ref("comment", id), Card: cardRef, Comment: b.title(rec, "comment", "Comment", id, 0), Author: "member"}
	if p := b.integer(rec, "parent_comment_id"); p != nil && b.made[ref("comment", *p)] {
		s := ref("comment", *p)
		c.ReplyTo = &s
	} else if p != nil {
		b.changes[fmt.Sprintf("%s: reply_to left out: its parent, comment %d, is not a comment of the recording written before it", c.Ref, *p)] = true
	}
	c.IsRead = b.boolean(rec, "is_read")
	b.made[c.Ref] = true
	b.doc.Comments = append(b.doc.Comments, c)
}

// date reads a date-time in the forms deployments write, as RFC 3339 in UTC; a value it cannot
// read, or one whose UTC instant falls outside years 1 to 9999, is left out with a note, the
// record kept.
func (b *scenarioBuilder) date(rec map[string]any, key string) *string {
	if rec[key] == nil {
		return nil
	}
	s, ok := rec[key].(string)
	if !ok {
		b.notText(key, rec[key], "left out")
		return nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05", "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			if u := t.UTC(); !u.Before(spec.EarliestTime) && !u.After(spec.LatestTime) { // the API's range (D73)
				out := u.Format(time.RFC3339)
				return &out
			}
			break
		}
	}
	b.changes[fmt.Sprintf("%s: %s %s left out: not a date-time the mock takes", b.at, key, quoteClipped(s))] = true
	return nil
}

func sortedIDs(m map[int64]map[string]any) []int64 {
	ids := make([]int64, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}
