package reference

// RestoreConversation moves an archived conversation of the caller back to the active list
// (D33). Another user's conversation, or one that does not exist, is ENOTFOUND; restoring an
// active conversation changes nothing.
func (s *Store) RestoreConversation(userID int64, in RestoreConversationInput) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.caller(userID); err != nil {
		return err
	}
	c, ok := s.conversations[in.ConversationID]
	if !ok || c.UserID != userID {
		return Errorf(ENOTFOUND, "Conversation %d not found.", in.ConversationID)
	}
	if c.Status == ConversationActive {
		return nil
	}
	c.Status, c.UpdatedAt = ConversationActive, s.now()
	put(s, s.conversations, c.ID, c)
	return nil
}
