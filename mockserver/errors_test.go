package mockserver_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

const missingID = 987654321

// When the requested record does not exist, 404 is returned on operations that list 404
// (interface §Errors rule 2), shape (a).
func TestMissingRecordsAnswerNotFound(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	member, admin := m.login(m.manifest.Users.Member), m.login(m.manifest.Users.Superadmin)
	cases := []struct {
		name, path, token string
		body              map[string]any
	}{
		{"master cards create", pMCardsCreate, admin, map[string]any{"group_id": missingID, "title": "x"}},
		{"master cards update", pMCardsUpdate, admin, map[string]any{"id": missingID}},
		{"cards update", pCardsUpdate, member, map[string]any{"id": missingID}},
		{"boards update", pBoardsUpdate, member, map[string]any{"id": missingID}},
		{"master groups update", pMGroupsUpd, admin, map[string]any{"id": missingID}},
		{"tour cards update", pTourUpdate, member, map[string]any{"id": missingID, "status": "open"}},
		{"tour cards update on a non-tour master card", pTourUpdate, member, map[string]any{"id": m.manifest.Operations.MasterCardID, "status": "open"}},
		{"master boards sync", pMBoardsSync, admin, map[string]any{"board_id": missingID}},
		{"groups delete", pGroupsDelete, member, map[string]any{"id": missingID}},
		{"conversations restore", pConvRestore, member, map[string]any{"conversation_id": missingID}},
		{"domain cart remove, unknown token", pCartRemove, "", map[string]any{"session_token": "nope", "cart_item_id": 1}},
		{"thumbnails regenerate", pThumbnails, member, map[string]any{"type": "layout", "entity_id": missingID}},
		{"theme versions deprecate", pDeprecate, member, map[string]any{"version_id": missingID}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := m.post(c.path, c.token, c.body).wantStatus(t, http.StatusNotFound)
			a.wantShape(t, "a")
		})
	}
}

// The envelope holds for every answer, also outside the operations (D2, D3, D41).
func TestMalformedRequestsGetEnvelopeErrors(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	member := m.login(m.manifest.Users.Member)
	cases := []struct {
		name, method, path string
		body               any
		status             int
	}{
		{"unknown path", http.MethodPost, "/services/operations/v2/operations/cards/list", "{}", 404},
		{"wrong method", http.MethodGet, pCardsList, nil, 405},
		{"malformed JSON", http.MethodPost, pCardsCreate, `{"title": `, 400},
		{"array body", http.MethodPost, pCardsCreate, `[1,2]`, 400},
		{"body over 1 MiB", http.MethodPost, pCardsCreate, `{"title":"` + strings.Repeat("x", 1<<20) + `"}`, 413},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := m.do(c.method, c.path, member, c.body).wantStatus(t, c.status)
			a.wantShape(t, "a")
			// Every response carries the rate-limit headers (interface §Endpoints).
			for _, h := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining"} {
				if a.header.Get(h) == "" {
					t.Errorf("%s: no %s header", a.req, h)
				}
			}
		})
	}
	a := m.do(http.MethodGet, pCardsList, member, nil)
	if got := a.header.Get("Allow"); got != "POST" {
		t.Errorf("405 Allow header %q, want POST", got)
	}
}

// An empty body counts as {} (D2): list operations accept it, others list their required fields.
func TestEmptyBody(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	member := m.login(m.manifest.Users.Member)
	m.post(pCardsList, member, "").wantStatus(t, http.StatusOK)
	m.post(pCardsCreate, member, "").wantFieldError(t, "title")
}

// comments/list for a card that does not exist answers 422 keyed card_id (D43).
func TestCommentsListOfAMissingCard(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	member := m.login(m.manifest.Users.Member)
	m.post(pCommentsList, member, map[string]any{"card_id": missingID}).wantFieldError(t, "card_id")
}

// A wrong e-mail and a wrong password get the same answer (D1).
func TestAuthenticateDoesNotRevealWhichCredentialIsWrong(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	creds := m.manifest.Users.Member
	wrongPassword := m.post(pAuthenticate, "", map[string]any{"email": creds.Email, "password": creds.Password + "x"})
	wrongEmail := m.post(pAuthenticate, "", map[string]any{"email": "nobody@example.com", "password": creds.Password})
	wrongPassword.wantStatus(t, http.StatusUnauthorized)
	if string(wrongPassword.raw) != string(wrongEmail.raw) || wrongEmail.status != wrongPassword.status {
		t.Errorf("answers differ:\n%s\n%s", wrongPassword.raw, wrongEmail.raw)
	}
}

