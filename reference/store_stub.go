package reference

// TEMPORARY: signatures of the Store, to be replaced by the real implementation (helper task).

import (
	"sync"
	"time"
)

// Store is the in-memory state of a deployment and the operations on it.
type Store struct {
	mu  sync.RWMutex
	cfg config
}

func notYet() error { return Errorf(EINTERNAL, "not implemented yet") }

// New loads state into a new Store, checking that its references hold.
func New(state State, opts ...Option) (*Store, error) { return &Store{}, nil }

// State exports a deep copy of the whole state.
func (s *Store) State() State { return State{} }

// Now is the store's clock.
func (s *Store) Now() time.Time { return time.Time{} }

// UserByToken resolves a bearer token to its user (EUNAUTHENTICATED when unknown).
func (s *Store) UserByToken(token string) (User, error) { return User{}, notYet() }

func (s *Store) Authenticate(in AuthenticateInput) (LoginResult, error) {
	return LoginResult{}, notYet()
}
func (s *Store) ListComments(userID int64, in ListCommentsInput) (CommentPage, error) {
	return CommentPage{}, notYet()
}
func (s *Store) CreateMasterCard(userID int64, in CreateMasterCardInput) (MasterCardResult, error) {
	return MasterCardResult{}, notYet()
}
func (s *Store) UpdateMasterCard(userID int64, in UpdateMasterCardInput) (MasterCardResult, error) {
	return MasterCardResult{}, notYet()
}
func (s *Store) UpdateCard(userID int64, in UpdateCardInput) (Card, error) { return Card{}, notYet() }
func (s *Store) UpdateBoard(userID int64, in UpdateBoardInput) (Board, error) {
	return Board{}, notYet()
}
func (s *Store) UpdateMasterGroup(userID int64, in UpdateMasterGroupInput) (Group, error) {
	return Group{}, notYet()
}
func (s *Store) ListWidgetCards(userID int64, in ListWidgetCardsInput) (WidgetCards, error) {
	return WidgetCards{}, notYet()
}
func (s *Store) UpdateTourCard(userID int64, in UpdateTourCardInput) (Card, error) {
	return Card{}, notYet()
}
func (s *Store) SyncMasterBoard(userID int64, in SyncMasterBoardInput) (SyncResult, error) {
	return SyncResult{}, notYet()
}
func (s *Store) DeleteGroup(userID int64, in DeleteGroupInput) error { return notYet() }
func (s *Store) RestoreConversation(userID int64, in RestoreConversationInput) error {
	return notYet()
}
func (s *Store) CreateMasterBoard(userID int64, in CreateMasterBoardInput) (Board, error) {
	return Board{}, notYet()
}
func (s *Store) ListBoards(userID int64, in ListBoardsInput) ([]Board, error) { return nil, notYet() }
func (s *Store) ListMasterBoards(userID int64) ([]Board, error)               { return nil, notYet() }
func (s *Store) ListCards(userID int64) ([]Card, error)                       { return nil, notYet() }
func (s *Store) ListTags(userID int64) ([]Tag, error)                         { return nil, notYet() }
func (s *Store) CreateCard(userID int64, in CreateCardInput) (Card, error)    { return Card{}, notYet() }
func (s *Store) CreateMasterGroup(userID int64, in CreateMasterGroupInput) (Group, error) {
	return Group{}, notYet()
}
func (s *Store) CreateComment(userID int64, in CreateCommentInput) (Comment, error) {
	return Comment{}, notYet()
}
func (s *Store) CreateTag(userID int64, in CreateTagInput) (Tag, error) { return Tag{}, notYet() }
func (s *Store) RemoveCartItem(in RemoveCartItemInput) (Cart, error)    { return Cart{}, notYet() }
func (s *Store) RegenerateThumbnail(userID int64, in RegenerateThumbnailInput) (Thumbnail, error) {
	return Thumbnail{}, notYet()
}
func (s *Store) DeprecateThemeVersion(userID int64, in DeprecateThemeVersionInput) (ThemeVersion, error) {
	return ThemeVersion{}, notYet()
}
