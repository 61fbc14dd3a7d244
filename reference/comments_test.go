package reference_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/reference"
)

func commentIDs(cs []reference.Comment) []int64 {
	return idsOf(cs, func(c reference.Comment) int64 { return c.ID })
}

func TestListComments(t *testing.T) {
	s, clock := newStore(t)
	// 38 more comments on the overdue card: 40 in all, three pages of 15.
	for i := range 38 {
		clock.Advance(time.Second)
		_, err := s.CreateComment(member, reference.CreateCommentInput{CardID: acmeOverdueCard, Comment: fmt.Sprintf("c%d", i)})
		wantCode(t, err, "")
	}
	tests := []struct {
		name      string
		in        reference.ListCommentsInput
		wantIDs   int
		firstID   int64
		wantPages reference.Pagination
	}{
		{"defaults to page 1 of 15, oldest first, replies included (D26)", reference.ListCommentsInput{CardID: acmeOverdueCard}, 15, 1,
			reference.Pagination{Total: 40, PerPage: 15, CurrentPage: 1, TotalPages: 3}},
		{"treats null page and per_page as the defaults", reference.ListCommentsInput{CardID: acmeOverdueCard, Page: reference.Null[int64](), PerPage: reference.Null[int64]()}, 15, 1,
			reference.Pagination{Total: 40, PerPage: 15, CurrentPage: 1, TotalPages: 3}},
		{"answers the last, partial page", reference.ListCommentsInput{CardID: acmeOverdueCard, Page: reference.Some[int64](3)}, 10, 0,
			reference.Pagination{Total: 40, PerPage: 15, CurrentPage: 3, TotalPages: 3}},
		{"answers an empty list past the end", reference.ListCommentsInput{CardID: acmeOverdueCard, Page: reference.Some[int64](4)}, 0, 0,
			reference.Pagination{Total: 40, PerPage: 15, CurrentPage: 4, TotalPages: 3}},
		{"answers an empty list for a huge page without overflowing", reference.ListCommentsInput{CardID: acmeOverdueCard, Page: reference.Some[int64](1<<53 - 1), PerPage: reference.Some[int64](100)}, 0, 0,
			reference.Pagination{Total: 40, PerPage: 100, CurrentPage: 1<<53 - 1, TotalPages: 1}},
		{"accepts per_page 100", reference.ListCommentsInput{CardID: acmeOverdueCard, PerPage: reference.Some[int64](100)}, 40, 1,
			reference.Pagination{Total: 40, PerPage: 100, CurrentPage: 1, TotalPages: 1}},
		{"counts at least one page for a card without comments", reference.ListCommentsInput{CardID: acmeCopyCard}, 0, 0,
			reference.Pagination{Total: 0, PerPage: 15, CurrentPage: 1, TotalPages: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page, err := s.ListComments(member, tt.in)
			wantCode(t, err, "")
			if page.Pagination != tt.wantPages {
				t.Fatalf("pagination = %+v, want %+v", page.Pagination, tt.wantPages)
			}
			if len(page.Comments) != tt.wantIDs || page.Comments == nil {
				t.Fatalf("%d comments, want %d", len(page.Comments), tt.wantIDs)
			}
			if tt.firstID != 0 && page.Comments[0].ID != tt.firstID {
				t.Fatalf("first comment %d, want %d", page.Comments[0].ID, tt.firstID)
			}
			for i := 1; i < len(page.Comments); i++ {
				if page.Comments[i].CreatedAt.Before(page.Comments[i-1].CreatedAt) {
					t.Fatal("not oldest first")
				}
			}
		})
	}
	errs := []struct {
		name, code, field string
		in                reference.ListCommentsInput
	}{
		{"rejects per_page 0", "", "per_page", reference.ListCommentsInput{CardID: acmeOverdueCard, PerPage: reference.Some[int64](0)}},
		{"rejects per_page 101", "", "per_page", reference.ListCommentsInput{CardID: acmeOverdueCard, PerPage: reference.Some[int64](101)}},
		{"rejects page 0", "", "page", reference.ListCommentsInput{CardID: acmeOverdueCard, Page: reference.Some[int64](0)}},
		{"fails card_id for a card of another project (D12, D43)", "", "card_id", reference.ListCommentsInput{CardID: globexCard}},
		{"fails card_id for an unknown card (D43)", "", "card_id", reference.ListCommentsInput{CardID: -1}},
		{"fails card_id for a master card (D43)", "", "card_id", reference.ListCommentsInput{CardID: masterCard}},
	}
	for _, tt := range errs {
		t.Run(tt.name, func(t *testing.T) {
			page, err := s.ListComments(member, tt.in)
			if tt.field != "" {
				wantField(t, err, tt.field)
			} else {
				wantCode(t, err, tt.code)
			}
			if len(page.Comments) != 0 {
				t.Fatal("data returned with an error")
			}
		})
	}
}

