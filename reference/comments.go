package reference

import (
	"slices"
	"strconv"
)

// Comment list defaults (D26).
const (
	defaultPage    = 1
	defaultPerPage = 15
)

// ListComments returns one page of the live comments of a card of the caller's project, oldest
// first, replies included (D26). page defaults to 1 and per_page to 15; total_pages is at
// least 1 and a page past the end is empty. A page costs per_page, not the number of comments.
func (s *Store) ListComments(userID int64, in ListCommentsInput) (CommentPage, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	project, err := s.member(userID)
	if err != nil {
		return CommentPage{}, err
	}
	page, perPage := orDefault(in.Page, defaultPage), orDefault(in.PerPage, defaultPerPage)
	// The page arithmetic below needs these bounds, so the store keeps them even though the
	// request schema checks them first.
	var f fieldErrors
	switch {
	case page < 1:
		f.add("page", MsgMin("page", "1"))
	case page > maxID: // echoed as current_page, which a JavaScript client must read exactly (D26)
		f.add("page", MsgMax("page", strconv.FormatInt(maxID, 10)))
	}
	switch {
	case perPage < 1:
		f.add("per_page", MsgMin("per_page", "1"))
	case perPage > maxPerPage:
		f.add("per_page", MsgMax("per_page", strconv.Itoa(maxPerPage)))
	}
	if err := f.err(); err != nil {
		return CommentPage{}, err
	}
	// comments/list lists no 404: a card that is not the caller's fails the card_id rule (D43).
	if _, err := s.projectCard(project, in.CardID); err != nil {
		return CommentPage{}, InvalidField("card_id", MsgSelected("card_id"))
	}
	ids := s.cardComments[in.CardID]
	total := int64(len(ids))
	pages := max(1, (total+perPage-1)/perPage)
	out := CommentPage{
		Comments:   []Comment{},
		Pagination: Pagination{Total: total, PerPage: perPage, CurrentPage: page, TotalPages: pages},
	}
	if page <= pages { // checked first: (page-1)*perPage cannot overflow
		start := (page - 1) * perPage
		end := min(start+perPage, total)
		out.Comments = s.commentPage(ids[start:end])
	}
	return out, nil
}

// CreateComment adds a comment to a card of the caller's project. A reply's parent must be a
// live comment on the same card, else ENOTFOUND (D27).
func (s *Store) CreateComment(userID int64, in CreateCommentInput) (Comment, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	project, err := s.member(userID)
	if err != nil {
		return Comment{}, err
	}
	var f fieldErrors
	f.notBlank("comment", in.Comment)
	if err := f.err(); err != nil {
		return Comment{}, err
	}
	if _, err := s.projectCard(project, in.CardID); err != nil {
		return Comment{}, err
	}
	if err := s.checkRecordLimit(project, commentIDs); err != nil {
		return Comment{}, err
	}
	if in.ParentCommentID.Present() {
		p, ok := s.comments[in.ParentCommentID.Value]
		if !ok || p.CardID != in.CardID || p.DeletedAt != nil {
			return Comment{}, Errorf(ENOTFOUND, "Comment %d not found on card %d.", in.ParentCommentID.Value, in.CardID)
		}
	}
	now := s.now()
	c := Comment{
		ID: s.next.comment, ProjectID: project, CardID: in.CardID, UserID: userID,
		Comment: in.Comment, ParentCommentID: optPtr(in.ParentCommentID),
		CreatedAt: now, UpdatedAt: now,
	}
	s.next.comment++
	put(s, s.comments, c.ID, c)
	s.countRecord(project)
	s.indexComment(c)
	return cloneComment(c), nil
}

// indexComment puts a new comment in its card's list, keeping it oldest first even when the
// clock was moved back.
func (s *Store) indexComment(c Comment) {
	ids := s.cardComments[c.CardID]
	i := len(ids)
	for i > 0 && s.compareComments(ids[i-1], c.ID) > 0 {
		i--
	}
	put(s, s.cardComments, c.CardID, slices.Insert(ids, i, c.ID))
}
