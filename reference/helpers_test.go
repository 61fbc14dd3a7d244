package reference_test

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/reference"
)

// The small world of these tests. fixtures builds the real seeded world; it is not imported
// here so that reference is tested on its own.
const (
	projAcme   = 1 // subscribes to toolSEO, holds a copy of the master board
	projGlobex = 2 // subscribes to toolRank only
	projInit   = 3 // subscribes to toolSEO, no copy yet
	projAdmin  = 4 // the superadmin's project, no tools

	member   = 1 // of projAcme
	teammate = 2 // of projAcme
	outsider = 3 // of projGlobex
	admin    = 4 // superadmin, of projAdmin
	initUser = 5 // of projInit
	nobody   = 99

	masterBoard     = 1
	acmeSEOBoard    = 2 // copy of masterBoard
	acmePlainBoard  = 3
	globexBoard     = 4
	masterGroup     = 1
	acmeSEOGroup    = 2 // copy of masterGroup
	acmeBacklog     = 3
	globexGroup     = 4
	acmeTag         = 1
	globexTag       = 2
	masterCard      = 1
	masterTourCard  = 2
	acmeCopyCard    = 3 // copy of masterCard, in acmeSEOGroup
	acmeSnoozedCard = 4 // in acmeSEOGroup, snoozed for a day
	acmeOverdueCard = 5 // in acmeBacklog, due yesterday; has comments 1 and 2
	globexCard      = 6 // has comment 3

	toolSEO  = "seo-audit"
	toolRank = "rank-tracker"

	memberEmail    = "member@acme.test"
	memberPassword = "correct horse"
)

// t0 is the moment the test world is built at.
var t0 = time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC)

// fakeClock is a clock tests move by hand; safe for concurrent use.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func p[T any](v T) *T { return &v }

