package reference

// Indexes that keep the hot writes from scanning every card: the next card position of a
// (project, group) and the number of records of each project (WithMaxRecordsPerProject). Both
// are built on first use from the maps, then kept up to date by putCard and countRecord, so a
// write costs the same with 0 or 100k cards (docs/performance.md).

// posKey is where a card's position counts: its project (none for masters) and group (none).
type posKey struct {
	hasProject, hasGroup bool
	project, group       int64
}

func keyOf(c Card) posKey {
	k := posKey{hasProject: c.ProjectID != nil, hasGroup: c.GroupID != nil}
	if k.hasProject {
		k.project = *c.ProjectID
	}
	if k.hasGroup {
		k.group = *c.GroupID
	}
	return k
}

// storeIndex holds the indexes; a nil map is not built yet.
type storeIndex struct {
	positions map[posKey]map[int64]int // live cards per position, per key
	tops      map[posKey]int64         // largest live position per key, when known
	records   map[int64]int            // cards, comments and tags per project
}

// putCard stores c, keeping the position index in step.
func (s *Store) putCard(c Card) {
	old, existed := s.cards[c.ID]
	put(s, s.cards, c.ID, c)
	if !existed && s.idx.records != nil {
		if c.ProjectID != nil {
			s.idx.records[*c.ProjectID]++
		} else if c.IsMaster {
			s.idx.records[masterRecords]++
		}
	}
	if s.idx.positions == nil {
		return
	}
	if existed && old.DeletedAt == nil {
		s.unplace(keyOf(old), old.Position)
	}
	if c.DeletedAt == nil {
		s.place(keyOf(c), c.Position)
	}
}

func (s *Store) place(k posKey, pos int64) {
	m := s.idx.positions[k]
	if m == nil {
		m = map[int64]int{}
		s.idx.positions[k] = m
	}
	m[pos]++
	if top, ok := s.idx.tops[k]; ok && pos > top {
		s.idx.tops[k] = pos
	}
}

func (s *Store) unplace(k posKey, pos int64) {
	m := s.idx.positions[k]
	if m[pos]--; m[pos] <= 0 {
		delete(m, pos)
		if top, ok := s.idx.tops[k]; ok && top == pos {
			delete(s.idx.tops, k) // recomputed from this key's positions when next asked
		}
	}
}

// nextCardPosition is one more than the largest position of the live cards of a group (or of
// the cards without a group) in a project or among masters.
func (s *Store) nextCardPosition(project, group *int64) int64 {
	if s.idx.positions == nil {
		s.idx.positions, s.idx.tops = map[posKey]map[int64]int{}, map[posKey]int64{}
		for _, c := range s.cards {
			if c.DeletedAt == nil {
				s.place(keyOf(c), c.Position)
			}
		}
	}
	k := keyOf(Card{ProjectID: project, GroupID: group})
	top, ok := s.idx.tops[k]
	if !ok {
		for pos := range s.idx.positions[k] {
			top = max(top, pos)
		}
		s.idx.tops[k] = top
	}
	return nextPosition(top)
}

// masterRecords is the bucket of the record count (D70) that holds the master boards, groups
// and cards: project ids start at 1. Counting them bounds what copies a push or a sync can add
// to a project too (at most one per master card).
const masterRecords int64 = 0

// projectRecords is the number of cards, comments and tags of project; of masterRecords, the
// number of master boards, groups and cards.
func (s *Store) projectRecords(project int64) int {
	if s.idx.records == nil {
		s.idx.records = map[int64]int{}
		for _, c := range s.cards {
			if c.ProjectID != nil {
				s.idx.records[*c.ProjectID]++
			} else if c.IsMaster {
				s.idx.records[masterRecords]++
			}
		}
		for _, b := range s.boards {
			if b.IsMaster {
				s.idx.records[masterRecords]++
			}
		}
		for _, g := range s.groups {
			if g.IsMaster {
				s.idx.records[masterRecords]++
			}
		}
		for _, c := range s.comments {
			s.idx.records[c.ProjectID]++
		}
		for _, t := range s.tags {
			s.idx.records[t.ProjectID]++
		}
	}
	return s.idx.records[project]
}

// countRecord counts a new comment or tag of project.
func (s *Store) countRecord(project int64) {
	if s.idx.records != nil {
		s.idx.records[project]++
	}
}

// idKind is a kind of record the store numbers, by the plural the messages use.
type idKind string

const (
	boardIDs   idKind = "boards"
	groupIDs   idKind = "groups"
	cardIDs    idKind = "cards"
	commentIDs idKind = "comments"
	tagIDs     idKind = "tags"
)

// of is the next id of kind k.
func (n nextIDs) of(k idKind) int64 {
	switch k {
	case boardIDs:
		return n.board
	case groupIDs:
		return n.group
	case cardIDs:
		return n.card
	case commentIDs:
		return n.comment
	}
	return n.tag
}

// checkIDRoom refuses a write that would hand out n more ids of one of kinds past maxID (D76):
// a world loaded with ids at the ceiling would give the next record an id no JavaScript client
// reads exactly, and its snapshot would no longer load. Each kind is numbered on its own, so
// only the kinds the write hands out count: a card at the ceiling leaves tags room. ECAPACITY,
// as the record cap (D70).
func (s *Store) checkIDRoom(n int64, kinds ...idKind) error {
	for _, k := range kinds {
		if s.next.of(k) > maxID-n+1 {
			return Errorf(ECAPACITY, "This world's %s have reached the largest id the mock hands out (%d, the largest a JavaScript client reads exactly); reset the world or load a snapshot with smaller ids.", k, int64(maxID))
		}
	}
	return nil
}

// checkRecordLimit refuses a new record in a project that holds the maximum set by
// WithMaxRecordsPerProject (D70), and one of kinds (the record's, and its copies') past the
// largest id: ECAPACITY, which the HTTP layer answers 400 shape (a), marked as the mock's own.
func (s *Store) checkRecordLimit(project int64, kinds ...idKind) error {
	if err := s.checkIDRoom(int64(len(s.projects))+1, kinds...); err != nil { // the record, and the copies a push makes
		return err
	}
	limit := s.cfg.maxRecords
	if limit <= 0 || s.projectRecords(project) < limit {
		return nil
	}
	if project == masterRecords {
		return Errorf(ECAPACITY, "The master boards, groups and cards have reached their maximum of %d records; reset the mock or start it with a higher --max-records.", limit)
	}
	return Errorf(ECAPACITY, "The project has reached its maximum of %d records (cards, comments and tags); reset the mock or start it with a higher --max-records.", limit)
}
