package reference

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// load fills an empty store from a deep copy of st, kind by kind in dependency order, after
// checking the rules of every field (load_rules.go), and checks every reference. The first
// broken record is named in the error.
func (s *Store) load(st State) error {
	// The references are checked even where a rule is broken, so that every problem of a
	// snapshot or a scenario is named at once (D76); a record the load cannot take (a
	// duplicate id) ends it with the rules' error.
	rulesErr := checkRecords(st)
	steps := []func(State) error{
		s.loadProjects, s.loadUsers, s.loadTokens, s.loadBoards, s.loadGroups, s.loadTags,
		s.loadCards, s.loadComments, s.loadConversations, s.loadCarts, s.loadEntities,
		s.loadThemes, s.loadRegenerations,
	}
	s.dangling = nil
	defer func() { s.dangling = nil }()
	for _, step := range steps {
		if err := step(st); err != nil {
			if rulesErr != nil {
				return rulesErr
			}
			return err
		}
	}
	refs := listedReferences(s.dangling)
	var re *RulesError
	switch {
	case errors.As(rulesErr, &re):
		re.References = refs
		return re
	case rulesErr != nil:
		return rulesErr
	case refs != nil:
		return refs
	}
	return nil
}

// dangle notes a reference a loaded record breaks, and the load goes on: every broken
// reference of a snapshot or a scenario is reported at once (D76), where the first ended it and
// a user fixed them one run at a time.
func (s *Store) dangle(err error) {
	if err != nil {
		s.dangling = append(s.dangling, err.Error())
	}
}

// insert adds v under a positive, unused id.
func insert[T any](m map[int64]T, kind string, id int64, v T) error {
	if id <= 0 {
		return fmt.Errorf("%s %d: id must be positive", kind, id)
	}
	if _, dup := m[id]; dup {
		return fmt.Errorf("%s %d: duplicate id", kind, id)
	}
	m[id] = v
	return nil
}

// scopeOf describes the project of a record for error messages: "the master records" or
// "project N".
func scopeOf(project *int64) string {
	if project == nil {
		return "the master records"
	}
	return fmt.Sprintf("project %d", *project)
}

// samePtr reports whether two records belong to the same project, or are both masters.
func samePtr(a, b *int64) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// checkScope checks D17: master records have no project, others belong to a known project.
func (s *Store) checkScope(kind string, id int64, isMaster bool, project *int64) error {
	switch {
	case isMaster && project != nil:
		return fmt.Errorf("%s %d: a master record has no project_id", kind, id)
	case !isMaster && project == nil:
		return fmt.Errorf("%s %d: project_id is missing", kind, id)
	case !isMaster:
		if _, ok := s.projects[*project]; !ok {
			return fmt.Errorf("%s %d: project %d does not exist", kind, id, *project)
		}
	}
	return nil
}

// checkUser checks an optional user reference such as created_by.
func (s *Store) checkUser(kind string, id int64, field string, user *int64) error {
	if user == nil {
		return nil
	}
	if _, ok := s.users[*user]; !ok {
		return fmt.Errorf("%s %d: %s %d does not exist", kind, id, field, *user)
	}
	return nil
}

