package mockserver_test

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// A field past its bound is a validation error keyed by that field, and a value at the bound is
// accepted (rules ERR-1, ERR-2, ERR-3 of conformance/rules.md). Each bound is tried at the bound
// and just past it.
func TestLimitsAtAndPastTheirBounds(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	member, admin := m.login(m.manifest.Users.Member), m.login(m.manifest.Users.Superadmin)
	o, d := m.manifest.Operations, m.manifest.Domains
	type bound struct {
		name, path, token, field string
		base                     map[string]any
		ok, bad                  any
	}
	bounds := []bound{
		{"card title max 255", pCardsCreate, member, "title", nil, repeat(255), repeat(256)},
		{"card status max 50", pCardsCreate, member, "status", map[string]any{"title": "t"}, repeat(50), repeat(51)},
		{"card update title max 255", pCardsUpdate, member, "title", map[string]any{"id": o.CardID}, repeat(255), repeat(256)},
		{"board title max 255", pBoardsUpdate, member, "title", map[string]any{"id": o.BoardID}, repeat(255), repeat(256)},
		{"board color max 50", pBoardsUpdate, member, "color", map[string]any{"id": o.BoardID}, repeat(50), repeat(51)},
		{"board icon max 100", pBoardsUpdate, member, "icon", map[string]any{"id": o.BoardID}, repeat(100), repeat(101)},
		{"tag name max 255", pTagsCreate, member, "name", nil, repeat(255), repeat(256)},
		{"tag color max 50", pTagsCreate, member, "color", map[string]any{"name": "n"}, repeat(50), repeat(51)},
		{"tag icon max 100", pTagsCreate, member, "icon", map[string]any{"name": "n"}, repeat(100), repeat(101)},
		{"master board tool_key max 100", pMBoardsNew, admin, "tool_key", map[string]any{"title": "t"}, repeat(100), repeat(101)},
		{"master board title max 255", pMBoardsNew, admin, "title", map[string]any{"tool_key": "k"}, repeat(255), repeat(256)},
		{"master group title max 255", pMGroupsNew, admin, "title", map[string]any{"board_id": o.MasterBoardID}, repeat(255), repeat(256)},
		{"master card unique_identifier max 100", pMCardsCreate, admin, "unique_identifier", map[string]any{"group_id": o.MasterGroupID, "title": "t"}, repeat(100), repeat(101)},
		{"master card evaluation_check max 100", pMCardsCreate, admin, "evaluation_check", map[string]any{"group_id": o.MasterGroupID, "title": "t"}, repeat(100), repeat(101)},
		{"master card tour_key max 100", pMCardsUpdate, admin, "tour_key", map[string]any{"id": o.MasterCardID}, repeat(100), repeat(101)},
		{"widget tool_key max 50", pWidgetList, member, "tool_key", nil, o.ToolKey, repeat(51)},
		{"comments per_page max 100", pCommentsList, member, "per_page", map[string]any{"card_id": o.CardID}, 100, 101},
		{"comments per_page min 1", pCommentsList, member, "per_page", map[string]any{"card_id": o.CardID}, 1, 0},
		{"comments page min 1", pCommentsList, member, "page", map[string]any{"card_id": o.CardID}, 1, 0},
		{"conversation_id min 1", pConvRestore, member, "conversation_id", nil, m.manifest.AI.ArchivedConversationIDs[1], 0},
		{"entity_id min 1", pThumbnails, member, "entity_id", map[string]any{"type": "page"}, m.manifest.Websites.PageID, 0},
		{"session_token max 64", pCartRemove, "", "session_token", map[string]any{"cart_item_id": d.Carts[1].ItemIDs[0]}, d.Carts[1].SessionToken, repeat(65)},
	}
	for _, b := range bounds {
		t.Run(b.name, func(t *testing.T) {
			with := func(v any) map[string]any {
				body := map[string]any{b.field: v}
				for k, x := range b.base {
					body[k] = x
				}
				return body
			}
			m.post(b.path, b.token, with(b.bad)).wantFieldError(t, b.field)
			if a := m.post(b.path, b.token, with(b.ok)); a.status == http.StatusUnprocessableEntity {
				t.Errorf("%s: value at the bound refused: %s", a.req, a.raw)
			}
		})
	}
}

