package reference_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/opsapi/mocktoolkit/reference"
)

func TestSuperadminOperationsRefuseMembers(t *testing.T) {
	s, _ := newStore(t)
	calls := map[string]func(user int64) error{
		"CreateMasterCard": func(u int64) error {
			_, err := s.CreateMasterCard(u, reference.CreateMasterCardInput{GroupID: masterGroup, Title: "x"})
			return err
		},
		"UpdateMasterCard": func(u int64) error {
			_, err := s.UpdateMasterCard(u, reference.UpdateMasterCardInput{ID: masterCard})
			return err
		},
		"UpdateMasterGroup": func(u int64) error {
			_, err := s.UpdateMasterGroup(u, reference.UpdateMasterGroupInput{ID: masterGroup})
			return err
		},
		"SyncMasterBoard": func(u int64) error {
			_, err := s.SyncMasterBoard(u, reference.SyncMasterBoardInput{BoardID: masterBoard})
			return err
		},
		"CreateMasterBoard": func(u int64) error {
			_, err := s.CreateMasterBoard(u, reference.CreateMasterBoardInput{Title: "x", ToolKey: "y"})
			return err
		},
		"ListMasterBoards": func(u int64) error { _, err := s.ListMasterBoards(u); return err },
		"CreateMasterGroup": func(u int64) error {
			_, err := s.CreateMasterGroup(u, reference.CreateMasterGroupInput{BoardID: masterBoard, Title: "x"})
			return err
		},
	}
	before := s.State()
	for name, call := range calls {
		t.Run(name+" is forbidden to a member", func(t *testing.T) {
			wantCode(t, call(member), reference.EFORBIDDEN)
		})
		t.Run(name+" rejects an unknown user", func(t *testing.T) {
			wantCode(t, call(nobody), reference.EUNAUTHENTICATED)
		})
	}
	after := s.State()
	if len(after.Cards) != len(before.Cards) || len(after.Boards) != len(before.Boards) || len(after.Groups) != len(before.Groups) {
		t.Fatal("a refused call changed the state")
	}
}

func TestCreateMasterCard(t *testing.T) {
	t.Run("creates a master card with defaults and pushes nothing without push_to_projects", func(t *testing.T) {
		s, _ := newStore(t)
		res, err := s.CreateMasterCard(admin, reference.CreateMasterCardInput{GroupID: masterGroup, Title: "Alt texts", PushToProjects: reference.Null[bool]()})
		wantCode(t, err, "")
		c := res.Card
		if !c.IsMaster || c.ProjectID != nil || c.CardType != "widget" || c.Status != "open" || c.Priority != "normal" || !c.IsActive || *c.GroupID != masterGroup {
			t.Fatalf("card = %+v", c)
		}
		if res.ProjectsUpdated != 0 {
			t.Fatalf("projects_updated = %d, want 0 (D22)", res.ProjectsUpdated)
		}
		if cards, _ := s.ListCards(member); slices.Contains(cardIDs(cards), c.ID) {
			t.Fatal("a master card is visible to a project (D17)")
		}
	})
	t.Run("pushes to subscribed projects only, creating missing board and group copies (D23)", func(t *testing.T) {
		s, _ := newStore(t)
		res, err := s.CreateMasterCard(admin, reference.CreateMasterCardInput{GroupID: masterGroup, Title: "Alt texts", CardType: reference.Some("widget_tour"),
			Status: reference.Some("to_check"), Priority: reference.Some("high"), IsActive: reference.Some(false), TourKey: reference.Some("alt"), PushToProjects: reference.Some(true)})
		wantCode(t, err, "")
		if res.ProjectsUpdated != 2 {
			t.Fatalf("projects_updated = %d, want 2 (Acme and Initech)", res.ProjectsUpdated)
		}
		for _, tt := range []struct {
			caller int64
			copies int
		}{{member, 1}, {initUser, 1}, {outsider, 0}, {admin, 0}} {
			cards, _ := s.ListCards(tt.caller)
			var copies []reference.Card
			for _, c := range cards {
				if c.MasterCardID != nil && *c.MasterCardID == res.Card.ID {
					copies = append(copies, c)
				}
			}
			if len(copies) != tt.copies {
				t.Fatalf("user %d has %d copies, want %d", tt.caller, len(copies), tt.copies)
			}
			if tt.copies == 1 {
				c := copies[0]
				if c.Title != "Alt texts" || c.CardType != "widget_tour" || c.Status != "to_check" || c.Priority != "high" || c.IsActive || *c.TourKey != "alt" {
					t.Fatalf("copy = %+v", c)
				}
			}
		}
		boards, _ := s.ListBoards(initUser, reference.ListBoardsInput{ToolKey: reference.Some(toolSEO)})
		if len(boards) != 1 || *boards[0].MasterBoardID != masterBoard {
			t.Fatalf("Initech boards = %+v", boards)
		}
		acmeBoards, _ := s.ListBoards(member, reference.ListBoardsInput{ToolKey: reference.Some(toolSEO)})
		if got := boardIDs(acmeBoards); !slices.Equal(got, []int64{acmeSEOBoard}) {
			t.Fatalf("Acme got another board copy: %v", got)
		}
	})
	for _, tt := range []struct {
		name, code, field string
		in                reference.CreateMasterCardInput
	}{
		{"rejects an unknown group", reference.ENOTFOUND, "", reference.CreateMasterCardInput{GroupID: 999, Title: "x"}},
		{"rejects a project group", reference.ENOTFOUND, "", reference.CreateMasterCardInput{GroupID: acmeSEOGroup, Title: "x"}},
		{"rejects a blank title", "", "title", reference.CreateMasterCardInput{GroupID: masterGroup}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newStore(t)
			_, err := s.CreateMasterCard(admin, tt.in)
			if tt.field != "" {
				wantField(t, err, tt.field)
			} else {
				wantCode(t, err, tt.code)
			}
		})
	}
}

