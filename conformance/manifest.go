package conformance

import (
	"context"
	_ "embed" // the manifest's schema and example ship in the suite binary
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/opsapi/mocktoolkit/fixtures"
)

// ManifestSchema is conformance/manifest.schema.json, the JSON Schema of a manifest.
//
//go:embed manifest.schema.json
var ManifestSchema []byte

// ManifestExample is conformance/manifest.example.json, a complete manifest of a made-up
// deployment.
//
//go:embed manifest.example.json
var ManifestExample []byte

// Manifest names what the suite may act on in the deployment: the fixture manifest of the mock
// (fixtures.Manifest: users, record ids, carts, versions), and, for a deployment whose bearer
// tokens do not come from /v1/authenticate, a token per user. An example and a JSON Schema are
// conformance/manifest.example.json and conformance/manifest.schema.json.
type Manifest struct {
	fixtures.Manifest
	// Tokens are bearer tokens to use instead of logging in (per user; any may be empty).
	Tokens ManifestTokens `json:"tokens,omitzero"`
}

// ManifestTokens are bearer tokens of the manifest's users.
type ManifestTokens struct {
	Member     string `json:"member,omitempty"`
	Superadmin string `json:"superadmin,omitempty"`
	Outsider   string `json:"outsider,omitempty"`
}

