package proxy

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// This file gives every record of a recording the id it is written under (D174, D176): staging's
// where it is free, else a free one. The loader's own numbering (after the largest id the file
// gives) passed 2^53-1 as soon as staging showed a record at the largest id, and the mock then
// refused every record whose id the base world held.

// idSlot is a record of the file whose id renumber reads and sets.
type idSlot struct {
	at    recordPlace // its place in the file, as drop takes it
	kind  string      // its kind as ScenarioOptions.Taken names it
	ref   string      // its ref ("" for a cart item)
	id    **int64     // its id field: staging's id (nil: none) until renumber sets it
	reply string      // a comment's parent's ref: a reply's id must pass its parent's (D76)
}

// maxIDScan bounds the ids the allocator asks Taken about per kind: Taken answers for a base
// world of some dozens of ids, but it is a predicate, and one answering "taken" for every id
// would keep the scan going for 2^53 ids.
const maxIDScan = 1 << 20

// idAllocator hands out the free ids of each kind, lowest first: an id free is one within 1 to
// 2^53-1 (D197) that neither the base world (taken) nor a record keeping its own (reserved)
// holds. Its cursors only go up, so a recording's ids cost one pass over the range they use.
type idAllocator struct {
	taken    func(kind string, id int64) bool
	reserved map[string]map[int64]int // kind → id → the slot keeping it
	next     map[string]int64         // kind → the lowest id not yet tried
	asked    map[string]int           // kind → ids Taken said were taken
}

// alloc returns the lowest free id of kind above floor, or why none is.
func (a *idAllocator) alloc(kind string, floor int64) (int64, string) {
	c := max(a.next[kind], floor+1, 1)
	for ; c <= maxExactInt; c++ {
		if _, kept := a.reserved[kind][c]; kept {
			continue
		}
		if !a.taken(kind, c) {
			a.next[kind] = c + 1
			return c, ""
		}
		if a.asked[kind]++; a.asked[kind] >= maxIDScan {
			a.next[kind] = maxExactInt + 1 // no later record of the kind looks again
			return 0, fmt.Sprintf("the base world holds each of the %d ids the recorder tried, and it tries no more", maxIDScan)
		}
	}
	a.next[kind] = c
	return 0, fmt.Sprintf("the base world and the recording hold every id from 1 to %d", int64(maxExactInt))
}

// idSlots lists the file's records that carry an id, in the file's order (a reply after its
// parent, D174).
func (b *scenarioBuilder) idSlots() []idSlot {
	d := &b.doc
	var s []idSlot
	add := func(kind, ref string, i int, id **int64) {
		s = append(s, idSlot{at: recordPlace{kind: kind, i: i, item: -1, name: kind + " " + ref}, kind: kind, ref: ref, id: id})
	}
	for i := range d.Boards {
		add("boards", d.Boards[i].Ref, i, &d.Boards[i].ID)
	}
	for i := range d.Groups {
		add("groups", d.Groups[i].Ref, i, &d.Groups[i].ID)
	}
	for i := range d.Tags {
		add("tags", d.Tags[i].Ref, i, &d.Tags[i].ID)
	}
	for i := range d.Cards {
		add("cards", d.Cards[i].Ref, i, &d.Cards[i].ID)
	}
	for i, c := range d.Comments {
		add("comments", c.Ref, i, &d.Comments[i].ID)
		if c.ReplyTo != nil {
			s[len(s)-1].reply = *c.ReplyTo
		}
	}
	for i, c := range d.Carts {
		for j, it := range c.Items {
			at := recordPlace{kind: "carts", i: i, item: j, name: fmt.Sprintf("the %s item (%s) of cart %s", ordinal(j+1), it.DomainName, c.Ref)}
			s = append(s, idSlot{at: at, kind: "cart_items", id: &d.Carts[i].Items[j].ID})
		}
	}
	return s
}

// renumber gives each record its id: staging's when the base world does not hold it and no
// record before it in the file keeps it, else the lowest free one (a reply's above its
// parent's, as the mock requires). A record no id is free for is left out, with a note (D197).
// Without Taken nothing keeps an id, and the loader numbers every record.
func (b *scenarioBuilder) renumber() {
	if b.taken == nil {
		return
	}
	slots := b.idSlots()
	a := &idAllocator{taken: b.taken, reserved: map[string]map[int64]int{}, next: map[string]int64{}, asked: map[string]int{}}
	for i, s := range slots {
		if *s.id == nil || b.taken(s.kind, **s.id) {
			continue
		}
		if a.reserved[s.kind] == nil {
			a.reserved[s.kind] = map[int64]int{}
		}
		if _, dup := a.reserved[s.kind][**s.id]; !dup {
			a.reserved[s.kind][**s.id] = i
		}
	}
	b.moved = map[*int64]string{}
	commentIDs := map[string]*int64{} // a comment's ref → its id as written
	moves := map[string][]string{}
	drop := map[string]map[int]map[int]bool{}
	for i, s := range slots {
		floor := int64(0)
		if p := commentIDs[s.reply]; s.reply != "" && p != nil {
			floor = *p
		}
		written := true
		if why := a.keepsOwn(i, s, floor); why != "" {
			written = b.moveID(a, s, floor, why, moves, drop)
		}
		if s.kind == "comments" && written {
			commentIDs[s.ref] = *s.id
		}
	}
	b.drop(drop)
	for kind, list := range moves {
		b.noteMoves(kind, list)
	}
}

