package reference

// ListTags returns the live tags of the caller's project, by id (D12, D20).
func (s *Store) ListTags(userID int64) ([]Tag, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	project, err := s.member(userID)
	if err != nil {
		return nil, err
	}
	out := []Tag{}
	for _, id := range sortedKeys(s.tags) {
		if t := s.tags[id]; t.ProjectID == project && t.DeletedAt == nil {
			out = append(out, cloneTag(t))
		}
	}
	return out, nil
}

// CreateTag creates a tag in the caller's project. position defaults to one more than the
// largest position of the project's tags (D45); a position sent must be in range (D75).
func (s *Store) CreateTag(userID int64, in CreateTagInput) (Tag, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	project, err := s.member(userID)
	if err != nil {
		return Tag{}, err
	}
	var f fieldErrors
	f.notBlank("name", in.Name)
	f.optPosition("position", in.Position)
	if err := f.err(); err != nil {
		return Tag{}, err
	}
	if err := s.checkRecordLimit(project, tagIDs); err != nil {
		return Tag{}, err
	}
	var top int64
	for _, t := range s.tags {
		if t.ProjectID == project && t.DeletedAt == nil {
			top = max(top, t.Position)
		}
	}
	now := s.now()
	t := Tag{
		ID: s.next.tag, ProjectID: project, Name: in.Name, Color: optPtr(in.Color),
		Icon: optPtr(in.Icon), Position: orDefault(in.Position, nextPosition(top)), IsActive: true,
		CreatedBy: ptr(userID), CreatedAt: now, UpdatedAt: now,
	}
	s.next.tag++
	put(s, s.tags, t.ID, t)
	s.countRecord(project)
	return cloneTag(t), nil
}
