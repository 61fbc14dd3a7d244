package reference

// defaultGroupType is the type of groups made by master-groups/create.
const defaultGroupType = "default"

// DeleteGroup soft-deletes a group of the caller's project and its live cards (D25): they
// leave every list and answer ENOTFOUND from then on.
func (s *Store) DeleteGroup(userID int64, in DeleteGroupInput) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	project, err := s.member(userID)
	if err != nil {
		return err
	}
	g, err := s.projectGroup(project, in.ID)
	if err != nil {
		return err
	}
	now := s.now()
	g.DeletedAt, g.UpdatedAt = ptr(now), now
	put(s, s.groups, g.ID, g)
	for _, c := range s.cards {
		if c.DeletedAt == nil && c.GroupID != nil && *c.GroupID == g.ID {
			c.DeletedAt, c.UpdatedAt = ptr(now), now
			s.putCard(c)
		}
	}
	return nil
}

// CreateMasterGroup creates a group on a master board (superadmin only); the board must be a
// live master board, else ENOTFOUND.
func (s *Store) CreateMasterGroup(userID int64, in CreateMasterGroupInput) (Group, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.superadmin(userID); err != nil {
		return Group{}, err
	}
	var f fieldErrors
	f.notBlank("title", in.Title)
	if err := f.err(); err != nil {
		return Group{}, err
	}
	if _, err := s.masterBoard(in.BoardID); err != nil {
		return Group{}, err
	}
	if err := s.checkRecordLimit(masterRecords, groupIDs); err != nil {
		return Group{}, err
	}
	var top int64
	for _, g := range s.groups {
		if g.BoardID == in.BoardID && g.DeletedAt == nil {
			top = max(top, g.Position)
		}
	}
	now := s.now()
	g := Group{
		ID: s.next.group, PlatformID: PlatformID, IsMaster: true, BoardID: in.BoardID,
		Title: in.Title, Description: optPtr(in.Description), Type: defaultGroupType,
		Position: nextPosition(top), IsActive: true, CreatedBy: ptr(userID), CreatedAt: now, UpdatedAt: now,
	}
	s.next.group++
	put(s, s.groups, g.ID, g)
	s.countRecord(masterRecords)
	return cloneGroup(g), nil
}

// UpdateMasterGroup changes a master group (superadmin only) following D18: null clears
// description and leaves title unchanged.
func (s *Store) UpdateMasterGroup(userID int64, in UpdateMasterGroupInput) (Group, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.superadmin(userID); err != nil {
		return Group{}, err
	}
	var f fieldErrors
	f.optNotBlank("title", in.Title)
	if err := f.err(); err != nil {
		return Group{}, err
	}
	g, err := s.masterGroup(in.ID)
	if err != nil {
		return Group{}, err
	}
	setRequired(&g.Title, in.Title)
	setClearable(&g.Description, in.Description)
	g.UpdatedAt = s.now()
	put(s, s.groups, g.ID, g)
	return cloneGroup(g), nil
}
