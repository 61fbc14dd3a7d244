package reference

import (
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"io"
	"reflect"
	"slices"
)

// tokenBytes is the number of random bytes in a bearer token (D10).
const tokenBytes = 32

// CredentialsMessage is the one answer to a wrong e-mail and to a wrong password (D1).
const CredentialsMessage = "These credentials do not match our records."

func credentialsError() error {
	return Errorf(EUNAUTHENTICATED, CredentialsMessage)
}

// Authenticate checks an e-mail and password and issues a new bearer token (D10). A wrong
// e-mail and a wrong password give the same EUNAUTHENTICATED error (D1); the password is
// compared in constant time, also when the e-mail is unknown. token, code and is_recovery are
// accepted and ignored (D11).
func (s *Store) Authenticate(in AuthenticateInput) (LoginResult, error) {
	var f fieldErrors
	f.notBlank("email", in.Email)
	f.notBlank("password", in.Password) // blank is missing (D44)
	if err := f.err(); err != nil {
		return LoginResult{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	email, now := normalizeEmail(in.Email), s.windowNow()
	failures := s.loginFailures[email]
	if failures.Spent(now, LoginWindow, LoginFailuresPerEmail) {
		return LoginResult{}, &Error{Code: ERATELIMITED, Message: LoginThrottledMessage, RetryAfter: failures.Until(now, LoginWindow)}
	}
	id, known := s.emails[email]
	password := "\x00no such user\x00"
	if known {
		password = s.users[id].Password
	}
	match := subtle.ConstantTimeCompare([]byte(in.Password), []byte(password)) == 1
	if !known || !match || in.Password == "" {
		s.loginFailures[email] = failures.Add(now, LoginWindow)
		if len(s.loginFailures) > maxTrackedLogins {
			SweepWindows(s.loginFailures, now, LoginWindow)
		}
		return LoginResult{}, credentialsError()
	}
	delete(s.loginFailures, email)
	token, err := s.newToken()
	if err != nil {
		return LoginResult{}, err
	}
	put(s, s.tokens, token, id)
	t := Token{Token: token, UserID: id, IssuedAt: s.now()}
	s.tokenLog = append(s.tokenLog, t)
	s.grew(recordSize(t))
	s.revokeOldest(id)
	u := s.users[id]
	return LoginResult{
		NeedsCodeRegeneration: false,
		WarnMessage:           "",
		Token:                 token,
		Language:              clonePtr(u.Language),
		ID:                    u.ID,
		Name:                  u.Name,
		Email:                 u.Email,
	}, nil
}

// newToken draws 32 bytes from the configured source and hex-encodes them (D10).
func (s *Store) newToken() (string, error) {
	for range 3 {
		b := make([]byte, tokenBytes)
		if _, err := io.ReadFull(s.cfg.random, b); err != nil {
			return "", &Error{Code: EINTERNAL, Message: "Internal server error.", Err: fmt.Errorf("issue token: %w", err)}
		}
		token := hex.EncodeToString(b)
		if _, taken := s.tokens[token]; !taken {
			return token, nil
		}
	}
	return "", &Error{Code: EINTERNAL, Message: "Internal server error.", Err: fmt.Errorf("issue token: random source repeats itself")}
}

// UserByToken resolves a bearer token to its user (EUNAUTHENTICATED when unknown or empty).
func (s *Store) UserByToken(token string) (User, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	id, ok := s.tokens[token]
	if !ok || token == "" {
		return User{}, Errorf(EUNAUTHENTICATED, "Unauthenticated.")
	}
	return cloneUser(s.users[id]), nil
}

// UserByEmail returns the user whose e-mail is email, as a login reads it (any case, spaces
// around it ignored).
func (s *Store) UserByEmail(email string) (User, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	id, ok := s.emails[normalizeEmail(email)]
	if !ok {
		return User{}, false
	}
	return cloneUser(s.users[id]), true
}

// ProjectTools returns the tool keys project id subscribes to (nil when there is no such
// project).
func (s *Store) ProjectTools(id int64) []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if p, ok := s.projects[id]; ok {
		return slices.Clone(p.Tools)
	}
	return nil
}

// MaxTokensPerUser is how many live tokens a user keeps (D10): the next login revokes the
// oldest, so a test suite logging in for every test does not grow a world without end.
const MaxTokensPerUser = 1000

// revokeOldest revokes user's oldest token once the user holds more than MaxTokensPerUser.
func (s *Store) revokeOldest(user int64) {
	n, oldest := 0, -1
	for i, t := range s.tokenLog {
		if t.UserID == user {
			if oldest < 0 {
				oldest = i
			}
			n++
		}
	}
	if n <= MaxTokensPerUser || oldest < 0 {
		return
	}
	t := s.tokenLog[oldest]
	delete(s.tokens, t.Token)
	s.tokenLog = slices.Delete(s.tokenLog, oldest, oldest+1)
	s.grew(-recordSize(t) - int64(len(t.Token)) - entrySize(reflect.TypeFor[string](), reflect.TypeFor[int64]()))
}