func TestUpdateMasterCard(t *testing.T) {
	t.Run("applies D18 and carries the update to copies with sync_to_projects", func(t *testing.T) {
		s, _ := newStore(t)
		res, err := s.UpdateMasterCard(admin, reference.UpdateMasterCardInput{ID: masterCard, Title: reference.Some("Check all titles"),
			Status: reference.Some("in_progress"), Priority: reference.Null[string](), ShortDescription: reference.Some("short"), SyncToProjects: reference.Some(true)})
		wantCode(t, err, "")
		if res.ProjectsUpdated != 1 {
			t.Fatalf("projects_updated = %d, want 1 copy (D22)", res.ProjectsUpdated)
		}
		if c := res.Card; c.Title != "Check all titles" || c.Status != "in_progress" || c.Priority != "normal" || *c.ShortDescription != "short" {
			t.Fatalf("master = %+v", c)
		}
		cp := findCard(t, s, acmeCopyCard)
		if cp.Title != "Check all titles" || cp.Status != "in_progress" || *cp.ShortDescription != "short" || *cp.GroupID != acmeSEOGroup {
			t.Fatalf("copy = %+v", cp)
		}
	})
	t.Run("leaves copies alone without sync_to_projects", func(t *testing.T) {
		s, _ := newStore(t)
		res, err := s.UpdateMasterCard(admin, reference.UpdateMasterCardInput{ID: masterCard, Title: reference.Some("New")})
		wantCode(t, err, "")
		if res.ProjectsUpdated != 0 || findCard(t, s, acmeCopyCard).Title != "Check titles" {
			t.Fatalf("copies changed: %d", res.ProjectsUpdated)
		}
	})
	t.Run("moves copies to their project's copy of a new group", func(t *testing.T) {
		s, _ := newStore(t)
		g, err := s.CreateMasterGroup(admin, reference.CreateMasterGroupInput{BoardID: masterBoard, Title: "Later"})
		wantCode(t, err, "")
		_, err = s.UpdateMasterCard(admin, reference.UpdateMasterCardInput{ID: masterCard, GroupID: reference.Some(g.ID), SyncToProjects: reference.Some(true)})
		wantCode(t, err, "")
		cp := findCard(t, s, acmeCopyCard)
		var group reference.Group
		for _, x := range s.State().Groups {
			if x.ID == *cp.GroupID {
				group = x
			}
		}
		if group.MasterGroupID == nil || *group.MasterGroupID != g.ID || *group.ProjectID != projAcme || group.BoardID != acmeSEOBoard {
			t.Fatalf("copy's group = %+v", group)
		}
	})
	t.Run("leaves a copy in its group when its project does not subscribe to the new board's tool (D23, D47)", func(t *testing.T) {
		s, _ := newStore(t)
		mb, err := s.CreateMasterBoard(admin, reference.CreateMasterBoardInput{Title: "Other tool", ToolKey: "a-tool-nobody-subscribes-to"})
		wantCode(t, err, "")
		g, err := s.CreateMasterGroup(admin, reference.CreateMasterGroupInput{BoardID: mb.ID, Title: "Elsewhere"})
		wantCode(t, err, "")
		boards := len(s.State().Boards)
		res, err := s.UpdateMasterCard(admin, reference.UpdateMasterCardInput{ID: masterCard, GroupID: reference.Some(g.ID), Title: reference.Some("Moved"), SyncToProjects: reference.Some(true)})
		wantCode(t, err, "")
		cp := findCard(t, s, acmeCopyCard)
		if *cp.GroupID != acmeSEOGroup || cp.Title != "Moved" || res.ProjectsUpdated != 1 {
			t.Errorf("copy in group %d titled %q (%d updated), want it left in group %d with the new title", *cp.GroupID, cp.Title, res.ProjectsUpdated, acmeSEOGroup)
		}
		if n := len(s.State().Boards); n != boards {
			t.Errorf("%d boards after the update, want %d: a copy of a board whose tool the project lacks", n, boards)
		}
	})
	t.Run("keeps group_id sent as null, clears description (D18: a master card always has a group)", func(t *testing.T) {
		s, _ := newStore(t)
		before, _ := s.UpdateMasterCard(admin, reference.UpdateMasterCardInput{ID: masterCard})
		res, err := s.UpdateMasterCard(admin, reference.UpdateMasterCardInput{ID: masterCard, GroupID: reference.Null[int64](), Description: reference.Null[string](), SyncToProjects: reference.Some(true)})
		wantCode(t, err, "")
		if res.Card.GroupID == nil || *res.Card.GroupID != *before.Card.GroupID {
			t.Fatalf("group_id = %v, want %d", res.Card.GroupID, *before.Card.GroupID)
		}
		if res.Card.Description != nil {
			t.Fatalf("description = %q, want null", *res.Card.Description)
		}
		for _, c := range s.State().Cards {
			if c.MasterCardID != nil && *c.MasterCardID == masterCard && c.GroupID == nil {
				t.Fatalf("copy %d lost its group", c.ID)
			}
		}
	})
	for _, tt := range []struct {
		name, code, field string
		in                reference.UpdateMasterCardInput
	}{
		{"rejects a project card", reference.ENOTFOUND, "", reference.UpdateMasterCardInput{ID: acmeCopyCard}},
		{"rejects a project group", reference.ENOTFOUND, "", reference.UpdateMasterCardInput{ID: masterCard, GroupID: reference.Some[int64](acmeSEOGroup)}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newStore(t)
			_, err := s.UpdateMasterCard(admin, tt.in)
			if tt.field != "" {
				wantField(t, err, tt.field)
			} else {
				wantCode(t, err, tt.code)
			}
		})
	}
}

