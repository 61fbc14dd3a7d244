package reference_test

import (
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/reference"
)

// A project holds at most WithMaxRecordsPerProject cards, comments and tags (D70): the next
// create of any of them is ECAPACITY (400, the mock's own bound), and other projects are not affected.
func TestMaxRecordsPerProjectRefusesTheNextRecord(t *testing.T) {
	probe, _ := newStore(t)
	var held int
	for _, c := range probe.State().Cards {
		if c.ProjectID != nil && *c.ProjectID == projAcme {
			held++
		}
	}
	for _, c := range probe.State().Comments {
		if c.ProjectID == projAcme {
			held++
		}
	}
	for _, tg := range probe.State().Tags {
		if tg.ProjectID == projAcme {
			held++
		}
	}
	s, _ := newStore(t, reference.WithMaxRecordsPerProject(held+2))
	card, err := s.CreateCard(member, reference.CreateCardInput{Title: "one more"})
	if err != nil {
		t.Fatalf("card under the limit: %v", err)
	}
	if _, err := s.CreateComment(member, reference.CreateCommentInput{CardID: card.ID, Comment: "last one"}); err != nil {
		t.Fatalf("comment at the limit: %v", err)
	}
	_, err = s.CreateTag(member, reference.CreateTagInput{Name: "too many"})
	wantCode(t, err, reference.ECAPACITY)
	_, err = s.CreateCard(member, reference.CreateCardInput{Title: "too many"})
	wantCode(t, err, reference.ECAPACITY)
	_, err = s.CreateComment(member, reference.CreateCommentInput{CardID: card.ID, Comment: "too many"})
	wantCode(t, err, reference.ECAPACITY)
	if _, err := s.CreateCard(outsider, reference.CreateCardInput{Title: "another project"}); err != nil {
		t.Errorf("another project is refused too: %v", err)
	}
}

// Master boards, groups and cards count under the same maximum, in a bucket of their own
// (D70): an unbounded stream of master cards pushed to every project would otherwise grow the
// store past any project's cap.
func TestMaxRecordsCountsMasterRecords(t *testing.T) {
	probe, _ := newStore(t)
	st := probe.State()
	held := 0
	for _, c := range st.Cards {
		if c.IsMaster {
			held++
		}
	}
	var board int64
	for _, b := range st.Boards {
		if b.IsMaster {
			held++
			board = b.ID
		}
	}
	for _, g := range st.Groups {
		if g.IsMaster {
			held++
		}
	}
	s, _ := newStore(t, reference.WithMaxRecordsPerProject(held+2))
	g, err := s.CreateMasterGroup(admin, reference.CreateMasterGroupInput{BoardID: board, Title: "one more"})
	if err != nil {
		t.Fatalf("master group under the limit: %v", err)
	}
	if _, err := s.CreateMasterCard(admin, reference.CreateMasterCardInput{GroupID: g.ID, Title: "last one", PushToProjects: reference.Some(true)}); err != nil {
		t.Fatalf("master card at the limit: %v", err)
	}
	_, err = s.CreateMasterCard(admin, reference.CreateMasterCardInput{GroupID: g.ID, Title: "too many"})
	wantCode(t, err, reference.ECAPACITY)
	_, err = s.CreateMasterBoard(admin, reference.CreateMasterBoardInput{Title: "too many", ToolKey: "crm"})
	wantCode(t, err, reference.ECAPACITY)
	if err == nil || !strings.Contains(err.Error(), "master boards, groups and cards") {
		t.Errorf("the refusal %v does not say it counts the master records", err)
	}
}

// A new card goes one past the largest live position of its group, also after cards moved
// out of the group or were deleted with it, as when positions were found by a scan.
func TestCardPositionsFollowMovesAndDeletes(t *testing.T) {
	s, _ := newStore(t)
	a, err := s.CreateCard(member, reference.CreateCardInput{Title: "a"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.CreateCard(member, reference.CreateCardInput{Title: "b"})
	if err != nil {
		t.Fatal(err)
	}
	if b.Position != a.Position+1 {
		t.Fatalf("positions %d then %d, want consecutive", a.Position, b.Position)
	}
	groups := s.State().Groups
	var group int64
	for _, g := range groups {
		if g.ProjectID != nil && *g.ProjectID == projAcme && g.DeletedAt == nil && !g.IsMaster {
			group = g.ID
			break
		}
	}
	if _, err := s.UpdateCard(member, reference.UpdateCardInput{ID: b.ID, GroupID: reference.Some(group)}); err != nil {
		t.Fatalf("move b: %v", err)
	}
	c, err := s.CreateCard(member, reference.CreateCardInput{Title: "c"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Position != b.Position {
		t.Errorf("after b moved out, c has position %d, want %d (b's old place)", c.Position, b.Position)
	}
}
