package reference

// TEMPORARY: operations not written yet; replaced file by file.

func notYet() error { return Errorf(EINTERNAL, "not implemented yet") }

// CreateMasterCard is not implemented yet.
func (s *Store) CreateMasterCard(userID int64, in CreateMasterCardInput) (MasterCardResult, error) {
	return MasterCardResult{}, notYet()
}

// UpdateMasterCard is not implemented yet.
func (s *Store) UpdateMasterCard(userID int64, in UpdateMasterCardInput) (MasterCardResult, error) {
	return MasterCardResult{}, notYet()
}

// ListWidgetCards is not implemented yet.
func (s *Store) ListWidgetCards(userID int64, in ListWidgetCardsInput) (WidgetCards, error) {
	return WidgetCards{}, notYet()
}

// UpdateTourCard is not implemented yet.
func (s *Store) UpdateTourCard(userID int64, in UpdateTourCardInput) (Card, error) {
	return Card{}, notYet()
}

// SyncMasterBoard is not implemented yet.
func (s *Store) SyncMasterBoard(userID int64, in SyncMasterBoardInput) (SyncResult, error) {
	return SyncResult{}, notYet()
}

// RestoreConversation is not implemented yet.
func (s *Store) RestoreConversation(userID int64, in RestoreConversationInput) error {
	return notYet()
}

// RemoveCartItem is not implemented yet.
func (s *Store) RemoveCartItem(in RemoveCartItemInput) (Cart, error) { return Cart{}, notYet() }

// RegenerateThumbnail is not implemented yet.
func (s *Store) RegenerateThumbnail(userID int64, in RegenerateThumbnailInput) (Thumbnail, error) {
	return Thumbnail{}, notYet()
}

// DeprecateThemeVersion is not implemented yet.
func (s *Store) DeprecateThemeVersion(userID int64, in DeprecateThemeVersionInput) (ThemeVersion, error) {
	return ThemeVersion{}, notYet()
}