// LoadManifest reads the fixture manifest from cfg.ManifestFile when set, else from
// GET <base>/__mock/fixtures. What it lacks is listed by CheckManifest; the suite decides with
// Needs whether the run may go on without it.
func LoadManifest(ctx context.Context, cfg Config, base string) (Manifest, error) {
	var (
		m      Manifest
		raw    []byte
		source string
		err    error
	)
	if cfg.ManifestFile != "" {
		source = cfg.ManifestFile
		raw, err = os.ReadFile(cfg.ManifestFile)
		if err != nil {
			return m, fmt.Errorf("load manifest: %w", err)
		}
	} else {
		source = base + "/__mock/fixtures"
		raw, err = fetch(ctx, source, cfg.AdminToken)
		if err != nil {
			return m, fmt.Errorf("load manifest from %s (for a deployment other than the mock, write one and name it in %s): %w", source, EnvManifest, err)
		}
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	if err := dec.Decode(&m); err != nil {
		return m, fmt.Errorf("load manifest from %s: %w", source, err)
	}
	return m, nil
}

func fetch(ctx context.Context, url, adminToken string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	if adminToken != "" {
		req.Header.Set("X-Mock-Admin-Token", adminToken) // the mock's --admin-token (D66)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("status %d: %.200s", resp.StatusCode, body)
	}
	return body, nil
}

// CheckManifest lists, by JSON path, what m lacks for the suite (empty when nothing). A user
// with a token in Tokens needs no credentials.
func CheckManifest(m Manifest) []string {
	var missing []string
	need := func(ok bool, what string) {
		if !ok {
			missing = append(missing, what)
		}
	}
	for _, u := range []struct {
		name, token string
		c           fixtures.Credentials
	}{{"member", m.Tokens.Member, m.Users.Member}, {"superadmin", m.Tokens.Superadmin, m.Users.Superadmin}, {"outsider", m.Tokens.Outsider, m.Users.Outsider}} {
		if u.token != "" {
			continue
		}
		need(u.c.Email != "", "users."+u.name+".email")
		need(u.c.Password != "", "users."+u.name+".password")
	}
	o := m.Operations
	need(o.ToolKey != "", "operations.tool_key")
	for _, f := range []struct {
		name string
		id   int64
	}{{"board_id", o.BoardID}, {"group_id", o.GroupID}, {"card_id", o.CardID}, {"tag_id", o.TagID},
		{"master_board_id", o.MasterBoardID}, {"master_group_id", o.MasterGroupID},
		{"master_card_id", o.MasterCardID}, {"master_tour_card_id", o.MasterTourCardID},
		{"ai.active_conversation_id", m.AI.ActiveConversationID}, {"websites.page_id", m.Websites.PageID},
		{"websites.template_id", m.Websites.TemplateID}, {"websites.layout_id", m.Websites.LayoutID},
		{"websites.unapproved_version_id", m.Websites.UnapprovedVersionID},
		{"domains.locked_cart.item_id", m.Domains.LockedCart.ItemID}} {
		name := f.name
		if !strings.Contains(name, ".") {
			name = "operations." + name
		}
		need(f.id > 0, name+" (a positive id)")
	}
	need(len(m.AI.ArchivedConversationIDs) > 0, "ai.archived_conversation_ids (one or more)")
	need(len(m.Websites.ApprovedVersionIDs) > 0, "websites.approved_version_ids (one or more)")
	need(m.Domains.LockedCart.SessionToken != "", "domains.locked_cart.session_token")
	need(len(m.Domains.Carts) >= 2, "domains.carts (two or more open carts)")
	if len(m.Domains.Carts) > 0 {
		need(len(m.Domains.Carts[0].ItemIDs) >= 3, "domains.carts[0].item_ids (three or more)")
	}
	for i, c := range m.Domains.Carts {
		need(c.SessionToken != "", fmt.Sprintf("domains.carts[%d].session_token", i))
	}
	return missing
}

// ManifestNeeds says which parts of the manifest (JSON path prefixes, as CheckManifest names
// them) the specs of each operation use. A run whose label filter leaves out every operation
// needing a missing part goes on; the specs that would need it skip with the reason.
var ManifestNeeds = map[string][]string{
	OpAuthenticate.ID:           {"users.member", "users.outsider"},
	OpCommentsList.ID:           {"users.member", "users.outsider", "operations.card_id"},
	OpMasterCardsCreate.ID:      {"users.member", "users.superadmin", "operations.master_group_id"},
	OpMasterCardsUpdate.ID:      {"users.member", "users.superadmin", "operations.master_card_id", "operations.master_board_id"},
	OpCardsUpdate.ID:            {"users.member", "users.outsider", "operations.card_id"},
	OpBoardsUpdate.ID:           {"users.member", "users.outsider", "operations.board_id"},
	OpMasterGroupsUpdate.ID:     {"users.member", "users.superadmin", "operations.master_group_id"},
	OpWidgetCardsList.ID:        {"users.member", "operations.tool_key"},
	OpTourCardsUpdate.ID:        {"users.member", "users.outsider", "operations.master_tour_card_id", "operations.card_id"},
	OpMasterBoardsSync.ID:       {"users.member", "users.superadmin", "operations.master_board_id", "operations.master_group_id"},
	OpGroupsDelete.ID:           {"users.member", "users.superadmin", "users.outsider", "operations.group_id", "operations.master_board_id"},
	OpConversationsRestore.ID:   {"users.member", "users.outsider", "ai."},
	OpMasterBoardsCreate.ID:     {"users.member", "users.superadmin"},
	OpBoardsList.ID:             {"users.member", "operations.tool_key", "operations.board_id"},
	OpMasterBoardsList.ID:       {"users.member", "users.superadmin", "operations.master_board_id"},
	OpCardsList.ID:              {"users.member", "users.outsider", "operations.card_id"},
	OpTagsList.ID:               {"users.member", "users.outsider", "operations.tag_id"},
	OpCardsCreate.ID:            {"users.member", "users.outsider", "operations.group_id"},
	OpMasterGroupsCreate.ID:     {"users.member", "users.superadmin", "operations.master_board_id"},
	OpCommentsCreate.ID:         {"users.member", "users.outsider", "operations.card_id"},
	OpTagsCreate.ID:             {"users.member"},
	OpDomainCartRemove.ID:       {"domains."},
	OpThumbnailsRegenerate.ID:   {"users.member", "users.outsider", "websites.page_id", "websites.template_id", "websites.layout_id"},
	OpThemeVersionsDeprecate.ID: {"users.member", "users.outsider", "websites.approved_version_ids", "websites.unapproved_version_id"},
}

// MissingFor lists the parts of missing (CheckManifest's list) that op's specs use.
func MissingFor(op string, missing []string) []string {
	var out []string
	for _, m := range missing {
		for _, prefix := range ManifestNeeds[op] {
			if strings.HasPrefix(m, prefix) {
				out = append(out, m)
				break
			}
		}
	}
	return out
}