// world returns the test state, built fresh on every call.
func world() reference.State {
	day := 24 * time.Hour
	return reference.State{
		Projects: []reference.Project{
			{ID: projAcme, Name: "Acme", Tools: []string{toolSEO}},
			{ID: projGlobex, Name: "Globex", Tools: []string{toolRank}},
			{ID: projInit, Name: "Initech", Tools: []string{toolSEO, toolRank}},
			{ID: projAdmin, Name: "Admin", Tools: []string{}},
		},
		Users: []reference.User{
			{ID: member, ProjectID: projAcme, Name: "Mia Member", Email: memberEmail, Password: memberPassword, Language: p("en")},
			{ID: teammate, ProjectID: projAcme, Name: "Tom Mate", Email: "tom@acme.test", Password: "tom-pass"},
			{ID: outsider, ProjectID: projGlobex, Name: "Olga Out", Email: "olga@globex.test", Password: "olga-pass"},
			{ID: admin, ProjectID: projAdmin, Name: "Ada Admin", Email: "ada@admin.test", Password: "ada-pass", IsSuperadmin: true},
			{ID: initUser, ProjectID: projInit, Name: "Ian Init", Email: "ian@initech.test", Password: "ian-pass"},
		},
		Tokens: []reference.Token{},
		Boards: []reference.Board{
			{ID: masterBoard, PlatformID: 1, IsMaster: true, ToolKey: p(toolSEO), Title: "SEO audit", Position: 1, IsActive: true, CreatedBy: p(int64(admin)), CreatedAt: t0.Add(-30 * day), UpdatedAt: t0.Add(-30 * day)},
			{ID: acmeSEOBoard, ProjectID: p(int64(projAcme)), PlatformID: 1, MasterBoardID: p(int64(masterBoard)), ToolKey: p(toolSEO), Title: "SEO audit", Position: 1, IsActive: true, CreatedAt: t0.Add(-20 * day), UpdatedAt: t0.Add(-20 * day)},
			{ID: acmePlainBoard, ProjectID: p(int64(projAcme)), PlatformID: 1, Title: "Roadmap", Description: p("Next quarter"), Color: p("#ff0000"), Icon: p("map"), Position: 2, IsActive: true, CreatedBy: p(int64(member)), CreatedAt: t0.Add(-10 * day), UpdatedAt: t0.Add(-10 * day)},
			{ID: globexBoard, ProjectID: p(int64(projGlobex)), PlatformID: 1, ToolKey: p(toolRank), Title: "Ranks", Position: 1, IsActive: true, CreatedAt: t0.Add(-10 * day), UpdatedAt: t0.Add(-10 * day)},
		},
		Groups: []reference.Group{
			{ID: masterGroup, PlatformID: 1, IsMaster: true, BoardID: masterBoard, Title: "On-page", Type: "default", Position: 1, IsActive: true, CreatedAt: t0.Add(-30 * day), UpdatedAt: t0.Add(-30 * day)},
			{ID: acmeSEOGroup, ProjectID: p(int64(projAcme)), PlatformID: 1, MasterGroupID: p(int64(masterGroup)), BoardID: acmeSEOBoard, Title: "On-page", Type: "default", Position: 1, IsActive: true, CreatedAt: t0.Add(-20 * day), UpdatedAt: t0.Add(-20 * day)},
			{ID: acmeBacklog, ProjectID: p(int64(projAcme)), PlatformID: 1, BoardID: acmePlainBoard, Title: "Backlog", Type: "default", Position: 1, IsActive: true, CreatedAt: t0.Add(-10 * day), UpdatedAt: t0.Add(-10 * day)},
			{ID: globexGroup, ProjectID: p(int64(projGlobex)), PlatformID: 1, BoardID: globexBoard, Title: "Todo", Type: "default", Position: 1, IsActive: true, CreatedAt: t0.Add(-10 * day), UpdatedAt: t0.Add(-10 * day)},
		},
		Tags: []reference.Tag{
			{ID: acmeTag, ProjectID: projAcme, Name: "bug", Position: 1, IsActive: true, CreatedAt: t0.Add(-5 * day), UpdatedAt: t0.Add(-5 * day)},
			{ID: globexTag, ProjectID: projGlobex, Name: "ops", Position: 1, IsActive: true, CreatedAt: t0.Add(-5 * day), UpdatedAt: t0.Add(-5 * day)},
		},
		Cards: []reference.Card{
			{ID: masterCard, PlatformID: 1, IsMaster: true, IsActive: true, CardType: "widget", GroupID: p(int64(masterGroup)), Title: "Check titles", Status: "open", Priority: "normal", Position: 1, SortOrder: 1, CreatedAt: t0.Add(-30 * day), UpdatedAt: t0.Add(-30 * day)},
			{ID: masterTourCard, PlatformID: 1, IsMaster: true, IsActive: true, CardType: "tour", TourKey: p("welcome"), GroupID: p(int64(masterGroup)), Title: "Welcome tour", Status: "open", Priority: "normal", Position: 2, SortOrder: 2, CreatedAt: t0.Add(-30 * day), UpdatedAt: t0.Add(-30 * day)},
			{ID: acmeCopyCard, ProjectID: p(int64(projAcme)), PlatformID: 1, IsActive: true, MasterCardID: p(int64(masterCard)), CardType: "widget", GroupID: p(int64(acmeSEOGroup)), Title: "Check titles", Status: "open", Priority: "normal", Position: 1, SortOrder: 1, CreatedAt: t0.Add(-20 * day), UpdatedAt: t0.Add(-20 * day)},
			{ID: acmeSnoozedCard, ProjectID: p(int64(projAcme)), PlatformID: 1, IsActive: true, CardType: "widget", GroupID: p(int64(acmeSEOGroup)), Title: "Fix sitemap", Status: "open", Priority: "high", SnoozedUntil: p(t0.Add(day)), Position: 2, SortOrder: 2, CreatedAt: t0.Add(-3 * day), UpdatedAt: t0.Add(-3 * day)},
			{ID: acmeOverdueCard, ProjectID: p(int64(projAcme)), PlatformID: 1, IsActive: true, CardType: "widget", GroupID: p(int64(acmeBacklog)), Title: "Write launch post", Description: p("Draft first"), Status: "open", OwnerID: p(int64(member)), TagID: p(int64(acmeTag)), DueDate: p(t0.Add(-day)), Priority: "normal", Position: 1, SortOrder: 1, CreatedBy: p(int64(member)), CreatedAt: t0.Add(-3 * day), UpdatedAt: t0.Add(-3 * day)},
			{ID: globexCard, ProjectID: p(int64(projGlobex)), PlatformID: 1, IsActive: true, CardType: "widget", GroupID: p(int64(globexGroup)), Title: "Globex secret", Status: "open", Priority: "low", Position: 1, SortOrder: 1, CreatedAt: t0.Add(-3 * day), UpdatedAt: t0.Add(-3 * day)},
		},
		Comments: []reference.Comment{
			{ID: 1, ProjectID: projAcme, CardID: acmeOverdueCard, UserID: member, Comment: "First!", CreatedAt: t0.Add(-2 * day), UpdatedAt: t0.Add(-2 * day)},
			{ID: 2, ProjectID: projAcme, CardID: acmeOverdueCard, UserID: teammate, Comment: "Agreed", ParentCommentID: p(int64(1)), CreatedAt: t0.Add(-day), UpdatedAt: t0.Add(-day)},
			{ID: 3, ProjectID: projGlobex, CardID: globexCard, UserID: outsider, Comment: "Globex only", CreatedAt: t0.Add(-day), UpdatedAt: t0.Add(-day)},
		},
		Conversations: []reference.Conversation{
			{ID: 1, UserID: member, Title: "Old chat", Status: reference.ConversationArchived, UpdatedAt: t0.Add(-day)},
			{ID: 2, UserID: member, Title: "Current chat", Status: reference.ConversationActive, UpdatedAt: t0.Add(-day)},
			{ID: 3, UserID: outsider, Title: "Their chat", Status: reference.ConversationArchived, UpdatedAt: t0.Add(-day)},
		},
		Carts: []reference.Cart{
			{SessionToken: "cart-a", Status: reference.CartOpen, Currency: "USD", TotalPrice: 21.50, ItemCount: 3, Items: []reference.CartItem{
				{ID: 1, DomainName: "acme", TLD: "com", Action: "register", Years: 1, Price: 12.99, Currency: "USD"},
				{ID: 2, DomainName: "acme", TLD: "net", Action: "register", Years: 1, Price: 8.50, Currency: "USD"},
				{ID: 3, DomainName: "acme", TLD: "xyz", Action: "register", Years: 1, Price: 0.01, Currency: "USD"},
			}},
			{SessionToken: "cart-b", Status: reference.CartOpen, Currency: "USD", TotalPrice: 9.99, ItemCount: 1, Items: []reference.CartItem{
				{ID: 4, DomainName: "globex", TLD: "com", Action: "register", Years: 2, Price: 9.99, Currency: "USD"},
			}},
			{SessionToken: "cart-locked", Status: reference.CartLocked, Currency: "USD", TotalPrice: 5, ItemCount: 1, Items: []reference.CartItem{
				{ID: 5, DomainName: "initech", TLD: "io", Action: "transfer", Years: 1, Price: 5, Currency: "USD"},
			}},
		},
		Entities: []reference.WebsiteEntity{
			{ID: 1, ProjectID: projAcme, Type: reference.EntityPage, Name: "Home"},
			{ID: 1, ProjectID: projAcme, Type: reference.EntityTemplate, Name: "Header"},
			{ID: 1, ProjectID: projAcme, Type: reference.EntityLayout, Name: "Default"},
			{ID: 2, ProjectID: projGlobex, Type: reference.EntityPage, Name: "Globex home"},
		},
		ThemeVersions: []reference.ThemeVersion{
			{VersionID: 1, ProjectID: projAcme, ThemeID: 1, Version: "1.0.0", ThemeStatus: reference.ThemePublished, ApprovalStatus: reference.ApprovalApproved},
			{VersionID: 2, ProjectID: projAcme, ThemeID: 1, Version: "1.1.0", ThemeStatus: reference.ThemePublished, ApprovalStatus: reference.ApprovalPending},
			{VersionID: 3, ProjectID: projGlobex, ThemeID: 2, Version: "2.0.0", ThemeStatus: reference.ThemePublished, ApprovalStatus: reference.ApprovalApproved},
			{VersionID: 4, ProjectID: projAcme, ThemeID: 1, Version: "0.9.0", ThemeStatus: reference.ThemeDeprecated, ApprovalStatus: reference.ApprovalApproved},
		},
		Regenerations: []reference.Regeneration{},
	}
}

