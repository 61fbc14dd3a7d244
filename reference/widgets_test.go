package reference_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/reference"
)

func TestListWidgetCards(t *testing.T) {
	t.Run("hides snoozed cards by default and counts them (D29)", func(t *testing.T) {
		s, _ := newStore(t)
		w, err := s.ListWidgetCards(member, reference.ListWidgetCardsInput{ToolKey: toolSEO})
		wantCode(t, err, "")
		if got := cardIDs(w.Cards); !slices.Equal(got, []int64{acmeCopyCard}) || w.SnoozedCount != 1 {
			t.Fatalf("cards %v snoozed %d", got, w.SnoozedCount)
		}
	})
	t.Run("lists snoozed cards with include_snoozed and still counts them", func(t *testing.T) {
		s, _ := newStore(t)
		w, err := s.ListWidgetCards(member, reference.ListWidgetCardsInput{ToolKey: toolSEO, IncludeSnoozed: reference.Some(true)})
		wantCode(t, err, "")
		if got := cardIDs(w.Cards); !slices.Equal(got, []int64{acmeCopyCard, acmeSnoozedCard}) || w.SnoozedCount != 1 {
			t.Fatalf("cards %v snoozed %d", got, w.SnoozedCount)
		}
	})
	t.Run("shows a card again once its snooze has passed", func(t *testing.T) {
		s, clock := newStore(t)
		clock.Advance(25 * time.Hour)
		w, err := s.ListWidgetCards(member, reference.ListWidgetCardsInput{ToolKey: toolSEO, IncludeSnoozed: reference.Some(false)})
		wantCode(t, err, "")
		if got := cardIDs(w.Cards); !slices.Equal(got, []int64{acmeCopyCard, acmeSnoozedCard}) || w.SnoozedCount != 0 {
			t.Fatalf("cards %v snoozed %d", got, w.SnoozedCount)
		}
	})
	t.Run("hides a card snoozed by an update", func(t *testing.T) {
		s, _ := newStore(t)
		_, err := s.UpdateCard(member, reference.UpdateCardInput{ID: acmeCopyCard, SnoozedUntil: reference.Some(t0.Add(time.Hour))})
		wantCode(t, err, "")
		w, _ := s.ListWidgetCards(member, reference.ListWidgetCardsInput{ToolKey: toolSEO})
		if len(w.Cards) != 0 || w.SnoozedCount != 2 {
			t.Fatalf("cards %v snoozed %d", cardIDs(w.Cards), w.SnoozedCount)
		}
	})
	t.Run("refuses a tool the project does not subscribe to, naming it (D13)", func(t *testing.T) {
		s, _ := newStore(t)
		_, err := s.ListWidgetCards(outsider, reference.ListWidgetCardsInput{ToolKey: toolSEO})
		wantCode(t, err, reference.EFORBIDDEN)
		if !strings.Contains(reference.ErrorMessage(err), toolSEO) {
			t.Fatalf("message %q does not name the tool", reference.ErrorMessage(err))
		}
	})
	t.Run("answers an empty list for a subscribed tool without boards", func(t *testing.T) {
		s, _ := newStore(t)
		w, err := s.ListWidgetCards(outsider, reference.ListWidgetCardsInput{ToolKey: toolRank})
		wantCode(t, err, "")
		if got := cardIDs(w.Cards); !slices.Equal(got, []int64{globexCard}) {
			t.Fatalf("cards %v", got)
		}
		w, err = s.ListWidgetCards(initUser, reference.ListWidgetCardsInput{ToolKey: toolRank})
		wantCode(t, err, "")
		if w.Cards == nil || len(w.Cards) != 0 || w.SnoozedCount != 0 {
			t.Fatalf("widget list = %+v", w)
		}
	})
	for _, tt := range []struct{ name, tool string }{{"rejects an empty tool_key", ""}, {"rejects a blank tool_key", "   "}} {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newStore(t)
			_, err := s.ListWidgetCards(member, reference.ListWidgetCardsInput{ToolKey: tt.tool})
			wantField(t, err, "tool_key")
		})
	}
}

func TestUpdateTourCard(t *testing.T) {
	t.Run("sets the status of a master tour card, for any user without a subscription (D32)", func(t *testing.T) {
		s, clock := newStore(t)
		clock.Advance(time.Minute)
		c, err := s.UpdateTourCard(outsider, reference.UpdateTourCardInput{ID: masterTourCard, Status: "closed"})
		wantCode(t, err, "")
		if c.Status != "closed" || !c.UpdatedAt.Equal(t0.Add(time.Minute)) || c.CardType != "tour" {
			t.Fatalf("card = %+v", c)
		}
		c, err = s.UpdateTourCard(member, reference.UpdateTourCardInput{ID: masterTourCard, Status: "open"})
		wantCode(t, err, "")
		if findCard(t, s, masterTourCard).Status != "open" {
			t.Fatal("status not stored")
		}
	})
	t.Run("sets the status of a master widget_tour card too (D32)", func(t *testing.T) {
		s, _ := newStore(t)
		res, err := s.CreateMasterCard(admin, reference.CreateMasterCardInput{GroupID: masterGroup, Title: "Widget tour", CardType: reference.Some("widget_tour")})
		wantCode(t, err, "")
		c, err := s.UpdateTourCard(member, reference.UpdateTourCardInput{ID: res.Card.ID, Status: "closed"})
		wantCode(t, err, "")
		if c.Status != "closed" || c.CardType != "widget_tour" {
			t.Fatalf("card = %+v", c)
		}
	})
	for _, tt := range []struct {
		name, code, field string
		in                reference.UpdateTourCardInput
	}{
		{"rejects a master card that is not a tour card (D32)", reference.ENOTFOUND, "", reference.UpdateTourCardInput{ID: masterCard, Status: "closed"}},
		{"rejects a project card (D32)", reference.ENOTFOUND, "", reference.UpdateTourCardInput{ID: acmeCopyCard, Status: "closed"}},
		{"rejects an unknown card", reference.ENOTFOUND, "", reference.UpdateTourCardInput{ID: 999, Status: "closed"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newStore(t)
			_, err := s.UpdateTourCard(member, tt.in)
			if tt.field != "" {
				wantField(t, err, tt.field)
			} else {
				wantCode(t, err, tt.code)
			}
		})
	}
}
