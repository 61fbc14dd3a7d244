package reference_test

import (
	"math"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/reference"
)

// TestNeverPanics calls every operation with zero values and extreme values: the HTTP layer
// validates first, but whatever slips through must be an error, never a panic.
func TestNeverPanics(t *testing.T) {
	s, _ := newStore(t)
	huge, neg := reference.Some[int64](math.MaxInt64), reference.Some[int64](math.MinInt64)
	far := reference.Some(time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC))
	for _, user := range []int64{0, -1, member, admin, math.MaxInt64} {
		_, _ = s.Authenticate(reference.AuthenticateInput{})
		_, _ = s.UserByToken("")
		_, _ = s.ListComments(user, reference.ListCommentsInput{CardID: acmeOverdueCard, Page: huge, PerPage: huge})
		_, _ = s.ListComments(user, reference.ListCommentsInput{CardID: acmeOverdueCard, Page: neg, PerPage: neg})
		_, _ = s.ListComments(user, reference.ListCommentsInput{})
		_, _ = s.CreateMasterCard(user, reference.CreateMasterCardInput{})
		_, _ = s.CreateMasterCard(user, reference.CreateMasterCardInput{GroupID: math.MaxInt64, Title: "x", PushToProjects: reference.Some(true)})
		_, _ = s.UpdateMasterCard(user, reference.UpdateMasterCardInput{ID: masterCard, GroupID: huge, SyncToProjects: reference.Some(true)})
		_, _ = s.UpdateCard(user, reference.UpdateCardInput{ID: acmeOverdueCard, GroupID: neg, DueDate: far, SnoozedUntil: far})
		_, _ = s.UpdateBoard(user, reference.UpdateBoardInput{ID: acmePlainBoard, Position: huge})
		_, _ = s.UpdateMasterGroup(user, reference.UpdateMasterGroupInput{})
		_, _ = s.ListWidgetCards(user, reference.ListWidgetCardsInput{})
		_, _ = s.UpdateTourCard(user, reference.UpdateTourCardInput{})
		_, _ = s.SyncMasterBoard(user, reference.SyncMasterBoardInput{BoardID: -1})
		_ = s.DeleteGroup(user, reference.DeleteGroupInput{})
		_ = s.RestoreConversation(user, reference.RestoreConversationInput{ConversationID: math.MinInt64})
		_, _ = s.CreateMasterBoard(user, reference.CreateMasterBoardInput{})
		_, _ = s.ListBoards(user, reference.ListBoardsInput{ToolKey: reference.Some("")})
		_, _ = s.ListMasterBoards(user)
		_, _ = s.ListCards(user)
		_, _ = s.ListTags(user)
		_, _ = s.CreateCard(user, reference.CreateCardInput{OwnerID: huge, TagID: neg})
		_, _ = s.CreateMasterGroup(user, reference.CreateMasterGroupInput{})
		_, _ = s.CreateComment(user, reference.CreateCommentInput{ParentCommentID: huge})
		_, _ = s.CreateTag(user, reference.CreateTagInput{Position: neg})
		_, _ = s.RemoveCartItem(reference.RemoveCartItemInput{CartItemID: math.MinInt64})
		_, _ = s.RegenerateThumbnail(user, reference.RegenerateThumbnailInput{EntityID: math.MaxInt64})
		_, _ = s.DeprecateThemeVersion(user, reference.DeprecateThemeVersionInput{VersionID: -1})
	}
	if _, err := reference.New(s.State()); err != nil {
		t.Fatalf("the state no longer loads: %v", err)
	}
}
