package reference

import "time"

// Card defaults (D19) and the card_type of cards made by cards/create and master cards (D32).
const (
	defaultStatus   = "open"
	defaultPriority = "normal"
	defaultCardType = "widget"
	closedStatus    = "closed"
)

// isOverdue is computed on read: due before now and not closed (D31).
func isOverdue(c Card, now time.Time) bool {
	return c.DueDate != nil && c.DueDate.Before(now) && c.Status != closedStatus
}

// cardOut is the copy of a stored card handed to a caller, with is_overdue computed (D31).
func cardOut(c Card, now time.Time) Card {
	c = cloneCard(c)
	c.IsOverdue = isOverdue(c, now)
	return c
}

// ListCards returns the live cards of the caller's project, by id (D12, D20). Master cards and
// deleted cards are not listed.
func (s *Store) ListCards(userID int64) ([]Card, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	project, err := s.member(userID)
	if err != nil {
		return nil, err
	}
	now := s.now()
	out := []Card{}
	for _, id := range sortedKeys(s.cards) {
		c := s.cards[id]
		if !c.IsMaster && inProject(c.ProjectID, project) && c.DeletedAt == nil {
			out = append(out, cardOut(c, now))
		}
	}
	return out, nil
}

// CreateCard creates a card in the caller's project. status defaults to open and priority to
// normal (D19); group_id, owner_id and tag_id must exist in the caller's project, else
// ENOTFOUND (D28).
func (s *Store) CreateCard(userID int64, in CreateCardInput) (Card, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	project, err := s.member(userID)
	if err != nil {
		return Card{}, err
	}
	var f fieldErrors
	f.notBlank("title", in.Title)
	f.optNotBlank("status", in.Status) // a blank status is none, as a snapshot's rules say (D44, D76)
	f.optDateTime("due_date", in.DueDate)
	if err := f.err(); err != nil {
		return Card{}, err
	}
	if err := s.checkCardRefs(project, in.GroupID, in.OwnerID, in.TagID); err != nil {
		return Card{}, err
	}
	if err := s.checkRecordLimit(project, cardIDs); err != nil {
		return Card{}, err
	}
	now := s.now()
	group := optPtr(in.GroupID)
	pos := s.nextCardPosition(ptr(project), group)
	c := Card{
		ID: s.next.card, ProjectID: ptr(project), PlatformID: PlatformID, IsActive: true,
		CardType: defaultCardType, GroupID: group, Title: in.Title,
		Description: optPtr(in.Description), Status: orDefault(in.Status, defaultStatus),
		OwnerID: optPtr(in.OwnerID), TagID: optPtr(in.TagID), DueDate: optTime(in.DueDate),
		Priority: orDefault(in.Priority, defaultPriority), SortOrder: pos, Position: pos,
		CreatedBy: ptr(userID), CreatedAt: now, UpdatedAt: now,
	}
	s.next.card++
	s.putCard(c)
	return cardOut(c, now), nil
}

// UpdateCard changes a card of the caller's project following D18: omitted fields stay, null
// clears description, group_id, owner_id, tag_id, due_date and snoozed_until, and leaves
// title, status and priority unchanged. New references must exist in the project (D28). A card
// moved to another group goes last in it (D45).
func (s *Store) UpdateCard(userID int64, in UpdateCardInput) (Card, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	project, err := s.member(userID)
	if err != nil {
		return Card{}, err
	}
	var f fieldErrors
	f.optNotBlank("title", in.Title)
	f.optNotBlank("status", in.Status)
	f.optDateTime("due_date", in.DueDate)
	f.optDateTime("snoozed_until", in.SnoozedUntil)
	if err := f.err(); err != nil {
		return Card{}, err
	}
	c, err := s.projectCard(project, in.ID)
	if err != nil {
		return Card{}, err
	}
	if err := s.checkCardRefs(project, in.GroupID, in.OwnerID, in.TagID); err != nil {
		return Card{}, err
	}
	group := c.GroupID
	setClearable(&group, in.GroupID)
	s.moveCard(&c, group)
	setRequired(&c.Title, in.Title)
	setClearable(&c.Description, in.Description)
	setRequired(&c.Status, in.Status)
	setClearable(&c.OwnerID, in.OwnerID)
	setClearable(&c.TagID, in.TagID)
	setClearableTime(&c.DueDate, in.DueDate)
	setRequired(&c.Priority, in.Priority)
	setClearableTime(&c.SnoozedUntil, in.SnoozedUntil)
	now := s.now()
	c.UpdatedAt = now
	s.putCard(c)
	return cardOut(c, now), nil
}

// moveCard puts c in group (nil: in no group). A card that changes group goes last in the new
// one, position and sort_order alike (D45); the cards it leaves keep their positions.
func (s *Store) moveCard(c *Card, group *int64) {
	if sameGroup(c.GroupID, group) {
		return
	}
	c.GroupID = group
	pos := s.nextCardPosition(c.ProjectID, group)
	c.Position, c.SortOrder = pos, pos
}

// sameGroup reports whether two group links name the same group (or both none).
func sameGroup(a, b *int64) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// checkCardRefs checks that the group, owner and tag sent exist in project (D28).
func (s *Store) checkCardRefs(project int64, group, owner, tag Optional[int64]) error {
	if group.Present() {
		if _, err := s.projectGroup(project, group.Value); err != nil {
			return err
		}
	}
	if owner.Present() {
		if _, err := s.projectUser(project, owner.Value); err != nil {
			return err
		}
	}
	if tag.Present() {
		if _, err := s.projectTag(project, tag.Value); err != nil {
			return err
		}
	}
	return nil
}
