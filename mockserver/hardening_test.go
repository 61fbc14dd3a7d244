package mockserver_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// Authenticate throttles repeated failures per e-mail (D71): the sixth attempt
// within a minute answers 429 shape (b) with Retry-After, even with the right password, and
// the e-mail may log in again once the window has passed.
func TestAuthenticateThrottlesFailuresPerEmail(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	member := m.manifest.Users.Member
	for i := range 5 {
		m.post(pAuthenticate, "", map[string]any{"email": member.Email, "password": fmt.Sprint("wrong", i)}).
			wantStatus(t, http.StatusUnauthorized)
	}
	a := m.post(pAuthenticate, "", map[string]any{"email": member.Email, "password": member.Password})
	a.wantStatus(t, http.StatusTooManyRequests)
	a.wantShape(t, "b")
	if a.header.Get("Retry-After") == "" {
		t.Errorf("429 without Retry-After: %v", a.header)
	}
	m.post("/__mock/clock", "", map[string]any{"advance_seconds": 61})
	m.post(pAuthenticate, "", map[string]any{"email": member.Email, "password": member.Password}).
		wantStatus(t, http.StatusOK)
}

// Authenticate throttles repeated failures per client address (D71): fifty failures from one
// address over any e-mails block every login from it for the rest of the minute.
func TestAuthenticateThrottlesFailuresPerClient(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	for i := range 50 {
		m.post(pAuthenticate, "", map[string]any{"email": fmt.Sprintf("nobody%d@example.com", i), "password": "x"}).
			wantStatus(t, http.StatusUnauthorized)
	}
	superadmin := m.manifest.Users.Superadmin
	m.post(pAuthenticate, "", map[string]any{"email": superadmin.Email, "password": superadmin.Password}).
		wantStatus(t, http.StatusTooManyRequests).wantShape(t, "b")
}

// A reset clears the login throttle with the other rate-limit windows (D62, D71).
func TestResetClearsTheLoginThrottle(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	member := m.manifest.Users.Member
	for i := range 6 {
		m.post(pAuthenticate, "", map[string]any{"email": member.Email, "password": fmt.Sprint("wrong", i)})
	}
	m.post(pAuthenticate, "", map[string]any{"email": member.Email, "password": member.Password}).
		wantStatus(t, http.StatusTooManyRequests)
	m.ctl(http.MethodPost, "/__mock/reset", map[string]any{}).wantStatus(t, http.StatusOK)
	m.post(pAuthenticate, "", map[string]any{"email": member.Email, "password": member.Password}).
		wantStatus(t, http.StatusOK)
}

// A project holds at most Config.MaxRecords cards, comments and tags (D70): the create past it
// answers 400 shape (a) with a message that names the limit.
func TestMaxRecordsPerProject(t *testing.T) {
	m := newMock(t, mockserver.Config{MaxRecords: 1})
	member := m.login(m.manifest.Users.Member)
	a := m.post(pCardsCreate, member, map[string]any{"title": "one too many"})
	a.wantStatus(t, http.StatusBadRequest)
	a.wantShape(t, "a")
	m.post(pTagsCreate, member, map[string]any{"name": "one too many"}).wantStatus(t, http.StatusBadRequest)
}
