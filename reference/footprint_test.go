package reference_test

import (
	"strings"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/reference"
)

// A store's running size follows what writes add, so a server can bound many stores by it
// (the mock's --max-state-mb): a client writing 1 MiB descriptions grows it by about that
// much per card, and a measure agrees with the running estimate.
func TestStoreSizeFollowsWrites(t *testing.T) {
	w := fixtures.Build(fixtures.DefaultSeed, time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC))
	s, err := reference.New(w.State)
	if err != nil {
		t.Fatal(err)
	}
	start := s.Size()
	if start <= 0 || s.Growth() != 0 {
		t.Fatalf("a new store: size %d, growth %d; want a measured size and no growth", start, s.Growth())
	}
	member := w.State.Users[0].ID
	for _, u := range w.State.Users {
		if u.Email == w.Manifest.Users.Member.Email {
			member = u.ID
		}
	}
	desc := strings.Repeat("d", 256<<10)
	group := w.Manifest.Operations.GroupID
	for i := range 8 {
		if _, err := s.CreateCard(member, reference.CreateCardInput{Title: "big", Description: reference.Some(desc), GroupID: reference.Some(group)}); err != nil {
			t.Fatalf("card %d: %v", i, err)
		}
	}
	grown := s.Size() - start
	if want := int64(8 * len(desc)); grown < want || grown > want+want/4 {
		t.Fatalf("8 cards of 256 KiB grew the size by %d bytes, want about %d", grown, want)
	}
	estimate := s.Size()
	measured := s.Measure()
	if d := estimate - measured; d < -measured/10 || d > measured/10 {
		t.Fatalf("estimate %d and measure %d differ by more than 10%%", estimate, measured)
	}
	if s.Growth() != 0 || s.Size() != measured {
		t.Fatalf("after a measure: growth %d, size %d, want 0 and %d", s.Growth(), s.Size(), measured)
	}
}

// A world loaded with ids at the ceiling (2^53-1, the largest a JavaScript client reads exactly)
// refuses the next create instead of handing out 2^53, which its own snapshot could not load.
func TestCreateAtTheIDCeilingIsRefused(t *testing.T) {
	w := fixtures.Build(fixtures.DefaultSeed, time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC))
	st := w.State
	const top = 1<<53 - 1
	last := &st.Tags[len(st.Tags)-1]
	for i := range st.Cards {
		if st.Cards[i].TagID != nil && *st.Cards[i].TagID == last.ID {
			st.Cards[i].TagID = nil
		}
	}
	last.ID = top
	s, err := reference.New(st)
	if err != nil {
		t.Fatal(err)
	}
	member := w.State.Users[0].ID
	for _, u := range w.State.Users {
		if u.Email == w.Manifest.Users.Member.Email {
			member = u.ID
		}
	}
	_, err = s.CreateTag(member, reference.CreateTagInput{Name: "next"})
	if reference.ErrorCode(err) != reference.ECAPACITY || !strings.Contains(reference.ErrorMessage(err), "tags") {
		t.Fatalf("a tag after id 2^53-1: %v, want ECAPACITY naming the tags", err)
	}
	// Each kind is numbered on its own: a tag at the ceiling leaves cards and comments room
	// (every create in the world was refused).
	if _, err := s.CreateCard(member, reference.CreateCardInput{Title: "next"}); err != nil {
		t.Errorf("a card beside a tag at id 2^53-1: %v", err)
	}
	if _, err := s.CreateComment(member, reference.CreateCommentInput{CardID: w.Manifest.Operations.CardID, Comment: "next"}); err != nil {
		t.Errorf("a comment beside a tag at id 2^53-1: %v", err)
	}
	if _, err := reference.New(s.State()); err != nil {
		t.Fatalf("the world's snapshot no longer loads: %v", err)
	}
}

// A user keeps at most MaxTokensPerUser live tokens: the next login revokes the oldest, so a
// suite logging in for every test cannot grow a world without end (D10).
func TestLoginsKeepABoundedNumberOfTokens(t *testing.T) {
	w := fixtures.Build(fixtures.DefaultSeed, time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC))
	s, err := reference.New(w.State)
	if err != nil {
		t.Fatal(err)
	}
	creds := w.Manifest.Users.Member
	login := func() string {
		r, err := s.Authenticate(reference.AuthenticateInput{Email: creds.Email, Password: creds.Password})
		if err != nil {
			t.Fatal(err)
		}
		return r.Token
	}
	first := login()
	size := s.Size()
	var last string
	for range reference.MaxTokensPerUser {
		last = login()
	}
	if _, err := s.UserByToken(first); err == nil {
		t.Error("the oldest token still works after MaxTokensPerUser more logins")
	}
	if _, err := s.UserByToken(last); err != nil {
		t.Errorf("the newest token: %v", err)
	}
	before := s.Size()
	for range 100 {
		login()
	}
	if grown := s.Size() - before; grown > 1024 {
		t.Errorf("100 logins past the cap grew the store by %d bytes (from %d), want about none", grown, size)
	}
}
