package reference_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/opsapi/mocktoolkit/reference"
)

func TestConcurrentWritesAreNotLost(t *testing.T) {
	s, _ := newStore(t)
	const workers, each = 32, 25
	var (
		mu       sync.Mutex
		cards    []int64
		comments []int64
		wg       sync.WaitGroup
	)
	for w := range workers {
		user := []int64{member, teammate}[w%2]
		wg.Go(func() {
			for i := range each {
				c, err := s.CreateCard(user, reference.CreateCardInput{Title: fmt.Sprintf("w%d-%d", w, i), GroupID: reference.Some[int64](acmeBacklog)})
				if err != nil {
					t.Errorf("create card: %v", err)
					return
				}
				m, err := s.CreateComment(user, reference.CreateCommentInput{CardID: acmeOverdueCard, Comment: c.Title})
				if err != nil {
					t.Errorf("create comment: %v", err)
					return
				}
				// Readers run alongside the writers.
				if _, err := s.ListWidgetCards(user, reference.ListWidgetCardsInput{ToolKey: toolSEO}); err != nil {
					t.Errorf("widget list: %v", err)
				}
				_ = s.State()
				mu.Lock()
				cards, comments = append(cards, c.ID), append(comments, m.ID)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(cards) != workers*each {
		t.Fatalf("%d cards acknowledged, want %d", len(cards), workers*each)
	}
	listed, err := s.ListCards(member)
	wantCode(t, err, "")
	have := cardIDs(listed)
	for _, id := range cards {
		if !slices.Contains(have, id) {
			t.Fatalf("acknowledged card %d is missing", id)
		}
	}
	slices.Sort(cards)
	if len(slices.Compact(cards)) != workers*each {
		t.Fatal("an id was handed out twice")
	}
	page, err := s.ListComments(member, reference.ListCommentsInput{CardID: acmeOverdueCard, PerPage: reference.Some[int64](100)})
	wantCode(t, err, "")
	if page.Pagination.Total != int64(workers*each+2) {
		t.Fatalf("%d comments, want %d", page.Pagination.Total, workers*each+2)
	}
	var all []int64
	for p := int64(1); p <= page.Pagination.TotalPages; p++ {
		pg, _ := s.ListComments(member, reference.ListCommentsInput{CardID: acmeOverdueCard, Page: reference.Some(p), PerPage: reference.Some[int64](100)})
		all = append(all, commentIDs(pg.Comments)...)
	}
	for _, id := range comments {
		if !slices.Contains(all, id) {
			t.Fatalf("acknowledged comment %d is missing", id)
		}
	}
}
