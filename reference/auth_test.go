package reference_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/reference"
)

func TestAuthenticate(t *testing.T) {
	t.Run("issues a 32-byte hex token that is the bearer token (D10)", func(t *testing.T) {
		s, _ := newStore(t, reference.WithRandom(bytes.NewReader(bytes.Repeat([]byte{0xab}, 64))))
		res, err := s.Authenticate(reference.AuthenticateInput{Email: memberEmail, Password: memberPassword})
		wantCode(t, err, "")
		if want := strings.Repeat("ab", 32); res.Token != want {
			t.Fatalf("token = %q, want %q", res.Token, want)
		}
		if res.ID != member || res.Email != memberEmail || res.Name != "Mia Member" || *res.Language != "en" {
			t.Fatalf("login result = %+v", res)
		}
		if res.NeedsCodeRegeneration || res.WarnMessage != "" {
			t.Fatalf("D11 defaults not kept: %+v", res)
		}
		u, err := s.UserByToken(res.Token)
		wantCode(t, err, "")
		if u.ID != member {
			t.Fatalf("UserByToken = user %d", u.ID)
		}
	})
	t.Run("every login issues a new token and old ones stay valid", func(t *testing.T) {
		s, _ := newStore(t)
		in := reference.AuthenticateInput{Email: memberEmail, Password: memberPassword}
		first, err := s.Authenticate(in)
		wantCode(t, err, "")
		second, err := s.Authenticate(in)
		wantCode(t, err, "")
		if first.Token == second.Token {
			t.Fatal("the same token was issued twice")
		}
		if b, _ := hex.DecodeString(second.Token); len(b) != 32 {
			t.Fatalf("token %q is not 32 hex-encoded bytes", second.Token)
		}
		for _, tok := range []string{first.Token, second.Token} {
			_, err := s.UserByToken(tok)
			wantCode(t, err, "")
		}
	})
	t.Run("accepts the e-mail in another case", func(t *testing.T) {
		s, _ := newStore(t)
		_, err := s.Authenticate(reference.AuthenticateInput{Email: " MEMBER@Acme.test", Password: memberPassword})
		wantCode(t, err, "")
	})
	t.Run("answers a wrong e-mail and a wrong password the same way (D1)", func(t *testing.T) {
		s, _ := newStore(t)
		_, wrongEmail := s.Authenticate(reference.AuthenticateInput{Email: "nobody@acme.test", Password: memberPassword})
		_, wrongPassword := s.Authenticate(reference.AuthenticateInput{Email: memberEmail, Password: "wrong"})
		for _, err := range []error{wrongEmail, wrongPassword} {
			wantCode(t, err, reference.EUNAUTHENTICATED)
			if err.Error() != wrongEmail.Error() {
				t.Fatalf("%q differs from %q", err, wrongEmail)
			}
		}
	})
	t.Run("treats a blank e-mail or password as missing (D44)", func(t *testing.T) {
		s, _ := newStore(t)
		_, err := s.Authenticate(reference.AuthenticateInput{Email: " ", Password: ""})
		wantField(t, err, "email")
		wantField(t, err, "password")
	})
	t.Run("reports a failing random source as internal", func(t *testing.T) {
		s, _ := newStore(t, reference.WithRandom(io.LimitReader(nil, 0)))
		_, err := s.Authenticate(reference.AuthenticateInput{Email: memberEmail, Password: memberPassword})
		wantCode(t, err, reference.EINTERNAL)
		if errors.Unwrap(err) == nil {
			t.Fatal("the cause is lost")
		}
	})
}

func TestUserByToken(t *testing.T) {
	s, _ := newStore(t)
	for _, tok := range []string{"", "nope", strings.Repeat("0", 64)} {
		t.Run("rejects the token "+tok, func(t *testing.T) {
			_, err := s.UserByToken(tok)
			wantCode(t, err, reference.EUNAUTHENTICATED)
		})
	}
}