// The token returned by authenticate is the bearer token of the other operations, and tokens
// differ on every login (D10).
func TestAuthenticateIssuesUsableUniqueTokens(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	a, b := m.login(m.manifest.Users.Member), m.login(m.manifest.Users.Member)
	if a == b || len(a) < 32 {
		t.Errorf("tokens %q and %q: want two distinct unguessable tokens", a, b)
	}
	m.post(pCardsList, a, "{}").wantStatus(t, http.StatusOK)
	m.post(pCardsList, b, "{}").wantStatus(t, http.StatusOK)
}

// A project's records are invisible to other projects (D12): 404, never their data.
func TestProjectsAreIsolated(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	outsider := m.login(m.manifest.Users.Outsider)
	o, w := m.manifest.Operations, m.manifest.Websites
	cases := []struct {
		name, path string
		body       map[string]any
	}{
		{"cards update", pCardsUpdate, map[string]any{"id": o.CardID, "title": "mine now"}},
		{"boards update", pBoardsUpdate, map[string]any{"id": o.BoardID, "title": "mine now"}},
		{"groups delete", pGroupsDelete, map[string]any{"id": o.GroupID}},
		{"comments create", pCommentsNew, map[string]any{"card_id": o.CardID, "comment": "hi"}},
		{"conversations restore", pConvRestore, map[string]any{"conversation_id": m.manifest.AI.ArchivedConversationIDs[0]}},
		{"thumbnails regenerate", pThumbnails, map[string]any{"type": "page", "entity_id": w.PageID}},
		{"theme versions deprecate", pDeprecate, map[string]any{"version_id": w.ApprovedVersionIDs[0]}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m.post(c.path, outsider, c.body).wantStatus(t, http.StatusNotFound)
		})
	}
	// comments/list lists no 404: a card that is not the caller's is a field error (D43).
	m.post(pCommentsList, outsider, map[string]any{"card_id": o.CardID}).wantFieldError(t, "card_id")
	a := m.post(pCardsList, outsider, "{}").wantStatus(t, http.StatusOK)
	for _, c := range a.data()["cards"].([]any) {
		if id := c.(map[string]any)["id"].(float64); int64(id) == o.CardID {
			t.Errorf("outsider's cards list holds the member's card %d", o.CardID)
		}
	}
}

// A cart locked for checkout rejects item removal with 409 (interface §Errors rule 3); an item
// of another cart is 404 and leaves both carts untouched (D35).
func TestCartRemoval(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	d := m.manifest.Domains
	a := m.post(pCartRemove, "", map[string]any{"session_token": d.LockedCart.SessionToken, "cart_item_id": d.LockedCart.ItemID})
	a.wantStatus(t, http.StatusConflict)
	a.wantShape(t, "a")

	first, second := d.Carts[0], d.Carts[1]
	m.post(pCartRemove, "", map[string]any{"session_token": first.SessionToken, "cart_item_id": second.ItemIDs[0]}).wantStatus(t, http.StatusNotFound)

	got := m.post(pCartRemove, "", map[string]any{"session_token": first.SessionToken, "cart_item_id": first.ItemIDs[0]}).wantStatus(t, http.StatusOK)
	cart := got.data()["cart"].(map[string]any)
	items := cart["items"].([]any)
	if int(cart["item_count"].(float64)) != len(first.ItemIDs)-1 || len(items) != len(first.ItemIDs)-1 {
		t.Errorf("after removal: item_count %v, %d items; want %d", cart["item_count"], len(items), len(first.ItemIDs)-1)
	}
	var sum float64
	for _, it := range items {
		sum += it.(map[string]any)["price"].(float64)
	}
	if total := cart["total_price"].(float64); total-sum > 0.005 || sum-total > 0.005 {
		t.Errorf("total_price %v, items sum to %v", total, sum)
	}
	m.post(pCartRemove, "", map[string]any{"session_token": first.SessionToken, "cart_item_id": first.ItemIDs[0]}).wantStatus(t, http.StatusNotFound)
	m.post(pCartRemove, "", map[string]any{"session_token": second.SessionToken, "cart_item_id": second.ItemIDs[0]}).wantStatus(t, http.StatusOK)
}

// Only a version with approval_status approved can be deprecated (interface §24, D36).
func TestDeprecationNeedsApproval(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	member := m.login(m.manifest.Users.Member)
	a := m.post(pDeprecate, member, map[string]any{"version_id": m.manifest.Websites.UnapprovedVersionID}).wantStatus(t, http.StatusBadRequest)
	a.wantShape(t, "a")
	ok := m.post(pDeprecate, member, map[string]any{"version_id": m.manifest.Websites.ApprovedVersionIDs[0]}).wantStatus(t, http.StatusOK)
	if ok.data()["theme_status"] != "deprecated" {
		t.Errorf("theme_status %v, want deprecated", ok.data()["theme_status"])
	}
}

