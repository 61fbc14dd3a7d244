package reference_test

import (
	"slices"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/reference"
)

func boardIDs(bs []reference.Board) []int64 {
	return idsOf(bs, func(b reference.Board) int64 { return b.ID })
}

func TestListBoards(t *testing.T) {
	s, _ := newStore(t)
	tests := []struct {
		name   string
		caller int64
		in     reference.ListBoardsInput
		want   []int64
	}{
		{"lists the caller's project's boards, not master boards", member, reference.ListBoardsInput{}, []int64{acmeSEOBoard, acmePlainBoard}},
		{"filters by a tool_key sent in the body (D30)", member, reference.ListBoardsInput{ToolKey: reference.Some(toolSEO)}, []int64{acmeSEOBoard}},
		{"treats a null tool_key as no filter", member, reference.ListBoardsInput{ToolKey: reference.Null[string]()}, []int64{acmeSEOBoard, acmePlainBoard}},
		{"treats a blank tool_key as no filter, as null", member, reference.ListBoardsInput{ToolKey: reference.Some(" ")}, []int64{acmeSEOBoard, acmePlainBoard}},
		{"answers an empty list for a tool without boards", member, reference.ListBoardsInput{ToolKey: reference.Some(toolRank)}, []int64{}},
		{"keeps another project's boards out (D12)", outsider, reference.ListBoardsInput{}, []int64{globexBoard}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			boards, err := s.ListBoards(tt.caller, tt.in)
			wantCode(t, err, "")
			if got := boardIDs(boards); !slices.Equal(got, tt.want) {
				t.Fatalf("boards = %v, want %v", got, tt.want)
			}
		})
	}
	t.Run("matches no board with a tool_key longer than any tool key (D30: no length bound)", func(t *testing.T) {
		boards, err := s.ListBoards(member, reference.ListBoardsInput{ToolKey: reference.Some(long256)})
		wantCode(t, err, "")
		if len(boards) != 0 {
			t.Fatalf("boards = %v, want none", boardIDs(boards))
		}
	})
}

