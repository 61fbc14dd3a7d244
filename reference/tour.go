package reference

// isTourCard reports whether a master card is one tour/cards/update acts on: card_type tour or
// widget_tour (D32).
func isTourCard(c Card) bool { return c.CardType == "tour" || c.CardType == "widget_tour" }

// UpdateTourCard sets the status (open or closed) of a master tour card (D32). Any
// authenticated user may call it and no tool subscription is needed (D13); an id that is not a
// live master card of card_type tour is ENOTFOUND.
func (s *Store) UpdateTourCard(userID int64, in UpdateTourCardInput) (Card, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.caller(userID); err != nil {
		return Card{}, err
	}
	c, err := s.masterCard(in.ID)
	if err != nil || !isTourCard(c) {
		return Card{}, Errorf(ENOTFOUND, "Tour card %d not found.", in.ID)
	}
	now := s.now()
	c.Status, c.UpdatedAt = in.Status, now
	s.putCard(c)
	return cardOut(c, now), nil
}