// A failure answers a status the operation lists: where the interface lists no 400, an
// unreadable body is 422 keyed by the fields the operation requires (D2); where it lists no 422, a failed field is 400
// shape (a) (boards/list's tool_key filter, D30).
func TestFailuresAnswerListedStatuses(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	member := m.login(m.manifest.Users.Member)
	for path, field := range map[string]string{pConvRestore: "conversation_id", pCartRemove: "session_token", pThumbnails: "entity_id"} {
		t.Run("unreadable body on "+path, func(t *testing.T) {
			m.post(path, member, `{"oops":`).wantFieldError(t, field)
			m.post(path, member, `[1]`).wantFieldError(t, field)
		})
	}
	t.Run("boards list filter not a string", func(t *testing.T) {
		a := m.post(pBoardsList, member, map[string]any{"tool_key": 5}).wantStatus(t, http.StatusBadRequest)
		a.wantShape(t, "a")
	})
	t.Run("boards list filter of any length", func(t *testing.T) {
		a := m.post(pBoardsList, member, map[string]any{"tool_key": repeat(300)}).wantStatus(t, http.StatusOK)
		if n := len(a.data()["boards"].([]any)); n != 0 {
			t.Errorf("%d boards for an unknown tool", n)
		}
	})
}

// A blank required string is a missing one (D44), on authenticate and cart removal too.
func TestBlankRequiredStringsAreMissing(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	m.post(pAuthenticate, "", map[string]any{"email": m.manifest.Users.Member.Email, "password": ""}).wantFieldError(t, "password")
	m.post(pCartRemove, "", map[string]any{"session_token": "  ", "cart_item_id": 1}).wantFieldError(t, "session_token")
}

// JSON does not tell 5 from 5.0: an integral number is an integer (the spec accepts it, so the
// operation does too); the last of duplicate keys wins, as in validation.
func TestIntegralNumbersAndDuplicateKeys(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	member := m.login(m.manifest.Users.Member)
	card := m.manifest.Operations.CardID
	a := m.post(pCardsUpdate, member, fmt.Sprintf(`{"id": %d.0, "title": 5, "title": "second"}`, card)).wantStatus(t, http.StatusOK)
	got := a.data()["card"].(map[string]any)
	if got["title"] != "second" || int64(got["id"].(float64)) != card {
		t.Errorf("card %v, want id %d titled second", got, card)
	}
	m.post(pCardsUpdate, member, fmt.Sprintf(`{"id": %d, "group_id": 1e30}`, card)).wantFieldError(t, "group_id")
	// Past what a float64 holds, still valid JSON: a field error too, not "not valid JSON".
	m.post(pCardsUpdate, member, `{"id": 1e400}`).wantFieldError(t, "id")
	m.post(pConvRestore, member, `{"conversation_id": 1e400}`).wantFieldError(t, "conversation_id")
	// 1e400 is a whole number, worded as 1e20 is: by the bound it passed, not as no integer;
	// an id by the ids a record may have, which a JavaScript client reads exactly (it was
	// worded by 2^63-1, a number such a client cannot hold).
	for num, want := range map[string]string{"1e400": "must not be greater than 9007199254740991", "1e20": "must not be greater than 9007199254740991", "-1e400": "must be at least 1", "1.5": "must be an integer"} {
		if a := m.post(pCommentsList, member, `{"card_id": `+num+`}`); !strings.Contains(string(a.raw), want) {
			t.Errorf("card_id %s: %s, want %q", num, a.raw, want)
		}
	}
	// An id past the largest a record may have (2^53-1) is refused as the bound its message
	// names, not looked up: 2^53 and 1e17 were answered 404, echoing a number a JavaScript
	// client cannot read, while 2^64 was refused naming 2^53-1.
	for _, num := range []string{"9007199254740992", "1e17", "18446744073709551616", "1e400"} {
		a := m.post(pCardsUpdate, member, `{"id": `+num+`, "title": "x"}`)
		a.wantFieldError(t, "id")
		if !strings.Contains(string(a.raw), "must not be greater than 9007199254740991") {
			t.Errorf("id %s: %s", num, a.raw)
		}
	}
	m.post(pCardsUpdate, member, `{"id": 9007199254740991, "title": "x"}`).wantStatus(t, http.StatusNotFound)
	// Past 64 bits, a number is worded by the bound on the side it went past, not by a range
	// from -2^63 that a page number has no part of: a page's own bound (D26).
	a = m.post(pCommentsList, member, fmt.Sprintf(`{"card_id": %d, "page": 99999999999999999999}`, card))
	a.wantFieldError(t, "page")
	if !strings.Contains(string(a.raw), "The page field must not be greater than 9007199254740991.") {
		t.Errorf("page past 64 bits: %s, want it worded by the upper bound", a.raw)
	}
}