func TestUpdateBoard(t *testing.T) {
	tests := []struct {
		name  string
		in    reference.UpdateBoardInput
		check func(t *testing.T, b reference.Board)
	}{
		{"leaves omitted fields unchanged (D18)", reference.UpdateBoardInput{}, func(t *testing.T, b reference.Board) {
			if b.Title != "Roadmap" || *b.Description != "Next quarter" || *b.Color != "#ff0000" || *b.Icon != "map" || b.Position != 2 {
				t.Fatalf("changed: %+v", b)
			}
		}},
		{"clears description, color and icon sent as null (D18)", reference.UpdateBoardInput{Description: reference.Null[string](),
			Color: reference.Null[string](), Icon: reference.Null[string]()}, func(t *testing.T, b reference.Board) {
			if b.Description != nil || b.Color != nil || b.Icon != nil {
				t.Fatalf("not cleared: %+v", b)
			}
		}},
		{"leaves title and position sent as null unchanged (D18)", reference.UpdateBoardInput{Title: reference.Null[string](), Position: reference.Null[int64]()},
			func(t *testing.T, b reference.Board) {
				if b.Title != "Roadmap" || b.Position != 2 {
					t.Fatalf("changed: %+v", b)
				}
			}},
		{"replaces fields sent with a value", reference.UpdateBoardInput{Title: reference.Some("Plan"), Color: reference.Some("blue"), Position: reference.Some[int64](7)},
			func(t *testing.T, b reference.Board) {
				if b.Title != "Plan" || *b.Color != "blue" || b.Position != 7 {
					t.Fatalf("not replaced: %+v", b)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, clock := newStore(t)
			clock.Advance(time.Minute)
			tt.in.ID = acmePlainBoard
			b, err := s.UpdateBoard(member, tt.in)
			wantCode(t, err, "")
			tt.check(t, b)
			if !b.UpdatedAt.Equal(t0.Add(time.Minute)) {
				t.Fatalf("updated_at = %v", b.UpdatedAt)
			}
			boards, _ := s.ListBoards(member, reference.ListBoardsInput{})
			tt.check(t, boards[slices.Index(boardIDs(boards), acmePlainBoard)])
		})
	}
	s, _ := newStore(t)
	t.Run("rejects a board of another project (D12)", func(t *testing.T) {
		_, err := s.UpdateBoard(member, reference.UpdateBoardInput{ID: globexBoard, Title: reference.Some("mine")})
		wantCode(t, err, reference.ENOTFOUND)
	})
	t.Run("rejects a master board", func(t *testing.T) {
		_, err := s.UpdateBoard(member, reference.UpdateBoardInput{ID: masterBoard})
		wantCode(t, err, reference.ENOTFOUND)
	})
}

func TestMasterBoards(t *testing.T) {
	t.Run("creates a master board without a project that the master list shows (D17)", func(t *testing.T) {
		s, _ := newStore(t)
		b, err := s.CreateMasterBoard(admin, reference.CreateMasterBoardInput{Title: "Ranks", ToolKey: toolRank, Color: reference.Some("green")})
		wantCode(t, err, "")
		if !b.IsMaster || b.ProjectID != nil || *b.ToolKey != toolRank || *b.Color != "green" || b.Description != nil {
			t.Fatalf("board = %+v", b)
		}
		boards, err := s.ListMasterBoards(admin)
		wantCode(t, err, "")
		if got := boardIDs(boards); !slices.Equal(got, []int64{masterBoard, b.ID}) {
			t.Fatalf("master boards = %v", got)
		}
		mine, _ := s.ListBoards(member, reference.ListBoardsInput{})
		if slices.Contains(boardIDs(mine), b.ID) {
			t.Fatal("a master board is listed in a project")
		}
	})
	s, _ := newStore(t)
	t.Run("rejects a master board without a tool_key", func(t *testing.T) {
		_, err := s.CreateMasterBoard(admin, reference.CreateMasterBoardInput{Title: "x"})
		wantField(t, err, "tool_key")
	})
}

func TestDeleteGroup(t *testing.T) {
	t.Run("soft-deletes the group and its cards, which leave every list (D25)", func(t *testing.T) {
		s, clock := newStore(t)
		clock.Advance(time.Minute)
		wantCode(t, s.DeleteGroup(member, reference.DeleteGroupInput{ID: acmeSEOGroup}), "")
		cards, _ := s.ListCards(member)
		if got := cardIDs(cards); !slices.Equal(got, []int64{acmeOverdueCard}) {
			t.Fatalf("cards after delete = %v", got)
		}
		w, err := s.ListWidgetCards(member, reference.ListWidgetCardsInput{ToolKey: toolSEO, IncludeSnoozed: reference.Some(true)})
		wantCode(t, err, "")
		if len(w.Cards) != 0 || w.SnoozedCount != 0 {
			t.Fatalf("widget list after delete = %+v", w)
		}
		_, err = s.UpdateCard(member, reference.UpdateCardInput{ID: acmeCopyCard, Title: reference.Some("back")})
		wantCode(t, err, reference.ENOTFOUND)
		if d := findCard(t, s, acmeCopyCard).DeletedAt; d == nil || !d.Equal(t0.Add(time.Minute)) {
			t.Fatalf("deleted_at = %v", d)
		}
		wantCode(t, s.DeleteGroup(member, reference.DeleteGroupInput{ID: acmeSEOGroup}), reference.ENOTFOUND)
		_, err = s.CreateCard(member, reference.CreateCardInput{Title: "x", GroupID: reference.Some[int64](acmeSEOGroup)})
		wantCode(t, err, reference.ENOTFOUND)
	})
	s, _ := newStore(t)
	for _, tt := range []struct {
		name string
		id   int64
	}{{"rejects a group of another project (D12)", globexGroup}, {"rejects a master group", masterGroup}, {"rejects an unknown group", 0}} {
		t.Run(tt.name, func(t *testing.T) {
			wantCode(t, s.DeleteGroup(member, reference.DeleteGroupInput{ID: tt.id}), reference.ENOTFOUND)
		})
	}
	if cards, _ := s.ListCards(outsider); len(cards) != 1 {
		t.Fatal("a refused delete removed another project's card")
	}
}

func TestMasterGroups(t *testing.T) {
	t.Run("creates a master group on a master board", func(t *testing.T) {
		s, _ := newStore(t)
		g, err := s.CreateMasterGroup(admin, reference.CreateMasterGroupInput{BoardID: masterBoard, Title: "Off-page", Description: reference.Some("links")})
		wantCode(t, err, "")
		if !g.IsMaster || g.ProjectID != nil || g.BoardID != masterBoard || g.Position != 2 || *g.Description != "links" || g.PlatformID != 1 {
			t.Fatalf("group = %+v", g)
		}
	})
	t.Run("rejects a board that is not a master board", func(t *testing.T) {
		s, _ := newStore(t)
		_, err := s.CreateMasterGroup(admin, reference.CreateMasterGroupInput{BoardID: acmeSEOBoard, Title: "x"})
		wantCode(t, err, reference.ENOTFOUND)
	})
	t.Run("updates a master group following D18", func(t *testing.T) {
		s, _ := newStore(t)
		g, err := s.UpdateMasterGroup(admin, reference.UpdateMasterGroupInput{ID: masterGroup, Title: reference.Null[string](), Description: reference.Some("d")})
		wantCode(t, err, "")
		if g.Title != "On-page" || *g.Description != "d" {
			t.Fatalf("group = %+v", g)
		}
		g, err = s.UpdateMasterGroup(admin, reference.UpdateMasterGroupInput{ID: masterGroup, Title: reference.Some("Content"), Description: reference.Null[string]()})
		wantCode(t, err, "")
		if g.Title != "Content" || g.Description != nil {
			t.Fatalf("group = %+v", g)
		}
	})
	t.Run("rejects updating a project group", func(t *testing.T) {
		s, _ := newStore(t)
		_, err := s.UpdateMasterGroup(admin, reference.UpdateMasterGroupInput{ID: acmeSEOGroup})
		wantCode(t, err, reference.ENOTFOUND)
	})
}

func TestTags(t *testing.T) {
	s, _ := newStore(t)
	t.Run("creates a tag that the project's list shows and others' do not", func(t *testing.T) {
		tag, err := s.CreateTag(member, reference.CreateTagInput{Name: "feature", Color: reference.Some("red")})
		wantCode(t, err, "")
		if tag.ProjectID != projAcme || tag.Position != 2 || *tag.Color != "red" || tag.Icon != nil || !tag.IsActive || *tag.CreatedBy != member {
			t.Fatalf("tag = %+v", tag)
		}
		tags, err := s.ListTags(member)
		wantCode(t, err, "")
		if got := idsOf(tags, func(t reference.Tag) int64 { return t.ID }); !slices.Equal(got, []int64{acmeTag, tag.ID}) {
			t.Fatalf("tags = %v", got)
		}
		other, _ := s.ListTags(outsider)
		if got := idsOf(other, func(t reference.Tag) int64 { return t.ID }); !slices.Equal(got, []int64{globexTag}) {
			t.Fatalf("outsider tags = %v", got)
		}
	})
	t.Run("keeps a position that was sent", func(t *testing.T) {
		tag, err := s.CreateTag(member, reference.CreateTagInput{Name: "x", Position: reference.Some[int64](9)})
		wantCode(t, err, "")
		if tag.Position != 9 {
			t.Fatalf("position = %d", tag.Position)
		}
	})
	for _, tt := range []struct {
		name, field string
		in          reference.CreateTagInput
	}{
		{"rejects an empty name", "name", reference.CreateTagInput{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.CreateTag(member, tt.in)
			wantField(t, err, tt.field)
		})
	}
}
