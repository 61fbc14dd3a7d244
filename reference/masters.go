package reference

// CreateMasterCard creates a master card in a master group (superadmin only): is_master true,
// no project (D17); card_type defaults to widget, status to open, priority to normal, is_active
// to true. With push_to_projects it is copied into every subscribed project and
// ProjectsUpdated counts them (D22, D23).
func (s *Store) CreateMasterCard(userID int64, in CreateMasterCardInput) (MasterCardResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.superadmin(userID); err != nil {
		return MasterCardResult{}, err
	}
	var f fieldErrors
	f.notBlank("title", in.Title)
	if err := f.err(); err != nil {
		return MasterCardResult{}, err
	}
	g, err := s.masterGroup(in.GroupID)
	if err != nil {
		return MasterCardResult{}, err
	}
	// A push copies the card's board and group into projects that lack them.
	if err := s.checkRecordLimit(masterRecords, cardIDs, boardIDs, groupIDs); err != nil {
		return MasterCardResult{}, err
	}
	now := s.now()
	pos := s.nextCardPosition(nil, &g.ID)
	c := Card{
		ID: s.next.card, PlatformID: PlatformID, IsMaster: true,
		IsActive: orDefault(in.IsActive, true), UniqueIdentifier: optPtr(in.UniqueIdentifier),
		EvaluationCheck: optPtr(in.EvaluationCheck), TourKey: optPtr(in.TourKey),
		ShortDescription: optPtr(in.ShortDescription), CardType: orDefault(in.CardType, defaultCardType),
		GroupID: ptr(g.ID), Title: in.Title, Description: optPtr(in.Description),
		Status: orDefault(in.Status, defaultStatus), Priority: orDefault(in.Priority, defaultPriority),
		SortOrder: pos, Position: pos, CreatedBy: ptr(userID), CreatedAt: now, UpdatedAt: now,
	}
	s.next.card++
	s.putCard(c)
	var pushed int64
	if orDefault(in.PushToProjects, false) {
		pushed = s.pushMasterCard(c, userID, now)
	}
	return MasterCardResult{Card: cardOut(c, now), ProjectsUpdated: pushed}, nil
}

// UpdateMasterCard changes a master card (superadmin only) following D18. With
// sync_to_projects the same changes are made to every live project copy and ProjectsUpdated
// counts the copies changed (D22); a new group_id moves each copy to its project's copy of
// that group, created when missing (D23), in projects subscribed to that group's board's tool.
func (s *Store) UpdateMasterCard(userID int64, in UpdateMasterCardInput) (MasterCardResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.superadmin(userID); err != nil {
		return MasterCardResult{}, err
	}
	var f fieldErrors
	f.optNotBlank("title", in.Title)
	if err := f.err(); err != nil {
		return MasterCardResult{}, err
	}
	c, err := s.masterCard(in.ID)
	if err != nil {
		return MasterCardResult{}, err
	}
	if in.GroupID.Present() {
		if _, err := s.masterGroup(in.GroupID.Value); err != nil {
			return MasterCardResult{}, err
		}
	}
	now := s.now()
	applyMasterFields(&c, in)
	if in.GroupID.Present() { // null leaves it: a master card always has a group (D18)
		s.moveCard(&c, ptr(in.GroupID.Value))
	}
	c.UpdatedAt = now
	s.putCard(c)
	var synced int64
	if orDefault(in.SyncToProjects, false) {
		synced = s.syncCardCopies(c.ID, in, userID)
	}
	return MasterCardResult{Card: cardOut(c, now), ProjectsUpdated: synced}, nil
}

// applyMasterFields applies D18 to the template fields of a master card or of a copy: null
// clears the optional texts and leaves title, card_type, status, is_active and priority.
func applyMasterFields(c *Card, in UpdateMasterCardInput) {
	setRequired(&c.Title, in.Title)
	setClearable(&c.Description, in.Description)
	setClearable(&c.UniqueIdentifier, in.UniqueIdentifier)
	setClearable(&c.EvaluationCheck, in.EvaluationCheck)
	setClearable(&c.TourKey, in.TourKey)
	setClearable(&c.ShortDescription, in.ShortDescription)
	setRequired(&c.CardType, in.CardType)
	setRequired(&c.Status, in.Status)
	setRequired(&c.IsActive, in.IsActive)
	setRequired(&c.Priority, in.Priority)
}

// syncCardCopies carries an update of master card id to its live project copies (D22, D23).
func (s *Store) syncCardCopies(id int64, in UpdateMasterCardInput, by int64) int64 {
	now := s.now()
	var n int64
	for _, cid := range sortedKeys(s.cards) {
		c := s.cards[cid]
		if c.IsMaster || c.DeletedAt != nil || c.MasterCardID == nil || *c.MasterCardID != id {
			continue
		}
		applyMasterFields(&c, in)
		if mg := s.groups[in.GroupID.Value]; in.GroupID.Present() && s.subscribed(*c.ProjectID, s.boards[mg.BoardID].ToolKey) {
			// Only a project subscribed to the new board's tool receives its content (D23, D47):
			// a copy elsewhere keeps its group, as a sync of that board skips the project.
			g, _ := s.ensureGroupCopy(*c.ProjectID, mg, by, now)
			s.moveCard(&c, ptr(g.ID))
		}
		c.UpdatedAt = now
		s.putCard(c)
		n++
	}
	return n
}

// SyncMasterBoard re-syncs every project subscribed to the master board's tool (superadmin
// only): missing board, group and card copies are created (D23); a second sync creates
// nothing. Projects not subscribed are counted in skipped_no_access (D24).
func (s *Store) SyncMasterBoard(userID int64, in SyncMasterBoardInput) (SyncResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.superadmin(userID); err != nil {
		return SyncResult{}, err
	}
	mb, err := s.masterBoard(in.BoardID)
	if err != nil {
		return SyncResult{}, err
	}
	now := s.now()
	projects, skipped := s.subscribers(mb.ToolKey)
	groups, cards := s.masterContent(mb)
	made := 1 + len(groups) // a board and its groups and cards, per project at most
	for _, cs := range cards {
		made += len(cs)
	}
	if err := s.checkIDRoom(int64(len(projects)*made), boardIDs, groupIDs, cardIDs); err != nil {
		return SyncResult{}, err
	}
	copies := s.cardCopies()
	res := SyncResult{SkippedNoAccess: skipped}
	for _, p := range projects {
		res.SyncedCount++
		if _, created := s.ensureBoardCopy(p, mb, userID, now); created {
			res.BoardsCreated++
		}
		for _, mg := range groups {
			g, _ := s.ensureGroupCopy(p, mg, userID, now)
			for _, mc := range cards[mg.ID] {
				if !copies[copyKey{p, mc.ID}] {
					s.copyCard(p, mc, g.ID, userID, now)
					copies[copyKey{p, mc.ID}] = true
				}
			}
		}
	}
	return res, nil
}