func TestSyncMasterBoard(t *testing.T) {
	s, _ := newStore(t)
	copiesOf := func(project int64) []int64 {
		var masters []int64
		for _, c := range s.State().Cards {
			if c.ProjectID != nil && *c.ProjectID == project && c.MasterCardID != nil {
				masters = append(masters, *c.MasterCardID)
			}
		}
		slices.Sort(masters)
		return masters
	}
	t.Run("creates missing boards and cards in subscribed projects (D23, D24)", func(t *testing.T) {
		res, err := s.SyncMasterBoard(admin, reference.SyncMasterBoardInput{BoardID: masterBoard})
		wantCode(t, err, "")
		if want := (reference.SyncResult{SyncedCount: 2, BoardsCreated: 1, SkippedNoAccess: 2}); res != want {
			t.Fatalf("result = %+v, want %+v", res, want)
		}
		for _, project := range []int64{projAcme, projInit} {
			if got := copiesOf(project); !slices.Equal(got, []int64{masterCard, masterTourCard}) {
				t.Fatalf("project %d copies %v", project, got)
			}
		}
		if got := copiesOf(projGlobex); len(got) != 0 {
			t.Fatalf("an unsubscribed project got copies %v", got)
		}
	})
	t.Run("creates nothing on a second sync", func(t *testing.T) {
		before := s.State()
		res, err := s.SyncMasterBoard(admin, reference.SyncMasterBoardInput{BoardID: masterBoard})
		wantCode(t, err, "")
		if want := (reference.SyncResult{SyncedCount: 2, BoardsCreated: 0, SkippedNoAccess: 2}); res != want {
			t.Fatalf("result = %+v, want %+v", res, want)
		}
		after := s.State()
		if len(after.Cards) != len(before.Cards) || len(after.Boards) != len(before.Boards) || len(after.Groups) != len(before.Groups) {
			t.Fatal("a second sync created records")
		}
	})
	t.Run("adds a new master card on the next sync", func(t *testing.T) {
		res, err := s.CreateMasterCard(admin, reference.CreateMasterCardInput{GroupID: masterGroup, Title: "New"})
		wantCode(t, err, "")
		_, err = s.SyncMasterBoard(admin, reference.SyncMasterBoardInput{BoardID: masterBoard})
		wantCode(t, err, "")
		if got := copiesOf(projInit); !slices.Contains(got, res.Card.ID) {
			t.Fatalf("Initech copies %v lack %d", got, res.Card.ID)
		}
	})
	t.Run("rejects a board that is not a master board", func(t *testing.T) {
		_, err := s.SyncMasterBoard(admin, reference.SyncMasterBoardInput{BoardID: acmeSEOBoard})
		wantCode(t, err, reference.ENOTFOUND)
	})
}

