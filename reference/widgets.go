package reference

import "slices"

// ListWidgetCards lists the caller's project's live, active cards on live boards of a tool
// (card → group → board, D29); deactivated cards (is_active false) are left out and not
// counted (D77). The project must subscribe to the tool, else EFORBIDDEN (D13). Cards
// snoozed into the future are left out unless include_snoozed is true (default false) and
// always counted in snoozed_count (D29).
func (s *Store) ListWidgetCards(userID int64, in ListWidgetCardsInput) (WidgetCards, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	project, err := s.member(userID)
	if err != nil {
		return WidgetCards{}, err
	}
	var f fieldErrors
	f.notBlank("tool_key", in.ToolKey)
	if err := f.err(); err != nil {
		return WidgetCards{}, err
	}
	if !slices.Contains(s.projects[project].Tools, in.ToolKey) {
		return WidgetCards{}, Errorf(EFORBIDDEN, "Your project does not subscribe to the tool %q.", in.ToolKey)
	}
	now := s.now()
	include := orDefault(in.IncludeSnoozed, false)
	out := WidgetCards{Cards: []Card{}}
	for _, id := range sortedKeys(s.cards) {
		c := s.cards[id]
		if !s.onToolBoard(c, project, in.ToolKey) {
			continue
		}
		snoozed := c.SnoozedUntil != nil && c.SnoozedUntil.After(now)
		if snoozed {
			out.SnoozedCount++
		}
		if !snoozed || include {
			out.Cards = append(out.Cards, cardOut(c, now))
		}
	}
	return out, nil
}

// onToolBoard reports whether c is a live, active card of project in a live group on a live board of
// tool.
func (s *Store) onToolBoard(c Card, project int64, tool string) bool {
	if c.IsMaster || !c.IsActive || !inProject(c.ProjectID, project) || c.DeletedAt != nil || c.GroupID == nil {
		return false
	}
	g, ok := s.groups[*c.GroupID]
	if !ok || g.DeletedAt != nil {
		return false
	}
	b, ok := s.boards[g.BoardID]
	return ok && b.DeletedAt == nil && inProject(b.ProjectID, project) && b.ToolKey != nil && *b.ToolKey == tool
}
