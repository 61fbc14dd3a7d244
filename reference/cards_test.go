package reference_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/reference"
)

func TestListCards(t *testing.T) {
	s, _ := newStore(t)
	t.Run("lists only the caller's project's cards, without master cards", func(t *testing.T) {
		cards, err := s.ListCards(member)
		wantCode(t, err, "")
		if got, want := cardIDs(cards), []int64{acmeCopyCard, acmeSnoozedCard, acmeOverdueCard}; !slices.Equal(got, want) {
			t.Fatalf("member sees %v, want %v", got, want)
		}
		cards, err = s.ListCards(outsider)
		wantCode(t, err, "")
		if got := cardIDs(cards); !slices.Equal(got, []int64{globexCard}) {
			t.Fatalf("outsider sees %v", got)
		}
	})
	t.Run("answers an empty list, not nil, for a project without cards", func(t *testing.T) {
		cards, err := s.ListCards(admin)
		wantCode(t, err, "")
		if cards == nil || len(cards) != 0 {
			t.Fatalf("cards = %#v", cards)
		}
	})
}

func TestCreateCard(t *testing.T) {
	t.Run("creates a card with the defaults of D19 that then appears in the list", func(t *testing.T) {
		s, _ := newStore(t)
		c, err := s.CreateCard(member, reference.CreateCardInput{Title: "Plan launch", GroupID: reference.Some[int64](acmeBacklog),
			OwnerID: reference.Some[int64](teammate), TagID: reference.Some[int64](acmeTag), DueDate: reference.Some(t0.Add(time.Hour))})
		wantCode(t, err, "")
		if c.Status != "open" || c.Priority != "normal" || c.CardType != "widget" || c.IsMaster || !c.IsActive || c.PlatformID != 1 {
			t.Fatalf("defaults not applied: %+v", c)
		}
		if *c.ProjectID != projAcme || *c.CreatedBy != member || !c.CreatedAt.Equal(t0) || !c.UpdatedAt.Equal(t0) || c.DeletedAt != nil {
			t.Fatalf("ownership or timestamps wrong: %+v", c)
		}
		if c.ID != globexCard+1 {
			t.Fatalf("id = %d, want max+1", c.ID)
		}
		cards, _ := s.ListCards(member)
		if !slices.Contains(cardIDs(cards), c.ID) {
			t.Fatal("created card not listed")
		}
		other, _ := s.ListCards(outsider)
		if slices.Contains(cardIDs(other), c.ID) {
			t.Fatal("created card leaks into another project")
		}
	})
	tests := []struct {
		name  string
		in    reference.CreateCardInput
		code  string
		field string
	}{
		{"rejects a group of another project (D28)", reference.CreateCardInput{Title: "x", GroupID: reference.Some[int64](globexGroup)}, reference.ENOTFOUND, ""},
		{"rejects a master group", reference.CreateCardInput{Title: "x", GroupID: reference.Some[int64](masterGroup)}, reference.ENOTFOUND, ""},
		{"rejects an owner of another project (D28)", reference.CreateCardInput{Title: "x", OwnerID: reference.Some[int64](outsider)}, reference.ENOTFOUND, ""},
		{"rejects a tag of another project (D28)", reference.CreateCardInput{Title: "x", TagID: reference.Some[int64](globexTag)}, reference.ENOTFOUND, ""},
		{"rejects a blank title", reference.CreateCardInput{Title: "  "}, reference.EVALIDATION, "title"},
		{"accepts a title of 255 multi-byte characters", reference.CreateCardInput{Title: strings.Repeat("é", 255)}, "", ""},
		{"accepts any status of at most 50 characters (D19)", reference.CreateCardInput{Title: "x", Status: reference.Some("waiting_for_review")}, "", ""},
		{"treats null fields as omitted", reference.CreateCardInput{Title: "x", Status: reference.Null[string](), Priority: reference.Null[string](), GroupID: reference.Null[int64]()}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newStore(t)
			before, _ := s.ListCards(member)
			_, err := s.CreateCard(member, tt.in)
			if tt.field != "" {
				wantField(t, err, tt.field)
			} else {
				wantCode(t, err, tt.code)
			}
			after, _ := s.ListCards(member)
			if tt.code != "" && len(after) != len(before) {
				t.Fatal("a refused create changed the list")
			}
		})
	}
}