func TestUnknownCallerIsUnauthenticated(t *testing.T) {
	s, _ := newStore(t)
	calls := map[string]func() error{
		"ListCards":  func() error { _, err := s.ListCards(nobody); return err },
		"ListTags":   func() error { _, err := s.ListTags(nobody); return err },
		"ListBoards": func() error { _, err := s.ListBoards(nobody, reference.ListBoardsInput{}); return err },
		"CreateCard": func() error { _, err := s.CreateCard(nobody, reference.CreateCardInput{Title: "x"}); return err },
		"UpdateCard": func() error {
			_, err := s.UpdateCard(nobody, reference.UpdateCardInput{ID: acmeOverdueCard})
			return err
		},
		"ListComments": func() error {
			_, err := s.ListComments(nobody, reference.ListCommentsInput{CardID: acmeOverdueCard})
			return err
		},
		"CreateComment": func() error {
			_, err := s.CreateComment(nobody, reference.CreateCommentInput{CardID: acmeOverdueCard, Comment: "x"})
			return err
		},
		"CreateTag": func() error { _, err := s.CreateTag(nobody, reference.CreateTagInput{Name: "x"}); return err },
		"UpdateBoard": func() error {
			_, err := s.UpdateBoard(nobody, reference.UpdateBoardInput{ID: acmePlainBoard})
			return err
		},
		"DeleteGroup": func() error { return s.DeleteGroup(nobody, reference.DeleteGroupInput{ID: acmeBacklog}) },
		"ListWidgetCards": func() error {
			_, err := s.ListWidgetCards(nobody, reference.ListWidgetCardsInput{ToolKey: toolSEO})
			return err
		},
		"UpdateTourCard": func() error {
			_, err := s.UpdateTourCard(nobody, reference.UpdateTourCardInput{ID: masterTourCard, Status: "closed"})
			return err
		},
		"RestoreConversation": func() error {
			return s.RestoreConversation(nobody, reference.RestoreConversationInput{ConversationID: 1})
		},
		"RegenerateThumbnail": func() error {
			_, err := s.RegenerateThumbnail(nobody, reference.RegenerateThumbnailInput{Type: "page", EntityID: 1})
			return err
		},
		"DeprecateThemeVersion": func() error {
			_, err := s.DeprecateThemeVersion(nobody, reference.DeprecateThemeVersionInput{VersionID: 1})
			return err
		},
		"ListMasterBoards": func() error { _, err := s.ListMasterBoards(nobody); return err },
		"SyncMasterBoard": func() error {
			_, err := s.SyncMasterBoard(nobody, reference.SyncMasterBoardInput{BoardID: masterBoard})
			return err
		},
	}
	for name, call := range calls {
		t.Run(name+" rejects an unknown user id", func(t *testing.T) {
			wantCode(t, call(), reference.EUNAUTHENTICATED)
		})
	}
}

// Failed logins are counted per e-mail (D71): after five failures in a minute the e-mail is
// refused whatever the password, until the window ends; a success forgets the failures.
func TestAuthenticateThrottlesFailuresPerEmail(t *testing.T) {
	s, clock := newStore(t)
	wrong := reference.AuthenticateInput{Email: memberEmail, Password: "wrong"}
	right := reference.AuthenticateInput{Email: " Member@Acme.test", Password: memberPassword}
	for range reference.LoginFailuresPerEmail {
		_, err := s.Authenticate(wrong)
		wantCode(t, err, reference.EUNAUTHENTICATED)
	}
	_, err := s.Authenticate(right)
	var e *reference.Error
	if !asError(err, &e) || e.Code != reference.ERATELIMITED || e.RetryAfter != reference.LoginWindow {
		t.Fatalf("sixth attempt: err = %v, want rate limited for a minute", err)
	}
	_, err = s.Authenticate(reference.AuthenticateInput{Email: "tom@acme.test", Password: "tom-pass"})
	wantCode(t, err, "") // another e-mail is not throttled

	clock.Advance(reference.LoginWindow)
	_, err = s.Authenticate(right)
	wantCode(t, err, "")
	for range reference.LoginFailuresPerEmail - 1 {
		_, err := s.Authenticate(wrong)
		wantCode(t, err, reference.EUNAUTHENTICATED)
	}
	_, err = s.Authenticate(right) // the success forgets the four failures before it
	wantCode(t, err, "")
	for range reference.LoginFailuresPerEmail - 1 {
		_, err := s.Authenticate(wrong)
		wantCode(t, err, reference.EUNAUTHENTICATED)
	}
	_, err = s.Authenticate(right) // 4 failures since the success, not 8
	wantCode(t, err, "")
}
