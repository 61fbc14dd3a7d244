package reference_test

import (
	"fmt"
	"time"

	"github.com/opsapi/mocktoolkit/reference"
)

// exampleState is a minimal world: one project, one member, one board with one group.
func exampleState() reference.State {
	project := int64(1)
	at := time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC)
	return reference.State{
		Projects: []reference.Project{{ID: 1, Name: "Acme", Tools: []string{"seo-audit"}}},
		Users:    []reference.User{{ID: 1, ProjectID: 1, Name: "Mia", Email: "mia@acme.test", Password: "secret"}},
		Boards:   []reference.Board{{ID: 1, ProjectID: &project, PlatformID: 1, Title: "Roadmap", CreatedAt: at, UpdatedAt: at}},
		Groups:   []reference.Group{{ID: 1, ProjectID: &project, PlatformID: 1, BoardID: 1, Title: "Backlog", Type: "default", CreatedAt: at, UpdatedAt: at}},
	}
}

func ExampleStore_CreateCard() {
	now := time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC)
	s, err := reference.New(exampleState(), reference.WithClock(reference.ClockFunc(func() time.Time { return now })))
	if err != nil {
		fmt.Println(err)
		return
	}
	card, err := s.CreateCard(1, reference.CreateCardInput{
		Title:   "Write launch post",
		GroupID: reference.Some[int64](1),
		DueDate: reference.Some(now.Add(-time.Hour)),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(card.ID, card.Title, card.Status, card.Priority, card.IsOverdue, card.CreatedAt.Format(time.RFC3339))

	_, err = s.CreateCard(1, reference.CreateCardInput{Title: "Elsewhere", GroupID: reference.Some[int64](7)})
	fmt.Println(reference.ErrorCode(err), reference.ErrorMessage(err))
	// Output:
	// 1 Write launch post open normal true 2026-11-21T09:30:00Z
	// not_found Group 7 not found.
}

func ExampleStore_UpdateCard() {
	s, _ := reference.New(exampleState())
	card, _ := s.CreateCard(1, reference.CreateCardInput{Title: "Draft", Description: reference.Some("first pass")})

	// D18: omitted leaves a field, null clears a clearable one and leaves a required one.
	card, _ = s.UpdateCard(1, reference.UpdateCardInput{
		ID:          card.ID,
		Title:       reference.Null[string](),
		Description: reference.Null[string](),
		Priority:    reference.Some("urgent"),
	})
	fmt.Println(card.Title, card.Description == nil, card.Priority)
	// Output: Draft true urgent
}
