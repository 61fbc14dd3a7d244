package reference

import (
	"cmp"
	"crypto/rand"
	"fmt"
	"slices"
	"sync"
	"time"
)

// Store is the in-memory state of a deployment and the operations on it. It is safe for
// concurrent use: one RWMutex guards every map, records are stored as values and copied in and
// out, and a pointer field of a stored record is never mutated in place (it is replaced).
type Store struct {
	mu  sync.RWMutex
	cfg config
	// dangling are the broken references load found, reported together at its end.
	dangling []string

	projects      map[int64]Project
	users         map[int64]User
	emails        map[string]int64 // normalised e-mail → user id
	tokens        map[string]int64 // bearer token → user id (D10)
	tokenLog      []Token          // issue order, for State
	boards        map[int64]Board
	groups        map[int64]Group
	cards         map[int64]Card
	comments      map[int64]Comment
	cardComments  map[int64][]int64 // card id → live comment ids, oldest first (D26)
	tags          map[int64]Tag
	conversations map[int64]Conversation
	carts         map[string]Cart
	cartOrder     []string // load order of session tokens, for State
	entities      map[entityKey]WebsiteEntity
	themes        map[int64]ThemeVersion
	regenerations map[int64][]Regeneration // project id → accepted regenerations, oldest first (D15)
	loginFailures map[string]Window        // normalised e-mail → failed logins in the window (D71)

	next nextIDs
	idx  storeIndex // position and record-count indexes (index.go)
	size footprint  // about how many bytes the records hold (footprint.go)
}

// nextIDs holds the next id of each kind the store creates: one more than the largest in use.
type nextIDs struct {
	board, group, card, comment, tag int64
}

// entityKey identifies a website entity: ids are unique per type.
type entityKey struct {
	Type string
	ID   int64
}

// New loads a deep copy of state into a new Store, checking that its references hold (every
// project, user, board, group, card, tag and comment a record names exists, in the same
// project). Timestamps are normalised to UTC, truncated to the second (D9). It returns an error
// naming the first broken record.
func New(state State, opts ...Option) (*Store, error) {
	cfg := config{clock: ClockFunc(time.Now), random: rand.Reader}
	for _, opt := range opts {
		if opt != nil {
			opt(&cfg)
		}
	}
	if cfg.clock == nil {
		cfg.clock = ClockFunc(time.Now)
	}
	if cfg.random == nil {
		cfg.random = rand.Reader
	}
	s := &Store{
		cfg:           cfg,
		projects:      map[int64]Project{},
		users:         map[int64]User{},
		emails:        map[string]int64{},
		tokens:        map[string]int64{},
		boards:        map[int64]Board{},
		groups:        map[int64]Group{},
		cards:         map[int64]Card{},
		comments:      map[int64]Comment{},
		cardComments:  map[int64][]int64{},
		tags:          map[int64]Tag{},
		conversations: map[int64]Conversation{},
		carts:         map[string]Cart{},
		entities:      map[entityKey]WebsiteEntity{},
		themes:        map[int64]ThemeVersion{},
		regenerations: map[int64][]Regeneration{},
		loginFailures: map[string]Window{},
	}
	if err := s.load(state); err != nil {
		return nil, fmt.Errorf("load state: %w", err)
	}
	s.measureLocked()
	return s, nil
}

// State exports a deep copy of the whole state, each kind ordered by id. New(s.State()) gives
// a store with the same content.
func (s *Store) State() State {
	s.mu.RLock()
	defer s.mu.RUnlock()
	st := State{
		Projects:      sortedValues(s.projects, cloneProject, func(p Project) int64 { return p.ID }),
		Users:         sortedValues(s.users, cloneUser, func(u User) int64 { return u.ID }),
		Tokens:        slices.Clone(s.tokenLog),
		Boards:        sortedValues(s.boards, cloneBoard, func(b Board) int64 { return b.ID }),
		Groups:        sortedValues(s.groups, cloneGroup, func(g Group) int64 { return g.ID }),
		Cards:         sortedValues(s.cards, cloneCard, func(c Card) int64 { return c.ID }),
		Comments:      sortedValues(s.comments, cloneComment, func(c Comment) int64 { return c.ID }),
		Tags:          sortedValues(s.tags, cloneTag, func(t Tag) int64 { return t.ID }),
		Conversations: sortedValues(s.conversations, same[Conversation], func(c Conversation) int64 { return c.ID }),
		Carts:         make([]Cart, 0, len(s.cartOrder)),
		ThemeVersions: sortedValues(s.themes, same[ThemeVersion], func(v ThemeVersion) int64 { return v.VersionID }),
		Regenerations: []Regeneration{},
	}
	if st.Tokens == nil {
		st.Tokens = []Token{}
	}
	for _, token := range s.cartOrder {
		st.Carts = append(st.Carts, cloneCart(s.carts[token]))
	}
	st.Entities = make([]WebsiteEntity, 0, len(s.entities))
	for _, e := range s.entities {
		st.Entities = append(st.Entities, e)
	}
	slices.SortFunc(st.Entities, func(a, b WebsiteEntity) int {
		return cmp.Or(cmp.Compare(a.ID, b.ID), cmp.Compare(a.Type, b.Type))
	})
	for _, project := range sortedKeys(s.regenerations) {
		st.Regenerations = append(st.Regenerations, s.regenerations[project]...)
	}
	return st
}

// now is the time of a write: the store's clock in UTC, second precision (D9, D39).
func (s *Store) now() time.Time { return utc(s.cfg.clock.Now()) }

// windowNow is the time the login and thumbnail windows are measured on: the clock's
// WindowNow where it has one, else now.
func (s *Store) windowNow() time.Time {
	if c, ok := s.cfg.clock.(windowClock); ok {
		return utc(c.WindowNow())
	}
	return s.now()
}

// sortedValues returns clones of the values of m ordered by id, never nil.
func sortedValues[T any](m map[int64]T, clone func(T) T, id func(T) int64) []T {
	out := make([]T, 0, len(m))
	for _, v := range m {
		out = append(out, clone(v))
	}
	slices.SortFunc(out, func(a, b T) int { return cmp.Compare(id(a), id(b)) })
	return out
}

// sortedKeys returns the keys of m in ascending order.
func sortedKeys[T any](m map[int64]T) []int64 {
	keys := make([]int64, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// same is the clone of a record without pointer or slice fields.
func same[T any](v T) T { return v }