// Types, required flags and enumerations (interface §Errors rule 1, §States enumerations).
func TestFieldConstraintsAreKeyedByField(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	member, admin := m.login(m.manifest.Users.Member), m.login(m.manifest.Users.Superadmin)
	o := m.manifest.Operations
	cases := []struct {
		name, path, token, field string
		body                     map[string]any
	}{
		{"card_id wrong type", pCommentsList, member, "card_id", map[string]any{"card_id": "abc"}},
		{"card_id fraction", pCommentsList, member, "card_id", map[string]any{"card_id": 1.5}},
		{"card_id missing", pCommentsList, member, "card_id", map[string]any{}},
		{"title not a string", pCardsCreate, member, "title", map[string]any{"title": 12345}},
		{"title null", pCardsCreate, member, "title", map[string]any{"title": nil}},
		{"priority outside its enumeration", pCardsCreate, member, "priority", map[string]any{"title": "t", "priority": "critical"}},
		{"due_date not a date-time", pCardsCreate, member, "due_date", map[string]any{"title": "t", "due_date": "tomorrow"}},
		{"master card status outside its enumeration", pMCardsCreate, admin, "status", map[string]any{"group_id": o.MasterGroupID, "title": "t", "status": "done"}},
		{"card_type outside its enumeration", pMCardsUpdate, admin, "card_type", map[string]any{"id": o.MasterCardID, "card_type": "popup"}},
		{"is_active not a boolean", pMCardsUpdate, admin, "is_active", map[string]any{"id": o.MasterCardID, "is_active": "yes"}},
		{"tour status outside open, closed", pTourUpdate, member, "status", map[string]any{"id": o.MasterTourCardID, "status": "in_progress"}},
		{"tour status missing", pTourUpdate, member, "status", map[string]any{"id": o.MasterTourCardID}},
		{"thumbnail type outside its enumeration", pThumbnails, member, "type", map[string]any{"type": "site", "entity_id": 1}},
		{"include_snoozed not a boolean", pWidgetList, member, "include_snoozed", map[string]any{"tool_key": o.ToolKey, "include_snoozed": "maybe"}},
		{"email not an e-mail", pAuthenticate, "", "email", map[string]any{"email": "not-an-email", "password": "x"}},
		{"password missing", pAuthenticate, "", "password", map[string]any{"email": "a@example.com"}},
		{"cart_item_id missing", pCartRemove, "", "cart_item_id", map[string]any{"session_token": "abc"}},
		{"version_id wrong type", pDeprecate, member, "version_id", map[string]any{"version_id": "v1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m.post(c.path, c.token, c.body).wantFieldError(t, c.field)
		})
	}
	t.Run("all failing fields at once", func(t *testing.T) {
		a := m.post(pCardsCreate, member, map[string]any{"priority": "x", "status": repeat(51)})
		for _, f := range []string{"title", "priority", "status"} {
			a.wantFieldError(t, f)
		}
	})
}

// Every answer carries X-RateLimit-Limit and X-RateLimit-Remaining; Remaining counts down; once
// spent, 429 shape (b) with Retry-After (interface §Endpoints, §Limits; D14).
func TestRateLimit(t *testing.T) {
	const limit = 3
	m := newMock(t, mockserver.Config{RateLimit: limit})
	member := m.login(m.manifest.Users.Member)
	for i := 1; i <= limit; i++ {
		a := m.post(pCardsList, member, "{}").wantStatus(t, http.StatusOK)
		wantHeader(t, a, "X-RateLimit-Limit", strconv.Itoa(limit))
		wantHeader(t, a, "X-RateLimit-Remaining", strconv.Itoa(limit-i))
	}
	a := m.post(pCardsList, member, "{}").wantStatus(t, http.StatusTooManyRequests)
	a.wantShape(t, "b")
	wantHeader(t, a, "X-RateLimit-Remaining", "0")
	if s, err := strconv.Atoi(a.header.Get("Retry-After")); err != nil || s < 1 || s > 60 {
		t.Errorf("Retry-After %q, want 1..60 seconds", a.header.Get("Retry-After"))
	}
	// Another caller has its own window; validation errors carry the headers too.
	other := m.login(m.manifest.Users.Outsider)
	v := m.post(pCardsCreate, other, "{}").wantStatus(t, http.StatusUnprocessableEntity)
	wantHeader(t, v, "X-RateLimit-Remaining", fmt.Sprint(limit-1))
}

// Thumbnail regeneration: 5 requests per project per 10 minutes, then 429 with Retry-After
// (interface §Limits, D15).
func TestThumbnailLimit(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	member := m.login(m.manifest.Users.Member)
	w := m.manifest.Websites
	targets := []map[string]any{
		{"type": "page", "entity_id": w.PageID}, {"type": "template", "entity_id": w.TemplateID},
		{"type": "layout", "entity_id": w.LayoutID}, {"type": "page", "entity_id": w.PageID},
		{"type": "template", "entity_id": w.TemplateID},
	}
	seen := map[string]bool{}
	for _, body := range targets {
		a := m.post(pThumbnails, member, body).wantStatus(t, http.StatusOK)
		img, _ := a.data()["preview_image"].(string)
		if img == "" || seen[img] {
			t.Errorf("preview_image %q: want a new URL on every regeneration", img)
		}
		seen[img] = true
	}
	a := m.post(pThumbnails, member, targets[2]).wantStatus(t, http.StatusTooManyRequests)
	a.wantShape(t, "b")
	if s, err := strconv.Atoi(a.header.Get("Retry-After")); err != nil || s < 1 || s > 600 {
		t.Errorf("Retry-After %q, want 1..600 seconds", a.header.Get("Retry-After"))
	}
}

func wantHeader(t *testing.T, a answer, name, want string) {
	t.Helper()
	if got := a.header.Get(name); got != want {
		t.Errorf("%s: %s = %q, want %q", a.req, name, got, want)
	}
}

// A body announced larger than the mock takes is refused before it is sent: a client waiting
// on "100 Continue" gets the 413 at once, not an invitation to upload it first.
func TestOversizedBodyRefusedBeforeContinue(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	tok := m.login(m.manifest.Users.Member)
	c, err := net.Dial("tcp", strings.TrimPrefix(m.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, _ = c.Write([]byte("POST " + pTagsCreate + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + tok + "\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 2097152\r\n\r\n"))
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "HTTP/1.1 413") {
		t.Errorf("the first answer line: %q (%v), want 413 before any 100 Continue", line, err)
	}
}
