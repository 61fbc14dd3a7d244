package reference

// Who may do what: the caller is a user id resolved by the HTTP layer from the bearer token.

// caller returns the user behind userID; an unknown id is EUNAUTHENTICATED.
func (s *Store) caller(userID int64) (User, error) {
	u, ok := s.users[userID]
	if !ok {
		return User{}, Errorf(EUNAUTHENTICATED, "Unauthenticated.")
	}
	return u, nil
}

// member returns the project of the caller: every non-superadmin operation acts on the
// caller's own project (D12).
func (s *Store) member(userID int64) (int64, error) {
	u, err := s.caller(userID)
	if err != nil {
		return 0, err
	}
	if _, ok := s.projects[u.ProjectID]; !ok {
		return 0, Errorf(EFORBIDDEN, "You do not belong to a project.")
	}
	return u.ProjectID, nil
}

// superadmin lets only superadmins through; others are EFORBIDDEN. The HTTP layer checks this
// too; this is defense in depth.
func (s *Store) superadmin(userID int64) (User, error) {
	u, err := s.caller(userID)
	if err != nil {
		return User{}, err
	}
	if !u.IsSuperadmin {
		return User{}, Errorf(EFORBIDDEN, "This action requires superadmin access.")
	}
	return u, nil
}

// inProject reports whether a record's project_id is project.
func inProject(recordProject *int64, project int64) bool {
	return recordProject != nil && *recordProject == project
}

// projectBoard returns a live board of project; any other id is ENOTFOUND (D12).
func (s *Store) projectBoard(project, id int64) (Board, error) {
	b, ok := s.boards[id]
	if !ok || b.IsMaster || !inProject(b.ProjectID, project) || b.DeletedAt != nil {
		return Board{}, Errorf(ENOTFOUND, "Board %d not found.", id)
	}
	return b, nil
}

// projectGroup returns a live group of project; any other id is ENOTFOUND (D12).
func (s *Store) projectGroup(project, id int64) (Group, error) {
	g, ok := s.groups[id]
	if !ok || g.IsMaster || !inProject(g.ProjectID, project) || g.DeletedAt != nil {
		return Group{}, Errorf(ENOTFOUND, "Group %d not found.", id)
	}
	return g, nil
}

// projectCard returns a live card of project; any other id is ENOTFOUND (D12).
func (s *Store) projectCard(project, id int64) (Card, error) {
	c, ok := s.cards[id]
	if !ok || c.IsMaster || !inProject(c.ProjectID, project) || c.DeletedAt != nil {
		return Card{}, Errorf(ENOTFOUND, "Card %d not found.", id)
	}
	return c, nil
}

// projectTag returns a live tag of project; any other id is ENOTFOUND (D12, D28).
func (s *Store) projectTag(project, id int64) (Tag, error) {
	t, ok := s.tags[id]
	if !ok || t.ProjectID != project || t.DeletedAt != nil {
		return Tag{}, Errorf(ENOTFOUND, "Tag %d not found.", id)
	}
	return t, nil
}

// projectUser returns a user of project, for owner_id (D28).
func (s *Store) projectUser(project, id int64) (User, error) {
	u, ok := s.users[id]
	if !ok || u.ProjectID != project {
		return User{}, Errorf(ENOTFOUND, "User %d not found.", id)
	}
	return u, nil
}

// masterBoard returns a live master board; any other id is ENOTFOUND.
func (s *Store) masterBoard(id int64) (Board, error) {
	b, ok := s.boards[id]
	if !ok || !b.IsMaster || b.DeletedAt != nil {
		return Board{}, Errorf(ENOTFOUND, "Master board %d not found.", id)
	}
	return b, nil
}

// masterGroup returns a live master group; any other id is ENOTFOUND.
func (s *Store) masterGroup(id int64) (Group, error) {
	g, ok := s.groups[id]
	if !ok || !g.IsMaster || g.DeletedAt != nil {
		return Group{}, Errorf(ENOTFOUND, "Master group %d not found.", id)
	}
	return g, nil
}

// masterCard returns a live master card; any other id is ENOTFOUND.
func (s *Store) masterCard(id int64) (Card, error) {
	c, ok := s.cards[id]
	if !ok || !c.IsMaster || c.DeletedAt != nil {
		return Card{}, Errorf(ENOTFOUND, "Master card %d not found.", id)
	}
	return c, nil
}