func TestUpdateCard(t *testing.T) {
	day := 24 * time.Hour
	tests := []struct {
		name  string
		in    reference.UpdateCardInput
		check func(t *testing.T, c reference.Card)
	}{
		{"leaves omitted fields unchanged (D18)", reference.UpdateCardInput{}, func(t *testing.T, c reference.Card) {
			if c.Title != "Write launch post" || *c.Description != "Draft first" || *c.OwnerID != member || *c.TagID != acmeTag || c.DueDate == nil {
				t.Fatalf("changed: %+v", c)
			}
		}},
		{"clears clearable fields sent as null (D18)", reference.UpdateCardInput{Description: reference.Null[string](), GroupID: reference.Null[int64](),
			OwnerID: reference.Null[int64](), TagID: reference.Null[int64](), DueDate: reference.Null[time.Time](), SnoozedUntil: reference.Null[time.Time]()},
			func(t *testing.T, c reference.Card) {
				if c.Description != nil || c.GroupID != nil || c.OwnerID != nil || c.TagID != nil || c.DueDate != nil || c.SnoozedUntil != nil {
					t.Fatalf("not cleared: %+v", c)
				}
			}},
		{"leaves title, status and priority sent as null unchanged (D18)", reference.UpdateCardInput{Title: reference.Null[string](),
			Status: reference.Null[string](), Priority: reference.Null[string]()}, func(t *testing.T, c reference.Card) {
			if c.Title != "Write launch post" || c.Status != "open" || c.Priority != "normal" {
				t.Fatalf("changed: %+v", c)
			}
		}},
		{"replaces fields sent with a value", reference.UpdateCardInput{Title: reference.Some("Ship it"), Status: reference.Some("closed"),
			Priority: reference.Some("urgent"), GroupID: reference.Some[int64](acmeSEOGroup), OwnerID: reference.Some[int64](teammate),
			SnoozedUntil: reference.Some(t0.Add(day))}, func(t *testing.T, c reference.Card) {
			if c.Title != "Ship it" || c.Status != "closed" || c.Priority != "urgent" || *c.GroupID != acmeSEOGroup || *c.OwnerID != teammate || !c.SnoozedUntil.Equal(t0.Add(day)) {
				t.Fatalf("not replaced: %+v", c)
			}
			if c.IsOverdue {
				t.Fatal("a closed card is not overdue (D31)")
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, clock := newStore(t)
			clock.Advance(time.Minute)
			tt.in.ID = acmeOverdueCard
			c, err := s.UpdateCard(member, tt.in)
			wantCode(t, err, "")
			tt.check(t, c)
			if !c.UpdatedAt.Equal(t0.Add(time.Minute)) {
				t.Fatalf("updated_at = %v", c.UpdatedAt)
			}
			listed, _ := s.ListCards(member)
			i := slices.Index(cardIDs(listed), acmeOverdueCard)
			tt.check(t, listed[i])
		})
	}
	errs := []struct {
		name, code, field string
		in                reference.UpdateCardInput
	}{
		{"rejects a card of another project (D12)", reference.ENOTFOUND, "", reference.UpdateCardInput{ID: globexCard, Title: reference.Some("mine")}},
		{"rejects a master card", reference.ENOTFOUND, "", reference.UpdateCardInput{ID: masterCard}},
		{"rejects an unknown card", reference.ENOTFOUND, "", reference.UpdateCardInput{ID: 999}},
		{"rejects a tag of another project (D28)", reference.ENOTFOUND, "", reference.UpdateCardInput{ID: acmeOverdueCard, TagID: reference.Some[int64](globexTag)}},
		{"rejects a group of another project (D28)", reference.ENOTFOUND, "", reference.UpdateCardInput{ID: acmeOverdueCard, GroupID: reference.Some[int64](globexGroup)}},
		{"rejects an owner of another project (D28)", reference.ENOTFOUND, "", reference.UpdateCardInput{ID: acmeOverdueCard, OwnerID: reference.Some[int64](outsider)}},
		{"rejects an empty title", "", "title", reference.UpdateCardInput{ID: acmeOverdueCard, Title: reference.Some("")}},
	}
	for _, tt := range errs {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newStore(t)
			var before reference.Card
			if tt.in.ID != 999 {
				before = findCard(t, s, tt.in.ID)
			}
			_, err := s.UpdateCard(member, tt.in)
			if tt.field != "" {
				wantField(t, err, tt.field)
			} else {
				wantCode(t, err, tt.code)
			}
			if tt.in.ID != 999 && !equalCards(before, findCard(t, s, tt.in.ID)) {
				t.Fatal("a refused update changed the card")
			}
		})
	}
}

func TestIsOverdueFollowsTheClock(t *testing.T) {
	s, clock := newStore(t)
	c, err := s.CreateCard(member, reference.CreateCardInput{Title: "Due soon", DueDate: reference.Some(t0.Add(time.Hour))})
	wantCode(t, err, "")
	if c.IsOverdue {
		t.Fatal("overdue before its due date")
	}
	clock.Advance(2 * time.Hour)
	cards, _ := s.ListCards(member)
	if got := cards[slices.Index(cardIDs(cards), c.ID)]; !got.IsOverdue {
		t.Fatal("not overdue after its due date (D31)")
	}
	closed, err := s.UpdateCard(member, reference.UpdateCardInput{ID: c.ID, Status: reference.Some("closed")})
	wantCode(t, err, "")
	if closed.IsOverdue {
		t.Fatal("closed work is overdue (D31)")
	}
}

func equalCards(a, b reference.Card) bool {
	return a.Title == b.Title && a.UpdatedAt.Equal(b.UpdatedAt) && a.Priority == b.Priority &&
		slices.Equal(ptrs(a.TagID, a.GroupID, a.OwnerID), ptrs(b.TagID, b.GroupID, b.OwnerID))
}

func ptrs(ps ...*int64) []int64 {
	out := make([]int64, len(ps))
	for i, p := range ps {
		if p != nil {
			out[i] = *p
		}
	}
	return out
}
