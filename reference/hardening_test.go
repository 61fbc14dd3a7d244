package reference_test

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/reference"
)

// A date-time the store could not answer or save is refused as a field error (D73).
func TestStoreRefusesUnwritableDateTimes(t *testing.T) {
	far := time.Date(9999, 12, 31, 23, 59, 59, 0, time.FixedZone("", -(23*3600+59*60))) // year 10000 in UTC
	early := time.Date(0, 1, 1, 0, 0, 0, 0, time.FixedZone("", 60))                     // year -1 in UTC
	s, _ := newStore(t)
	_, err := s.CreateCard(member, reference.CreateCardInput{Title: "t", DueDate: reference.Some(far)})
	wantField(t, err, "due_date")
	_, err = s.UpdateCard(member, reference.UpdateCardInput{ID: acmeOverdueCard, SnoozedUntil: reference.Some(early)})
	wantField(t, err, "snoozed_until")
	last := time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)
	c, err := s.UpdateCard(member, reference.UpdateCardInput{ID: acmeOverdueCard, DueDate: reference.Some(last)})
	wantCode(t, err, "")
	if !c.DueDate.Equal(last) {
		t.Errorf("due_date = %v, want %v", c.DueDate, last)
	}
	if _, err := json.Marshal(s.State()); err != nil {
		t.Fatalf("the state no longer encodes: %v", err)
	}
}

// Positions stay in a 32-bit range (D75): a position sent outside it is refused, and the
// position the store assigns after the largest saturates instead of wrapping.
func TestPositionsNeverWrap(t *testing.T) {
	s, _ := newStore(t)
	_, err := s.CreateTag(member, reference.CreateTagInput{Name: "huge", Position: reference.Some[int64](math.MaxInt64)})
	wantField(t, err, "position")
	_, err = s.CreateTag(member, reference.CreateTagInput{Name: "low", Position: reference.Some[int64](math.MinInt32 - 1)})
	wantField(t, err, "position")
	_, err = s.UpdateBoard(member, reference.UpdateBoardInput{ID: acmePlainBoard, Position: reference.Some[int64](math.MaxInt32 + 1)})
	wantField(t, err, "position")

	top, err := s.CreateTag(member, reference.CreateTagInput{Name: "top", Position: reference.Some[int64](math.MaxInt32)})
	wantCode(t, err, "")
	next, err := s.CreateTag(member, reference.CreateTagInput{Name: "next"})
	wantCode(t, err, "")
	if next.Position != top.Position {
		t.Errorf("the tag after position %d got %d, want it to share the last place", top.Position, next.Position)
	}
	tags, _ := s.ListTags(member)
	for _, tag := range tags {
		if tag.Position < 0 {
			t.Errorf("tag %d has position %d", tag.ID, tag.Position)
		}
	}
}

// A card moved to another group goes last there, position and sort_order alike (D45).
func TestMovedCardGoesLast(t *testing.T) {
	s, _ := newStore(t)
	// acmeSEOGroup holds positions 1 and 2; acmeOverdueCard is at 1 in acmeBacklog.
	c, err := s.UpdateCard(member, reference.UpdateCardInput{ID: acmeOverdueCard, GroupID: reference.Some[int64](acmeSEOGroup)})
	wantCode(t, err, "")
	if c.Position != 3 || c.SortOrder != 3 {
		t.Errorf("moved card at position %d, sort_order %d; want 3 and 3", c.Position, c.SortOrder)
	}
	c, err = s.UpdateCard(member, reference.UpdateCardInput{ID: acmeOverdueCard, GroupID: reference.Some[int64](acmeSEOGroup), Title: reference.Some("renamed")})
	wantCode(t, err, "")
	if c.Position != 3 {
		t.Errorf("an update naming the card's own group moved it to %d", c.Position)
	}
	c, err = s.UpdateCard(member, reference.UpdateCardInput{ID: acmeSnoozedCard, GroupID: reference.Some[int64](acmeBacklog)})
	wantCode(t, err, "")
	if c.Position != 1 {
		t.Errorf("card moved into the emptied backlog at %d, want 1", c.Position)
	}
}

// The widget list leaves deactivated cards out, and does not count them as snoozed (D77).
func TestWidgetListLeavesOutInactiveCards(t *testing.T) {
	st := world()
	for i := range st.Cards {
		if st.Cards[i].ID == acmeCopyCard || st.Cards[i].ID == acmeSnoozedCard {
			st.Cards[i].IsActive = false
		}
	}
	s, err := reference.New(st, reference.WithClock(&fakeClock{t: t0}))
	if err != nil {
		t.Fatal(err)
	}
	w, err := s.ListWidgetCards(member, reference.ListWidgetCardsInput{ToolKey: toolSEO, IncludeSnoozed: reference.Some(true)})
	wantCode(t, err, "")
	if len(w.Cards) != 0 || w.SnoozedCount != 0 {
		t.Errorf("widget list = %v (snoozed %d), want no cards", cardIDs(w.Cards), w.SnoozedCount)
	}
}

