package reference_test

import (
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/reference"
)

func TestNewChecksReferences(t *testing.T) {
	tests := []struct {
		name   string
		break_ func(*reference.State)
		want   string
	}{
		{"rejects a user of an unknown project", func(s *reference.State) { s.Users[0].ProjectID = 42 }, "user 1: project 42"},
		{"rejects two users with one e-mail", func(s *reference.State) { s.Users[1].Email = strings.ToUpper(memberEmail) }, "already used"},
		{"rejects a token of an unknown user", func(s *reference.State) {
			s.Tokens = append(s.Tokens, reference.Token{Token: "t-unknown-user", UserID: nobody})
		}, "token: user 99"},
		{"rejects a duplicate card id", func(s *reference.State) { s.Cards[1].ID = s.Cards[0].ID }, "duplicate id"},
		{"rejects a card id of zero", func(s *reference.State) { s.Cards[0].ID = 0 }, "id must be positive"},
		{"rejects a master board with a project (D17)", func(s *reference.State) { s.Boards[0].ProjectID = p(int64(projAcme)) }, "a master record has no project_id"},
		{"rejects a project board without a project", func(s *reference.State) { s.Boards[2].ProjectID = nil }, "project_id is missing"},
		{"rejects a group on a board of another project", func(s *reference.State) { s.Groups[2].BoardID = globexBoard }, "group 3: board 4"},
		{"rejects a card in a group of another project", func(s *reference.State) { s.Cards[4].GroupID = p(int64(globexGroup)) }, "card 5: group 4"},
		{"rejects a card with a tag of another project", func(s *reference.State) { s.Cards[4].TagID = p(int64(globexTag)) }, "card 5: tag 2"},
		{"rejects a card owned by a user of another project", func(s *reference.State) { s.Cards[4].OwnerID = p(int64(outsider)) }, "card 5: owner 3"},
		{"rejects a copy whose master is not a master card", func(s *reference.State) { s.Cards[2].MasterCardID = p(int64(globexCard)) }, "master_card_id 6"},
		{"rejects a comment in the wrong project", func(s *reference.State) { s.Comments[0].ProjectID = projGlobex }, "comment 1: card 5"},
		{"rejects a reply to a comment on another card", func(s *reference.State) { s.Comments[2].ParentCommentID = p(int64(1)) }, "comment 3: parent 1"},
		{"rejects a conversation with an unknown status", func(s *reference.State) { s.Conversations[0].Status = "gone" }, "conversation 1"},
		{"rejects an item in two carts", func(s *reference.State) { s.Carts[1].Items[0].ID = 1 }, "items[0].id 1 is also an item of the cart"},
		{"rejects a website entity of an unknown type", func(s *reference.State) { s.Entities[0].Type = "widget" }, "unknown type"},
		{"rejects a theme version of an unknown project", func(s *reference.State) { s.ThemeVersions[0].ProjectID = 42 }, "theme version 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := world()
			tt.break_(&st)
			_, err := reference.New(st)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("New error = %v, want it to mention %q", err, tt.want)
			}
		})
	}
	t.Run("accepts an empty state", func(t *testing.T) {
		s, err := reference.New(reference.State{})
		if err != nil {
			t.Fatal(err)
		}
		if st := s.State(); st.Cards == nil || st.Tokens == nil || st.Regenerations == nil {
			t.Fatalf("State slices must encode as [], got %+v", st)
		}
	})
}

func TestStoreCopiesValues(t *testing.T) {
	t.Run("changing the loaded state afterwards changes nothing", func(t *testing.T) {
		st := world()
		s, err := reference.New(st)
		if err != nil {
			t.Fatal(err)
		}
		*st.Cards[4].Description = "tampered"
		st.Projects[0].Tools[0] = "tampered"
		if got := *findCard(t, s, acmeOverdueCard).Description; got != "Draft first" {
			t.Fatalf("description = %q", got)
		}
		if got := s.State().Projects[0].Tools[0]; got != toolSEO {
			t.Fatalf("tools = %q", got)
		}
	})
	t.Run("changing a returned record changes nothing", func(t *testing.T) {
		s, _ := newStore(t)
		cards, err := s.ListCards(member)
		wantCode(t, err, "")
		for i := range cards {
			if cards[i].Description != nil {
				*cards[i].Description = "tampered"
			}
		}
		*s.State().Cards[4].Description = "tampered"
		if got := *findCard(t, s, acmeOverdueCard).Description; got != "Draft first" {
			t.Fatalf("description = %q", got)
		}
	})
}

func TestStateRoundTrip(t *testing.T) {
	s, clock := newStore(t)
	if _, err := s.Authenticate(reference.AuthenticateInput{Email: memberEmail, Password: memberPassword}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateCard(member, reference.CreateCardInput{Title: "New"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RegenerateThumbnail(member, reference.RegenerateThumbnailInput{Type: "page", EntityID: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SyncMasterBoard(admin, reference.SyncMasterBoardInput{BoardID: masterBoard}); err != nil {
		t.Fatal(err)
	}
	st := s.State()
	for name, ids := range map[string][]int64{"cards": idsOf(st.Cards, func(c reference.Card) int64 { return c.ID }),
		"boards": idsOf(st.Boards, func(b reference.Board) int64 { return b.ID })} {
		if !slices.IsSorted(ids) {
			t.Errorf("%s not ordered by id: %v", name, ids)
		}
	}
	again, err := reference.New(st, reference.WithClock(clock))
	if err != nil {
		t.Fatalf("New(State()): %v", err)
	}
	if got := again.State(); !reflect.DeepEqual(got, st) {
		t.Fatalf("State() did not round-trip through New")
	}
	created, err := again.CreateCard(member, reference.CreateCardInput{Title: "Next"})
	wantCode(t, err, "")
	if want := st.Cards[len(st.Cards)-1].ID + 1; created.ID != want {
		t.Fatalf("next card id = %d, want max+1 = %d", created.ID, want)
	}
}

func TestTimestampsAreUTCSeconds(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 11, 21, 10, 0, 0, 123456789, time.FixedZone("CET", 3600))}
	s, err := reference.New(world(), reference.WithClock(clock))
	if err != nil {
		t.Fatal(err)
	}
	c, err := s.CreateCard(member, reference.CreateCardInput{Title: "T"})
	wantCode(t, err, "")
	want := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	if !c.CreatedAt.Equal(want) || c.CreatedAt.Location() != time.UTC || c.CreatedAt.Nanosecond() != 0 {
		t.Fatalf("created_at = %v, want %v in UTC", c.CreatedAt, want)
	}
}

func TestPackageDoesNotImportNetHTTP(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/opsapi/mocktoolkit/reference").Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "net/http" || strings.HasPrefix(dep, "net/http/") {
			t.Fatalf("reference depends on %s; the HTTP layer belongs in mockserver", dep)
		}
	}
}

func idsOf[T any](v []T, id func(T) int64) []int64 {
	out := make([]int64, 0, len(v))
	for _, x := range v {
		out = append(out, id(x))
	}
	return out
}