func TestCreateComment(t *testing.T) {
	t.Run("adds a comment and a reply that list last, in order", func(t *testing.T) {
		s, clock := newStore(t)
		clock.Advance(time.Minute)
		c, err := s.CreateComment(teammate, reference.CreateCommentInput{CardID: acmeOverdueCard, Comment: "On it"})
		wantCode(t, err, "")
		if c.ProjectID != projAcme || c.UserID != teammate || c.IsRead || c.ReadAt != nil || c.ParentCommentID != nil || !c.CreatedAt.Equal(t0.Add(time.Minute)) {
			t.Fatalf("comment = %+v", c)
		}
		r, err := s.CreateComment(member, reference.CreateCommentInput{CardID: acmeOverdueCard, Comment: "Thanks", ParentCommentID: reference.Some(c.ID)})
		wantCode(t, err, "")
		if *r.ParentCommentID != c.ID {
			t.Fatalf("reply parent = %v", r.ParentCommentID)
		}
		page, _ := s.ListComments(member, reference.ListCommentsInput{CardID: acmeOverdueCard})
		if got := commentIDs(page.Comments); !slices.Equal(got, []int64{1, 2, c.ID, r.ID}) {
			t.Fatalf("comments = %v", got)
		}
	})
	t.Run("keeps oldest first when the clock was moved back", func(t *testing.T) {
		s, clock := newStore(t)
		clock.Advance(-3 * 24 * time.Hour)
		c, err := s.CreateComment(member, reference.CreateCommentInput{CardID: acmeOverdueCard, Comment: "Back in time"})
		wantCode(t, err, "")
		page, _ := s.ListComments(member, reference.ListCommentsInput{CardID: acmeOverdueCard})
		if got := commentIDs(page.Comments); !slices.Equal(got, []int64{c.ID, 1, 2}) {
			t.Fatalf("comments = %v", got)
		}
	})
	errs := []struct {
		name, code, field string
		in                reference.CreateCommentInput
	}{
		{"rejects a reply to a comment on another card (D27)", reference.ENOTFOUND, "", reference.CreateCommentInput{CardID: acmeCopyCard, Comment: "x", ParentCommentID: reference.Some[int64](1)}},
		{"rejects a reply to a comment that does not exist (D27)", reference.ENOTFOUND, "", reference.CreateCommentInput{CardID: acmeOverdueCard, Comment: "x", ParentCommentID: reference.Some[int64](999)}},
		{"rejects a comment on a card of another project (D12)", reference.ENOTFOUND, "", reference.CreateCommentInput{CardID: globexCard, Comment: "x"}},
		{"rejects a comment on a master card", reference.ENOTFOUND, "", reference.CreateCommentInput{CardID: masterCard, Comment: "x"}},
		{"rejects an empty comment", "", "comment", reference.CreateCommentInput{CardID: acmeOverdueCard, Comment: ""}},
	}
	for _, tt := range errs {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newStore(t)
			_, err := s.CreateComment(member, tt.in)
			if tt.field != "" {
				wantField(t, err, tt.field)
			} else {
				wantCode(t, err, tt.code)
			}
			if n := len(s.State().Comments); n != 3 {
				t.Fatalf("%d comments after a refused create", n)
			}
		})
	}
}