// Authenticate trims the e-mail on both sides (D49).
func TestAuthenticateTrimsTheEmail(t *testing.T) {
	s, _ := newStore(t)
	for _, email := range []string{" " + memberEmail, memberEmail + " ", "\t" + strings.ToUpper(memberEmail) + "  "} {
		_, err := s.Authenticate(reference.AuthenticateInput{Email: email, Password: memberPassword})
		wantCode(t, err, "")
	}
}

// A snapshot must satisfy the rules of the API's writes (D76); the error names the record
// and the field.
func TestNewChecksFieldRules(t *testing.T) {
	tests := []struct {
		name   string
		break_ func(*reference.State)
		want   string
	}{
		{"rejects a priority outside the enumeration", func(s *reference.State) { s.Cards[3].Priority = "weird" }, "cards[3] (id 4): priority must be one of low, normal, high, urgent"},
		{"rejects a title of 1000 characters", func(s *reference.State) { s.Cards[4].Title = strings.Repeat("x", 1000) }, "cards[4] (id 5): title must not be greater than 255 characters"},
		{"rejects a blank title", func(s *reference.State) { s.Boards[2].Title = "  " }, "boards[2] (id 3): title is required"},
		{"rejects an unknown card type", func(s *reference.State) { s.Cards[0].CardType = "memo" }, "cards[0] (id 1): card_type"},
		{"rejects a master card status outside the enumeration", func(s *reference.State) { s.Cards[0].Status = "done" }, "cards[0] (id 1): status must be one of"},
		{"rejects a generic status of 51 characters", func(s *reference.State) { s.Cards[4].Status = strings.Repeat("s", 51) }, "cards[4] (id 5): status must not be greater than 50"},
		{"rejects a color of 51 characters", func(s *reference.State) { s.Tags[0].Color = p(strings.Repeat("c", 51)) }, "tags[0] (id 1): color"},
		{"rejects a date in year 10000", func(s *reference.State) {
			s.Cards[4].DueDate = p(time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC))
		}, "cards[4] (id 5): due_date"},
		{"rejects a position past 32 bits", func(s *reference.State) { s.Tags[0].Position = math.MaxInt64 }, "tags[0] (id 1): position"},
		{"rejects an id past 2^53-1", func(s *reference.State) { s.Comments[2].ID = 1 << 60 }, "comments[2] (id 1152921504606846976): id"},
		{"rejects text that is not UTF-8", func(s *reference.State) { s.Comments[0].Comment = "bad \xff" }, "comments[0] (id 1): comment must be valid UTF-8 text"},
		{"rejects a blank comment", func(s *reference.State) { s.Comments[0].Comment = "" }, "comments[0] (id 1): comment is required"},
		{"rejects a theme status outside D37", func(s *reference.State) { s.ThemeVersions[1].ThemeStatus = "gone" }, "theme_versions[1] (id 2): theme_status"},
		{"rejects a price that overflows the total", func(s *reference.State) { s.Carts[1].Items[0].Price = 1e308 }, "carts[1]: items[0].price"},
		{"rejects a total that is not the sum", func(s *reference.State) { s.Carts[1].TotalPrice = 1 }, "carts[1]: total_price"},
		{"rejects a session token of 65 characters", func(s *reference.State) { s.Carts[1].SessionToken = strings.Repeat("t", 65) }, "carts[1]: session_token"},
		{"rejects a platform other than 1", func(s *reference.State) { s.Groups[1].PlatformID = 2 }, "groups[1] (id 2): platform_id"},
		{"rejects a master board without a tool key", func(s *reference.State) { s.Boards[0].ToolKey = p("") }, "boards[0] (id 1): tool_key"},
		{"rejects a group without a board", func(s *reference.State) { s.Groups[1].BoardID = 0 }, "group 2: board_id is missing or null"},
		{"rejects a board that is its own master", func(s *reference.State) { s.Boards[1].MasterBoardID = &s.Boards[1].ID }, "master_board_id names the board itself"},
		{"rejects an e-mail no one can log in with", func(s *reference.State) { s.Users[0].Email = "notanemail" }, "users[0] (id 1): email must be an e-mail address"},
		{"rejects a reply to a later comment", func(s *reference.State) { s.Comments[0].ParentCommentID = p(int64(2)) }, "parent_comment_id must name an earlier comment"},
		{"rejects a cart without a currency", func(s *reference.State) { s.Carts[0].Currency = "" }, "carts[0]: currency must be a currency code"},
		{"rejects a currency that is not a code", func(s *reference.State) { s.Carts[0].Currency = "XXXX" }, "carts[0]: currency must be a currency code"},
		{"rejects a cart status outside open and locked", func(s *reference.State) { s.Carts[0].Status = "shipped" }, "carts[0]: status must be one of open, locked"},
		{"rejects an item action outside register, transfer, renew", func(s *reference.State) { s.Carts[0].Items[0].Action = "fly" }, "items[0].action must be one of register, transfer, renew"},
		{"rejects an item's tld other than its domain's", func(s *reference.State) { s.Carts[0].Items[0].DomainName = "acme.org" }, "carts[0]: items[0].tld must be the last label of its domain_name (\"org\")"},
		{"rejects an item's currency other than its cart's", func(s *reference.State) { s.Carts[0].Items[0].Currency = "JPY" }, "carts[0]: items[0].currency must be its cart's currency"},
		{"rejects a comment read without a time", func(s *reference.State) { s.Comments[0].IsRead, s.Comments[0].ReadAt = true, nil }, "comments[0] (id 1): read_at must be set when is_read is true"},
		{"rejects a time read on a comment not read", func(s *reference.State) { s.Comments[0].IsRead, s.Comments[0].ReadAt = false, p(t0) }, "comments[0] (id 1): read_at must be null when is_read is false"},
		{"rejects more tokens for a user than a user keeps", func(s *reference.State) {
			for i := range reference.MaxTokensPerUser + 1 {
				s.Tokens = append(s.Tokens, reference.Token{Token: fmt.Sprintf("token-%d", i), UserID: s.Users[0].ID, IssuedAt: t0})
			}
		}, "tokens[1000]: user_id 1 holds more than 1000 tokens"},
		{"rejects a token of 3 characters", func(s *reference.State) {
			s.Tokens = append(s.Tokens, reference.Token{Token: "abc", UserID: s.Users[0].ID, IssuedAt: t0})
		}, "tokens[0]: token must be at least 4 characters"},
		{"rejects a token no header carries", func(s *reference.State) {
			s.Tokens = append(s.Tokens, reference.Token{Token: " two words ", UserID: s.Users[0].ID, IssuedAt: t0})
		}, "tokens[0]: token must be at least 4 characters, each a visible ASCII character"},
		{"rejects a token outside ASCII", func(s *reference.State) {
			s.Tokens = append(s.Tokens, reference.Token{Token: "jetón-secreto", UserID: s.Users[0].ID, IssuedAt: t0})
		}, "tokens[0]: token must be at least 4 characters, each a visible ASCII character"},
		{"rejects a regeneration of no entity", func(s *reference.State) {
			s.Regenerations = append(s.Regenerations, reference.Regeneration{ProjectID: 1, EntityID: 99999, At: t0})
		}, "thumbnail_regenerations[0]: entity_id names no website entity"},
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
}

