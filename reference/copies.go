package reference

import (
	"slices"
	"time"
)

// Project copies of master records (D23): a project subscribed to a master board's tool_key
// gets a copy of the board (master_board_id set), of its groups (master_group_id set) and of
// its cards (master_card_id set), each last in its container as a create puts a record (D45).
// A soft-deleted copy counts as missing.

// copyKey names the copy of a master record in a project.
type copyKey struct{ project, master int64 }

// subscribers returns the projects subscribed to tool, by id, and how many are not (D24).
func (s *Store) subscribers(tool *string) (subscribed []int64, skipped int64) {
	for _, id := range sortedKeys(s.projects) {
		if s.subscribed(id, tool) {
			subscribed = append(subscribed, id)
		} else {
			skipped++
		}
	}
	return subscribed, skipped
}

// subscribed tells whether project subscribes to tool.
func (s *Store) subscribed(project int64, tool *string) bool {
	p, ok := s.projects[project]
	return ok && tool != nil && slices.Contains(p.Tools, *tool)
}

// ensureBoardCopy returns the project's live copy of master board mb, creating it when
// missing; created tells which.
func (s *Store) ensureBoardCopy(project int64, mb Board, by int64, now time.Time) (b Board, created bool) {
	var found, top int64
	for id, b := range s.boards {
		if b.IsMaster || !inProject(b.ProjectID, project) || b.DeletedAt != nil {
			continue
		}
		top = max(top, b.Position)
		if b.MasterBoardID != nil && *b.MasterBoardID == mb.ID && (found == 0 || id < found) {
			found = id
		}
	}
	if found != 0 {
		return s.boards[found], false
	}
	b = Board{
		ID: s.next.board, ProjectID: ptr(project), PlatformID: PlatformID,
		MasterBoardID: ptr(mb.ID), ToolKey: clonePtr(mb.ToolKey), Title: mb.Title,
		Description: clonePtr(mb.Description), Color: clonePtr(mb.Color), Icon: clonePtr(mb.Icon),
		Position: nextPosition(top), IsActive: mb.IsActive, CreatedBy: ptr(by), CreatedAt: now, UpdatedAt: now,
	}
	s.next.board++
	put(s, s.boards, b.ID, b)
	return b, true
}

// ensureGroupCopy returns the project's live copy of master group mg, creating it (and the
// copy of its board) when missing; boardCreated tells whether a board copy was made.
func (s *Store) ensureGroupCopy(project int64, mg Group, by int64, now time.Time) (g Group, boardCreated bool) {
	board, boardCreated := s.ensureBoardCopy(project, s.boards[mg.BoardID], by, now)
	var found, top int64
	for id, g := range s.groups {
		if g.IsMaster || !inProject(g.ProjectID, project) || g.DeletedAt != nil {
			continue
		}
		if g.BoardID == board.ID {
			top = max(top, g.Position)
		}
		if g.MasterGroupID != nil && *g.MasterGroupID == mg.ID && (found == 0 || id < found) {
			found = id
		}
	}
	if found != 0 {
		return s.groups[found], boardCreated
	}
	g = Group{
		ID: s.next.group, ProjectID: ptr(project), PlatformID: PlatformID,
		MasterGroupID: ptr(mg.ID), BoardID: board.ID, Title: mg.Title,
		Description: clonePtr(mg.Description), Type: mg.Type, Color: clonePtr(mg.Color),
		Icon: clonePtr(mg.Icon), Position: nextPosition(top), IsCollapsed: mg.IsCollapsed,
		IsActive: mg.IsActive, CreatedBy: ptr(by), CreatedAt: now, UpdatedAt: now,
	}
	s.next.group++
	put(s, s.groups, g.ID, g)
	return g, boardCreated
}

// copyCard creates the project's copy of master card mc, last in group (D45).
func (s *Store) copyCard(project int64, mc Card, group, by int64, now time.Time) Card {
	pos := s.nextCardPosition(ptr(project), ptr(group))
	c := Card{
		ID: s.next.card, ProjectID: ptr(project), PlatformID: PlatformID, IsActive: mc.IsActive,
		MasterCardID: ptr(mc.ID), UniqueIdentifier: clonePtr(mc.UniqueIdentifier),
		EvaluationCheck: clonePtr(mc.EvaluationCheck), TourKey: clonePtr(mc.TourKey),
		ShortDescription: clonePtr(mc.ShortDescription), CardType: mc.CardType,
		GroupID: ptr(group), Title: mc.Title, Description: clonePtr(mc.Description),
		Status: mc.Status, Priority: mc.Priority, SortOrder: pos, Position: pos,
		CreatedBy: ptr(by), CreatedAt: now, UpdatedAt: now,
	}
	s.next.card++
	s.putCard(c)
	return c
}

// cardCopies indexes the live project copies of master cards.
func (s *Store) cardCopies() map[copyKey]bool {
	idx := map[copyKey]bool{}
	for _, c := range s.cards {
		if !c.IsMaster && c.ProjectID != nil && c.MasterCardID != nil && c.DeletedAt == nil {
			idx[copyKey{*c.ProjectID, *c.MasterCardID}] = true
		}
	}
	return idx
}

// masterContent returns the live groups of master board mb by id, and for each its live master
// cards by id.
func (s *Store) masterContent(mb Board) ([]Group, map[int64][]Card) {
	var groups []Group
	cards := map[int64][]Card{}
	for _, id := range sortedKeys(s.groups) {
		if g := s.groups[id]; g.IsMaster && g.BoardID == mb.ID && g.DeletedAt == nil {
			groups = append(groups, g)
		}
	}
	for _, id := range sortedKeys(s.cards) {
		if c := s.cards[id]; c.IsMaster && c.DeletedAt == nil && c.GroupID != nil {
			cards[*c.GroupID] = append(cards[*c.GroupID], c)
		}
	}
	return groups, cards
}

// pushMasterCard copies a new master card into every project subscribed to its board's tool,
// creating board and group copies first (D23). It returns the number of projects (D22).
func (s *Store) pushMasterCard(mc Card, by int64, now time.Time) int64 {
	if mc.GroupID == nil {
		return 0
	}
	mg := s.groups[*mc.GroupID]
	if mb, ok := s.boards[mg.BoardID]; !ok || mb.DeletedAt != nil {
		return 0
	}
	projects, _ := s.subscribers(s.boards[mg.BoardID].ToolKey)
	for _, p := range projects {
		g, _ := s.ensureGroupCopy(p, mg, by, now)
		s.copyCard(p, mc, g.ID, by, now)
	}
	return int64(len(projects))
}