// Copies made by a push or a sync go last in their container, as a create puts a record there
// (D45): they took their template's position, and shared it with the project's own records
// (a pushed card at position 4 beside the member's card at 4, a synced board beside the
// member's board at 2).
func TestCopiesGoLastInTheirContainer(t *testing.T) {
	s, _ := newStore(t)
	if _, err := s.SyncMasterBoard(admin, reference.SyncMasterBoardInput{BoardID: masterBoard}); err != nil {
		t.Fatal(err)
	}
	// The project's own records beside the copies: a card in the copy's group, at its end.
	var group int64
	for _, g := range s.State().Groups {
		if g.ProjectID != nil && *g.ProjectID == projAcme && g.MasterGroupID != nil && *g.MasterGroupID == masterGroup {
			group = g.ID
		}
	}
	if _, err := s.CreateCard(member, reference.CreateCardInput{Title: "mine", GroupID: reference.Some(group)}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateMasterCard(admin, reference.CreateMasterCardInput{GroupID: masterGroup, Title: "pushed", PushToProjects: reference.Some(true)}); err != nil {
		t.Fatal(err)
	}
	mb, err := s.CreateMasterBoard(admin, reference.CreateMasterBoardInput{Title: "New template", ToolKey: toolSEO})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateMasterGroup(admin, reference.CreateMasterGroupInput{BoardID: mb.ID, Title: "New column"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SyncMasterBoard(admin, reference.SyncMasterBoardInput{BoardID: mb.ID}); err != nil {
		t.Fatal(err)
	}
	st := s.State()
	taken := map[string]int64{}
	claim := func(container string, pos, id int64) {
		t.Helper()
		if other, dup := taken[fmt.Sprintf("%s@%d", container, pos)]; dup {
			t.Errorf("%s: records %d and %d share position %d", container, other, id, pos)
		}
		taken[fmt.Sprintf("%s@%d", container, pos)] = id
	}
	for _, b := range st.Boards {
		if b.ProjectID != nil && b.DeletedAt == nil {
			claim(fmt.Sprintf("boards of project %d", *b.ProjectID), b.Position, b.ID)
		}
	}
	for _, g := range st.Groups {
		if g.DeletedAt == nil {
			claim(fmt.Sprintf("groups of board %d", g.BoardID), g.Position, g.ID)
		}
	}
	for _, c := range st.Cards {
		if c.GroupID != nil && c.DeletedAt == nil {
			claim(fmt.Sprintf("cards of group %d", *c.GroupID), c.Position, c.ID)
		}
	}
}