// newStore loads the test world with a fake clock at t0.
func newStore(t testing.TB, opts ...reference.Option) (*reference.Store, *fakeClock) {
	t.Helper()
	clock := &fakeClock{t: t0}
	s, err := reference.New(world(), append([]reference.Option{reference.WithClock(clock)}, opts...)...)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return s, clock
}

// wantCode fails unless err carries code ("" means no error).
func wantCode(t testing.TB, err error, code string) {
	t.Helper()
	if got := reference.ErrorCode(err); got != code {
		t.Fatalf("error code = %q, want %q (err: %v)", got, code, err)
	}
}

// wantField fails unless err is EVALIDATION with a message for field.
func wantField(t testing.TB, err error, field string) {
	t.Helper()
	wantCode(t, err, reference.EVALIDATION)
	var e *reference.Error
	if !errors.As(err, &e) || len(e.Fields[field]) == 0 {
		t.Fatalf("want a message for field %q, got %v", field, err)
	}
}

// cardIDs lists the ids of cards.
func cardIDs(cards []reference.Card) []int64 {
	ids := make([]int64, 0, len(cards))
	for _, c := range cards {
		ids = append(ids, c.ID)
	}
	return ids
}

// findCard returns the card with id from the store's state.
func findCard(t testing.TB, s *reference.Store, id int64) reference.Card {
	t.Helper()
	for _, c := range s.State().Cards {
		if c.ID == id {
			return c
		}
	}
	t.Fatalf("card %d not in state", id)
	return reference.Card{}
}

var long256 = strings.Repeat("x", 256)
