package reference

import "strings"

// ListBoards returns the live boards of the caller's project, by id; a tool_key sent in the
// body keeps only the boards of that tool, whatever its length (D30). Master boards are not
// listed (D17).
func (s *Store) ListBoards(userID int64, in ListBoardsInput) ([]Board, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	project, err := s.member(userID)
	if err != nil {
		return nil, err
	}
	out := []Board{} // the filter has no length bound (D30): a long one matches no board
	for _, id := range sortedKeys(s.boards) {
		b := s.boards[id]
		if b.IsMaster || !inProject(b.ProjectID, project) || b.DeletedAt != nil {
			continue
		}
		// A blank tool_key is no filter, as null is (D30): an "all tools" choice sends "".
		if in.ToolKey.Present() && strings.TrimSpace(in.ToolKey.Value) != "" && (b.ToolKey == nil || *b.ToolKey != in.ToolKey.Value) {
			continue
		}
		out = append(out, cloneBoard(b))
	}
	return out, nil
}

// UpdateBoard changes a board of the caller's project following D18: null clears
// description, color and icon, and leaves title and position unchanged.
func (s *Store) UpdateBoard(userID int64, in UpdateBoardInput) (Board, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	project, err := s.member(userID)
	if err != nil {
		return Board{}, err
	}
	var f fieldErrors
	f.optNotBlank("title", in.Title)
	f.optPosition("position", in.Position)
	if err := f.err(); err != nil {
		return Board{}, err
	}
	b, err := s.projectBoard(project, in.ID)
	if err != nil {
		return Board{}, err
	}
	setRequired(&b.Title, in.Title)
	setClearable(&b.Description, in.Description)
	setClearable(&b.Color, in.Color)
	setClearable(&b.Icon, in.Icon)
	setRequired(&b.Position, in.Position)
	b.UpdatedAt = s.now()
	put(s, s.boards, b.ID, b)
	return cloneBoard(b), nil
}

// ListMasterBoards returns the live master boards, by id (superadmin only).
func (s *Store) ListMasterBoards(userID int64) ([]Board, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if _, err := s.superadmin(userID); err != nil {
		return nil, err
	}
	out := []Board{}
	for _, id := range sortedKeys(s.boards) {
		if b := s.boards[id]; b.IsMaster && b.DeletedAt == nil {
			out = append(out, cloneBoard(b))
		}
	}
	return out, nil
}

// CreateMasterBoard creates a master board for a tool (superadmin only): is_master true and no
// project (D17). Projects subscribed to tool_key receive it on push or sync (D23).
func (s *Store) CreateMasterBoard(userID int64, in CreateMasterBoardInput) (Board, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.superadmin(userID); err != nil {
		return Board{}, err
	}
	var f fieldErrors
	f.notBlank("title", in.Title)
	f.notBlank("tool_key", in.ToolKey)
	if err := f.err(); err != nil {
		return Board{}, err
	}
	if err := s.checkRecordLimit(masterRecords, boardIDs); err != nil {
		return Board{}, err
	}
	var top int64
	for _, b := range s.boards {
		if b.IsMaster && b.DeletedAt == nil {
			top = max(top, b.Position)
		}
	}
	now := s.now()
	b := Board{
		ID: s.next.board, PlatformID: PlatformID, IsMaster: true, ToolKey: ptr(in.ToolKey),
		Title: in.Title, Description: optPtr(in.Description), Color: optPtr(in.Color),
		Icon: optPtr(in.Icon), Position: nextPosition(top), IsActive: true, CreatedBy: ptr(userID),
		CreatedAt: now, UpdatedAt: now,
	}
	s.next.board++
	put(s, s.boards, b.ID, b)
	s.countRecord(masterRecords)
	return cloneBoard(b), nil
}