// keepsOwn tells why slot i cannot keep staging's id ("" when it keeps it); floor is the id
// its own must pass (a reply's parent's).
func (a *idAllocator) keepsOwn(i int, s idSlot, floor int64) string {
	switch {
	case *s.id == nil:
		return "staging showing none"
	case a.taken(s.kind, **s.id):
		return fmt.Sprintf("staging's id %d being the base world's", **s.id)
	case a.reserved[s.kind][**s.id] != i:
		return fmt.Sprintf("staging's id %d being an earlier recorded record's", **s.id)
	case **s.id <= floor:
		return fmt.Sprintf("staging's id %d not coming after its parent's, %d (a reply comes after its parent)", **s.id, floor)
	}
	return ""
}

// moveID writes slot s under the lowest free id above floor, or leaves it out when none is
// free (false); why says why staging's id is not kept.
func (b *scenarioBuilder) moveID(a *idAllocator, s idSlot, floor int64, why string, moves map[string][]string, drop map[string]map[int]map[int]bool) bool {
	id, none := a.alloc(s.kind, floor)
	if none != "" {
		b.changes[fmt.Sprintf("%s left out of the recording: no id is free for it, %s (%s)", s.at.name, why, none)] = true
		if drop[s.at.kind] == nil {
			drop[s.at.kind] = map[int]map[int]bool{}
		}
		if drop[s.at.kind][s.at.i] == nil {
			drop[s.at.kind][s.at.i] = map[int]bool{}
		}
		drop[s.at.kind][s.at.i][s.at.item] = true
		return false
	}
	if *s.id != nil {
		b.moved[&id] = why
		name := s.ref
		if name == "" {
			name = s.at.name
		}
		moves[s.kind] = append(moves[s.kind], fmt.Sprintf("%s as %d (%s)", name, id, why))
	}
	*s.id = &id
	return true
}

// noteMoves says in one note which records of kind took new ids (D176), five of them by name.
func (b *scenarioBuilder) noteMoves(kind string, list []string) {
	more := ""
	if len(list) > 5 {
		more = fmt.Sprintf(", and %d more", len(list)-5)
		list = list[:5]
	}
	b.changes[fmt.Sprintf("%s: records written under free ids in place of staging's: %s%s", strings.ReplaceAll(kind, "_", " "), strings.Join(list, ", "), more)] = true
}

// idOf is the id field of the record at a place in the file (nil: none, or no such place).
func (b *scenarioBuilder) idOf(at recordPlace) *int64 {
	d := &b.doc
	in := func(n int) bool { return at.i >= 0 && at.i < n }
	switch {
	case at.kind == "boards" && in(len(d.Boards)):
		return d.Boards[at.i].ID
	case at.kind == "groups" && in(len(d.Groups)):
		return d.Groups[at.i].ID
	case at.kind == "tags" && in(len(d.Tags)):
		return d.Tags[at.i].ID
	case at.kind == "cards" && in(len(d.Cards)):
		return d.Cards[at.i].ID
	case at.kind == "comments" && in(len(d.Comments)):
		return d.Comments[at.i].ID
	case at.kind == "carts" && in(len(d.Carts)) && at.item >= 0 && at.item < len(d.Carts[at.i].Items):
		return d.Carts[at.i].Items[at.item].ID
	}
	return nil
}

// movedWords says, for a problem of the mock with a record's id, the id the file gave it when
// it is not staging's: the mock's problem names the id as written, or none ("id must be … at
// most …"), which read as blaming staging's valid one. Other problems are the record's own.
func (b *scenarioBuilder) movedWords(at recordPlace, problem string) string {
	id := b.idOf(at)
	why, ok := b.moved[id]
	if id == nil || !ok || !idProblem.MatchString(problem) {
		return ""
	}
	return fmt.Sprintf("; it was written as id %d, %s", *id, why)
}

// idProblem finds a loader's problem with a record's id: "cards[0] (card-1): id must be …",
// "… (card-1): id 9: the world already has …", "… items[0].id: 9: …".
var idProblem = regexp.MustCompile(`\): id\b|\]\.id: `)

// ordinal words a position in a list (1 → "1st"): an item's place in its cart, not its id.
func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return strconv.Itoa(n) + suffix
}