func (s *Store) loadProjects(st State) error {
	for _, p := range st.Projects {
		if err := insert(s.projects, "project", p.ID, cloneProject(p)); err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) loadUsers(st State) error {
	for _, u := range st.Users {
		if err := insert(s.users, "user", u.ID, cloneUser(u)); err != nil {
			return err
		}
		if _, ok := s.projects[u.ProjectID]; !ok {
			return fmt.Errorf("user %d: %s", u.ID, absent("project", "project_id", u.ProjectID))
		}
		email := normalizeEmail(u.Email)
		if email == "" {
			return fmt.Errorf("user %d: e-mail is empty", u.ID)
		}
		if other, dup := s.emails[email]; dup {
			return fmt.Errorf("user %d: e-mail %q is already used by user %d", u.ID, u.Email, other)
		}
		s.emails[email] = u.ID
	}
	return nil
}

func (s *Store) loadTokens(st State) error {
	for _, t := range st.Tokens {
		if t.Token == "" {
			return fmt.Errorf("token of user %d: empty token", t.UserID)
		}
		if _, dup := s.tokens[t.Token]; dup {
			return fmt.Errorf("token of user %d: duplicate token", t.UserID)
		}
		if _, ok := s.users[t.UserID]; !ok {
			return fmt.Errorf("token: %s", absent("user", "user_id", t.UserID))
		}
		s.tokens[t.Token] = t.UserID
		s.tokenLog = append(s.tokenLog, cloneToken(t))
	}
	return nil
}

func (s *Store) loadBoards(st State) error {
	for _, b := range st.Boards {
		if err := insert(s.boards, "board", b.ID, cloneBoard(b)); err != nil {
			return err
		}
		s.next.board = max(s.next.board, b.ID)
	}
	s.next.board++
	for _, b := range st.Boards {
		s.dangle(s.checkScope("board", b.ID, b.IsMaster, b.ProjectID))
		s.dangle(s.checkUser("board", b.ID, "created_by", b.CreatedBy))
		if b.MasterBoardID != nil {
			if m, ok := s.boards[*b.MasterBoardID]; !ok || !m.IsMaster {
				s.dangle(fmt.Errorf("board %d: master_board_id %d is not a master board", b.ID, *b.MasterBoardID))
			}
		}
	}
	return nil
}

func (s *Store) loadGroups(st State) error {
	for _, g := range st.Groups {
		if err := insert(s.groups, "group", g.ID, cloneGroup(g)); err != nil {
			return err
		}
		s.next.group = max(s.next.group, g.ID)
	}
	s.next.group++
	for _, g := range st.Groups {
		s.dangle(s.checkScope("group", g.ID, g.IsMaster, g.ProjectID))
		s.dangle(s.checkUser("group", g.ID, "created_by", g.CreatedBy))
		if g.BoardID == 0 {
			s.dangle(fmt.Errorf("group %d: %s", g.ID, absent("board", "board_id", 0)))
		} else if b, ok := s.boards[g.BoardID]; !ok || !samePtr(b.ProjectID, g.ProjectID) {
			s.dangle(fmt.Errorf("group %d: board %d does not exist in %s", g.ID, g.BoardID, scopeOf(g.ProjectID)))
		}
		if g.MasterGroupID != nil {
			if m, ok := s.groups[*g.MasterGroupID]; !ok || !m.IsMaster {
				s.dangle(fmt.Errorf("group %d: master_group_id %d is not a master group", g.ID, *g.MasterGroupID))
			}
		}
	}
	return nil
}

func (s *Store) loadTags(st State) error {
	for _, t := range st.Tags {
		if err := insert(s.tags, "tag", t.ID, cloneTag(t)); err != nil {
			return err
		}
		s.next.tag = max(s.next.tag, t.ID)
		if _, ok := s.projects[t.ProjectID]; !ok {
			s.dangle(fmt.Errorf("tag %d: %s", t.ID, absent("project", "project_id", t.ProjectID)))
		}
		s.dangle(s.checkUser("tag", t.ID, "created_by", t.CreatedBy))
	}
	s.next.tag++
	return nil
}

func (s *Store) loadCards(st State) error {
	for _, c := range st.Cards {
		if err := insert(s.cards, "card", c.ID, cloneCard(c)); err != nil {
			return err
		}
		s.next.card = max(s.next.card, c.ID)
	}
	s.next.card++
	for _, c := range st.Cards {
		s.checkCard(c)
	}
	return nil
}

// checkCard checks the references of a loaded card: its group, owner and tag are in its
// project (D28), its master is a master card; each broken one is noted (dangle).
func (s *Store) checkCard(c Card) {
	s.dangle(s.checkScope("card", c.ID, c.IsMaster, c.ProjectID))
	s.dangle(s.checkUser("card", c.ID, "created_by", c.CreatedBy))
	if c.GroupID != nil {
		g, ok := s.groups[*c.GroupID]
		switch {
		case !ok || !samePtr(g.ProjectID, c.ProjectID):
			s.dangle(fmt.Errorf("card %d: group %d does not exist in %s", c.ID, *c.GroupID, scopeOf(c.ProjectID)))
		case g.DeletedAt != nil && c.DeletedAt == nil:
			// The API deletes a group's cards with it (D25) and moves none into a deleted
			// one (D76): such a card was listed in a group that answers 404.
			s.dangle(fmt.Errorf("card %d: it is not deleted, but its group %d is (deleting a group deletes its cards)", c.ID, *c.GroupID))
		}
	}
	if c.OwnerID != nil {
		switch u, ok := s.users[*c.OwnerID]; {
		case !ok:
			s.dangle(fmt.Errorf("card %d: %s", c.ID, absent("owner", "owner_id", *c.OwnerID)))
		case c.ProjectID != nil && u.ProjectID != *c.ProjectID:
			s.dangle(fmt.Errorf("card %d: owner %d is a user of another project (%s): a card's owner is a user of its project", c.ID, *c.OwnerID, scopeOf(&u.ProjectID)))
		}
	}
	if c.TagID != nil {
		if t, ok := s.tags[*c.TagID]; !ok || c.ProjectID == nil || t.ProjectID != *c.ProjectID {
			s.dangle(fmt.Errorf("card %d: tag %d does not exist in %s", c.ID, *c.TagID, scopeOf(c.ProjectID)))
		}
	}
	if c.MasterCardID != nil {
		if m, ok := s.cards[*c.MasterCardID]; !ok || !m.IsMaster {
			s.dangle(fmt.Errorf("card %d: master_card_id %d is not a master card", c.ID, *c.MasterCardID))
		}
	}
}

func (s *Store) loadComments(st State) error {
	for _, c := range st.Comments {
		if err := insert(s.comments, "comment", c.ID, cloneComment(c)); err != nil {
			return err
		}
		s.next.comment = max(s.next.comment, c.ID)
	}
	s.next.comment++
	for _, c := range st.Comments {
		// The API writes a comment as its caller, who can only reach cards of their own
		// project; staff (a superadmin) may have written on any project's card.
		switch u, ok := s.users[c.UserID]; {
		case !ok:
			s.dangle(fmt.Errorf("comment %d: %s", c.ID, absent("user", "user_id", c.UserID)))
		case u.ProjectID != c.ProjectID && !u.IsSuperadmin:
			s.dangle(fmt.Errorf("comment %d: user_id %d is a user of another project (%s): a comment's author is a user of its project or a superadmin", c.ID, c.UserID, scopeOf(&u.ProjectID)))
		}
		card, ok := s.cards[c.CardID]
		if !ok || card.ProjectID == nil || *card.ProjectID != c.ProjectID {
			if c.CardID == 0 {
				s.dangle(fmt.Errorf("comment %d: %s", c.ID, absent("card", "card_id", 0)))
			} else {
				s.dangle(fmt.Errorf("comment %d: card %d does not exist in project %d", c.ID, c.CardID, c.ProjectID))
			}
			continue
		}
		if c.ParentCommentID != nil {
			if p, ok := s.comments[*c.ParentCommentID]; !ok || p.CardID != c.CardID {
				s.dangle(fmt.Errorf("comment %d: parent %d is not a comment on card %d", c.ID, *c.ParentCommentID, c.CardID))
			}
		}
		if c.DeletedAt == nil {
			s.cardComments[c.CardID] = append(s.cardComments[c.CardID], c.ID)
		}
	}
	for card, ids := range s.cardComments {
		slices.SortFunc(ids, func(a, b int64) int { return s.compareComments(a, b) })
		s.cardComments[card] = ids
	}
	return nil
}

// compareComments orders comments oldest first, then by id (D26).
func (s *Store) compareComments(a, b int64) int {
	ca, cb := s.comments[a], s.comments[b]
	return cmp.Or(ca.CreatedAt.Compare(cb.CreatedAt), cmp.Compare(a, b))
}

func (s *Store) loadConversations(st State) error {
	for _, c := range st.Conversations {
		if err := insert(s.conversations, "conversation", c.ID, cloneConversation(c)); err != nil {
			return err
		}
		if _, ok := s.users[c.UserID]; !ok {
			return fmt.Errorf("conversation %d: %s", c.ID, absent("user", "user_id", c.UserID))
		}
		if c.Status != ConversationActive && c.Status != ConversationArchived {
			return fmt.Errorf("conversation %d: status %q is neither active nor archived", c.ID, c.Status)
		}
	}
	return nil
}

func (s *Store) loadCarts(st State) error {
	items := map[int64]string{}
	for _, c := range st.Carts {
		if c.SessionToken == "" {
			return fmt.Errorf("cart: empty session_token")
		}
		if _, dup := s.carts[c.SessionToken]; dup {
			return fmt.Errorf("cart %q: duplicate session_token", c.SessionToken)
		}
		if c.Status != CartOpen && c.Status != CartLocked {
			return fmt.Errorf("cart %q: status %q is neither open nor locked", c.SessionToken, c.Status)
		}
		for _, it := range c.Items {
			if other, dup := items[it.ID]; dup || it.ID <= 0 {
				return fmt.Errorf("cart %q: item id %d is not positive or also in cart %q", c.SessionToken, it.ID, other)
			}
			items[it.ID] = c.SessionToken
		}
		s.carts[c.SessionToken] = cloneCart(c)
		s.cartOrder = append(s.cartOrder, c.SessionToken)
	}
	return nil
}

func (s *Store) loadEntities(st State) error {
	for _, e := range st.Entities {
		key := entityKey{Type: e.Type, ID: e.ID}
		switch {
		case e.Type != EntityPage && e.Type != EntityTemplate && e.Type != EntityLayout:
			return fmt.Errorf("website entity %d: unknown type %q", e.ID, e.Type)
		case e.ID <= 0:
			return fmt.Errorf("%s %d: id must be positive", e.Type, e.ID)
		}
		if _, dup := s.entities[key]; dup {
			return fmt.Errorf("%s %d: duplicate id", e.Type, e.ID)
		}
		if _, ok := s.projects[e.ProjectID]; !ok {
			return fmt.Errorf("%s %d: %s", e.Type, e.ID, absent("project", "project_id", e.ProjectID))
		}
		s.entities[key] = e
	}
	return nil
}

func (s *Store) loadThemes(st State) error {
	for _, v := range st.ThemeVersions {
		if err := insert(s.themes, "theme version", v.VersionID, v); err != nil {
			return err
		}
		if _, ok := s.projects[v.ProjectID]; !ok {
			return fmt.Errorf("theme version %d: %s", v.VersionID, absent("project", "project_id", v.ProjectID))
		}
	}
	return nil
}

func (s *Store) loadRegenerations(st State) error {
	for _, r := range st.Regenerations {
		if _, ok := s.projects[r.ProjectID]; !ok {
			return fmt.Errorf("thumbnail regeneration: %s", absent("project", "project_id", r.ProjectID))
		}
		s.regenerations[r.ProjectID] = append(s.regenerations[r.ProjectID], cloneRegeneration(r))
	}
	for _, rs := range s.regenerations {
		slices.SortStableFunc(rs, func(a, b Regeneration) int { return a.At.Compare(b.At) })
	}
	return nil
}

// normalizeEmail is the key of the e-mail index: trimmed and lower-cased.
func normalizeEmail(email string) string { return strings.ToLower(strings.TrimSpace(email)) }

// absent says that the record a snapshot's reference names is not there: "project 7 does not
// exist", or, for id 0 (the field absent or null, which decode as 0 and no record has),
// "project_id is missing or null".
func absent(what, field string, id int64) string {
	if id == 0 {
		return field + " is missing or null"
	}
	return fmt.Sprintf("%s %d does not exist", what, id)
}
