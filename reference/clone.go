package reference

import (
	"slices"
	"time"
)

// Deep copies of records. Stored records share no memory with what callers hold: every value
// going in or out of the Store passes through one of these.

// ptr returns a pointer to a copy of v.
func ptr[T any](v T) *T { return &v }

// clonePtr returns a pointer to a copy of *p, or nil.
func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// utc returns t in UTC truncated to the second, without a monotonic reading (D9).
func utc(t time.Time) time.Time { return t.UTC().Truncate(time.Second) }

// utcPtr is utc for an optional time.
func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	return ptr(utc(*t))
}

func cloneProject(p Project) Project {
	p.Tools = slices.Clone(p.Tools)
	return p
}

func cloneUser(u User) User {
	u.Language = clonePtr(u.Language)
	return u
}

func cloneBoard(b Board) Board {
	b.ProjectID = clonePtr(b.ProjectID)
	b.MasterBoardID = clonePtr(b.MasterBoardID)
	b.ToolKey = clonePtr(b.ToolKey)
	b.Description = clonePtr(b.Description)
	b.Color = clonePtr(b.Color)
	b.Icon = clonePtr(b.Icon)
	b.CreatedBy = clonePtr(b.CreatedBy)
	b.CreatedAt, b.UpdatedAt, b.DeletedAt = utc(b.CreatedAt), utc(b.UpdatedAt), utcPtr(b.DeletedAt)
	return b
}

func cloneGroup(g Group) Group {
	g.ProjectID = clonePtr(g.ProjectID)
	g.MasterGroupID = clonePtr(g.MasterGroupID)
	g.Description = clonePtr(g.Description)
	g.Color = clonePtr(g.Color)
	g.Icon = clonePtr(g.Icon)
	g.CreatedBy = clonePtr(g.CreatedBy)
	g.CreatedAt, g.UpdatedAt, g.DeletedAt = utc(g.CreatedAt), utc(g.UpdatedAt), utcPtr(g.DeletedAt)
	return g
}

func cloneCard(c Card) Card {
	c.ProjectID = clonePtr(c.ProjectID)
	c.MasterCardID = clonePtr(c.MasterCardID)
	c.UniqueIdentifier = clonePtr(c.UniqueIdentifier)
	c.EvaluationCheck = clonePtr(c.EvaluationCheck)
	c.TourKey = clonePtr(c.TourKey)
	c.ShortDescription = clonePtr(c.ShortDescription)
	c.GroupID = clonePtr(c.GroupID)
	c.Description = clonePtr(c.Description)
	c.OwnerID = clonePtr(c.OwnerID)
	c.TagID = clonePtr(c.TagID)
	c.DueDate = utcPtr(c.DueDate)
	c.SnoozedUntil = utcPtr(c.SnoozedUntil)
	c.CreatedBy = clonePtr(c.CreatedBy)
	c.CreatedAt, c.UpdatedAt, c.DeletedAt = utc(c.CreatedAt), utc(c.UpdatedAt), utcPtr(c.DeletedAt)
	return c
}

func cloneComment(c Comment) Comment {
	c.ReadAt = utcPtr(c.ReadAt)
	c.ParentCommentID = clonePtr(c.ParentCommentID)
	c.CreatedAt, c.UpdatedAt, c.DeletedAt = utc(c.CreatedAt), utc(c.UpdatedAt), utcPtr(c.DeletedAt)
	return c
}

// commentPage copies the stored comments ids name into a page, as cloneComment would, but with
// their optional times and parent ids in two shared backing arrays instead of an allocation
// each: the page shares no memory with the store, and a page of 15 costs 3 allocations, not
// up to 45.
func (s *Store) commentPage(ids []int64) []Comment {
	out := make([]Comment, len(ids))
	nTimes, nParents := 0, 0
	for _, id := range ids {
		c := s.comments[id]
		nTimes += countSet(c.ReadAt) + countSet(c.DeletedAt)
		nParents += countSet(c.ParentCommentID)
	}
	times := make([]time.Time, 0, nTimes)
	parents := make([]int64, 0, nParents)
	at := func(t *time.Time) *time.Time {
		if t == nil {
			return nil
		}
		times = append(times, utc(*t)) // never grows past its capacity, so earlier pointers hold
		return &times[len(times)-1]
	}
	for i, id := range ids {
		c := s.comments[id]
		c.ReadAt, c.DeletedAt = at(c.ReadAt), at(c.DeletedAt)
		if c.ParentCommentID != nil {
			parents = append(parents, *c.ParentCommentID)
			c.ParentCommentID = &parents[len(parents)-1]
		}
		c.CreatedAt, c.UpdatedAt = utc(c.CreatedAt), utc(c.UpdatedAt)
		out[i] = c
	}
	return out
}

// countSet is 1 for a pointer that is set, else 0.
func countSet[T any](p *T) int {
	if p == nil {
		return 0
	}
	return 1
}

func cloneTag(t Tag) Tag {
	t.Color = clonePtr(t.Color)
	t.Icon = clonePtr(t.Icon)
	t.CreatedBy = clonePtr(t.CreatedBy)
	t.CreatedAt, t.UpdatedAt, t.DeletedAt = utc(t.CreatedAt), utc(t.UpdatedAt), utcPtr(t.DeletedAt)
	return t
}

func cloneConversation(c Conversation) Conversation {
	c.UpdatedAt = utc(c.UpdatedAt)
	return c
}

// cloneCart copies a cart; Items is never nil so that it encodes as [].
func cloneCart(c Cart) Cart {
	items := make([]CartItem, len(c.Items))
	copy(items, c.Items)
	c.Items = items
	return c
}

func cloneRegeneration(r Regeneration) Regeneration {
	r.At = utc(r.At)
	return r
}

func cloneToken(t Token) Token {
	t.IssuedAt = utc(t.IssuedAt)
	return t
}