// FuzzLoadState: a snapshot the loader accepts can be answered and saved, and round-trips:
// export, load and export again give the same bytes (D65, D76).
func FuzzLoadState(f *testing.F) {
	seed, err := json.Marshal(world())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte(`{"projects":[{"id":1,"name":"p","tools":["t"]}],"users":[{"id":1,"project_id":1,"name":"u","email":"a@b","password":"x"}]}`))
	f.Add([]byte(`{"projects":[{"id":1,"name":"p"}],"tags":[{"id":1,"project_id":1,"name":"t","position":2147483647,"created_at":"9999-12-31T23:59:59Z","updated_at":"0000-01-01T00:00:00Z"}]}`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		var st reference.State
		if json.Unmarshal(doc, &st) != nil {
			return
		}
		s, err := reference.New(st, reference.WithClock(&fakeClock{t: t0}))
		if err != nil {
			return
		}
		first, err := json.Marshal(s.State())
		if err != nil {
			t.Fatalf("an accepted snapshot does not save: %v", err)
		}
		for _, u := range s.State().Users {
			if cards, err := s.ListCards(u.ID); err == nil {
				if _, err := json.Marshal(cards); err != nil {
					t.Fatalf("an accepted snapshot does not answer: %v", err)
				}
			}
		}
		var again reference.State
		if err := json.Unmarshal(first, &again); err != nil {
			t.Fatalf("the export does not decode: %v", err)
		}
		s2, err := reference.New(again, reference.WithClock(&fakeClock{t: t0}))
		if err != nil {
			t.Fatalf("the export does not load: %v\n%s", err, first)
		}
		second, err := json.Marshal(s2.State())
		if err != nil || string(first) != string(second) {
			t.Fatalf("export → load → export differs (%v):\n%s\n%s", err, first, second)
		}
	})
}

// A snapshot's user keeps an e-mail and a password a login can carry: one of 1.5 MB loaded, and
// its every login answered 413 (D76).
func TestSnapshotCredentialsFitALogin(t *testing.T) {
	s, _ := newStore(t)
	st := s.State()
	st.Users[0].Password = strings.Repeat("p", 1500<<10)
	if _, err := reference.New(st); err == nil || !strings.Contains(err.Error(), "password must not be greater than 65536 characters") {
		t.Errorf("a 1.5 MB password: %v, want it refused", err)
	}
}
