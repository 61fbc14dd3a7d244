package codegen_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	openapi_types "github.com/oapi-codegen/runtime/types"
	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/mockserver"
	"github.com/opsapi/mocktoolkit/spec/codegen/client"
)

// The committed client is what oapi-codegen makes of the document today, with its default
// output (types and client).
func TestGeneratedClientMatchesTheDocument(t *testing.T) {
	if testing.Short() {
		t.Skip("runs oapi-codegen (a few seconds); run without -short")
	}
	out := filepath.Join(t.TempDir(), "client.gen.go")
	cmd := exec.Command("go", "tool", "oapi-codegen", "-generate", "types,client", "-package", "client", "-o", out, "../openapi.yaml")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("oapi-codegen: %v\n%s", err, b)
	}
	fresh, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile(filepath.Join("client", "client.gen.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(fresh, committed) {
		t.Error("client/client.gen.go is stale: run go generate ./... in spec/codegen and commit it")
	}
}

// startMock serves the mock of the default world and returns a generated client for it and
// the world's manifest.
func startMock(t *testing.T) (*client.ClientWithResponses, fixtures.Manifest) {
	t.Helper()
	h, err := mockserver.New(mockserver.Config{})
	if err != nil {
		t.Fatalf("mockserver.New: %v", err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	res, err := http.Get(srv.URL + "/__mock/fixtures")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var m fixtures.Manifest
	if err := json.NewDecoder(res.Body).Decode(&m); err != nil {
		t.Fatalf("decode the manifest: %v", err)
	}
	c, err := client.NewClientWithResponses(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	return c, m
}

// bearer adds the token to a request of the generated client.
func bearer(token string) client.RequestEditorFn {
	return func(_ context.Context, req *http.Request) error {
		req.Header.Set("Authorization", "Bearer "+token)
		return nil
	}
}

func TestGeneratedClientDrivesTheMock(t *testing.T) {
	ctx := context.Background()
	c, m := startMock(t)

	// Authenticate with the member of the seeded world: a typed login result.
	login, err := c.AuthenticateWithResponse(ctx, client.AuthenticateBody{
		Email: openapi_types.Email(m.Users.Member.Email), Password: m.Users.Member.Password,
	})
	if err != nil {
		t.Fatal(err)
	}
	if login.JSON200 == nil {
		t.Fatalf("authenticate: %d %s", login.StatusCode(), login.Body)
	}
	if login.JSON200.Data.Email != m.Users.Member.Email || login.JSON200.Data.Token == "" || login.JSON200.Error {
		t.Fatalf("authenticate: login result %+v", login.JSON200.Data)
	}
	auth := bearer(login.JSON200.Data.Token)

	// Create a card: typed body in, typed card record out, with the rate-limit headers parsed.
	priority := client.CardsCreateBodyPriorityHigh
	groupID := int(m.Operations.GroupID)
	created, err := c.CardsCreateWithResponse(ctx, client.CardsCreateBody{
		Title: "Write the launch announcement", GroupId: &groupID, Priority: &priority,
	}, auth)
	if err != nil {
		t.Fatal(err)
	}
	if created.JSON200 == nil {
		t.Fatalf("cards/create: %d %s", created.StatusCode(), created.Body)
	}
	card := created.JSON200.Data.Card
	if card.Id == nil || card.Title == nil || *card.Title != "Write the launch announcement" ||
		card.Priority == nil || *card.Priority != "high" || card.GroupId == nil || *card.GroupId != groupID {
		t.Errorf("cards/create: card %+v", card)
	}
	if h := created.Headers200; h == nil || h.XRateLimitLimit <= 0 || h.XRateLimitRemaining >= h.XRateLimitLimit {
		t.Errorf("cards/create: rate-limit headers %+v", h)
	}

	// List the cards: the new one is there.
	list, err := c.CardsListWithResponse(ctx, client.CardsListJSONRequestBody{}, auth)
	if err != nil {
		t.Fatal(err)
	}
	if list.JSON200 == nil {
		t.Fatalf("cards/list: %d %s", list.StatusCode(), list.Body)
	}
	var ids []float64
	for _, item := range list.JSON200.Data.Cards {
		if id, ok := item["id"].(float64); ok {
			ids = append(ids, id)
		}
	}
	if card.Id != nil && !slices.Contains(ids, float64(*card.Id)) {
		t.Errorf("cards/list: card %d not among %v", *card.Id, ids)
	}

	// A title over 255 characters: a typed 422 keyed by field.
	refused, err := c.CardsCreateWithResponse(ctx, client.CardsCreateBody{Title: strings.Repeat("x", 256)}, auth)
	if err != nil {
		t.Fatal(err)
	}
	if refused.JSON422 == nil {
		t.Fatalf("cards/create with a long title: %d %s, want 422", refused.StatusCode(), refused.Body)
	}
	// The interface gives a field's detail no form, so the document types it loosely; the mock
	// writes a list of sentences.
	if got, _ := refused.JSON422.Errors["title"].([]any); len(got) != 1 || got[0] != "The title field must not be greater than 255 characters." {
		t.Errorf("422 errors.title = %v", refused.JSON422.Errors["title"])
	}

	// Without a token: a typed 401.
	anonymous, err := c.CardsListWithResponse(ctx, client.CardsListJSONRequestBody{})
	if err != nil {
		t.Fatal(err)
	}
	if anonymous.JSON401 == nil || !anonymous.JSON401.Error {
		t.Errorf("cards/list without a token: %d %s, want a 401 in shape (b)", anonymous.StatusCode(), anonymous.Body)
	}
}

// The superadmin lists the master boards as the strings the document types them as.
func TestGeneratedClientReadsMasterBoardTitles(t *testing.T) {
	ctx := context.Background()
	c, m := startMock(t)
	login, err := c.AuthenticateWithResponse(ctx, client.AuthenticateBody{
		Email: openapi_types.Email(m.Users.Superadmin.Email), Password: m.Users.Superadmin.Password,
	})
	if err != nil || login.JSON200 == nil {
		t.Fatalf("authenticate: %v %s", err, login.Body)
	}
	auth := bearer(login.JSON200.Data.Token)
	title := "Online shop onboarding"
	if _, err := c.MasterBoardsCreateWithResponse(ctx, client.MasterBoardsCreateBody{Title: title, ToolKey: "shop"}, auth); err != nil {
		t.Fatal(err)
	}
	boards, err := c.MasterBoardsListWithResponse(ctx, client.MasterBoardsListJSONRequestBody{}, auth)
	if err != nil {
		t.Fatal(err)
	}
	if boards.JSON200 == nil {
		t.Fatalf("master-boards/list: %d %s", boards.StatusCode(), boards.Body)
	}
	if !slices.Contains(boards.JSON200.Data.Boards, title) {
		t.Errorf("master-boards/list: %q not among %q", title, boards.JSON200.Data.Boards)
	}
}
