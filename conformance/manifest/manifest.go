package manifest

import (
	_ "embed" // the manifest's schema and example ship in the suite binary
	"fmt"
	"strings"

	"github.com/opsapi/mocktoolkit/fixtures"
)

// Schema is conformance/manifest/manifest.schema.json, the JSON Schema of a manifest.
//
//go:embed manifest.schema.json
var Schema []byte

// Example is conformance/manifest/manifest.example.json, a complete manifest of a made-up
// deployment.
//
//go:embed manifest.example.json
var Example []byte

// Manifest names what the suite may act on in the deployment: the fixture manifest of the mock
// (fixtures.Manifest: users, record ids, carts, versions), and, for a deployment whose bearer
// tokens do not come from /v1/authenticate, a token per user. An example and a JSON Schema are
// manifest.example.json and manifest.schema.json beside this package.
type Manifest struct {
	fixtures.Manifest
	// Tokens are bearer tokens to use instead of logging in (per user; any may be empty).
	Tokens Tokens `json:"tokens,omitzero"`
}

// Tokens are bearer tokens of the manifest's users.
type Tokens struct {
	Member     string `json:"member,omitempty"`
	Teammate   string `json:"teammate,omitempty"`
	Superadmin string `json:"superadmin,omitempty"`
	Outsider   string `json:"outsider,omitempty"`
}

// Check lists, by JSON path, what m lacks for the suite (empty when nothing). A user
// with a token in Tokens needs no credentials.
func Check(m Manifest) []string {
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
	if t := m.Users.Teammate; m.Tokens.Teammate == "" && (t.Email != "") != (t.Password != "") { // optional, but whole
		need(t.Email != "", "users.teammate.email")
		need(t.Password != "", "users.teammate.password")
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

// Needs says which parts of the manifest (JSON path prefixes, as Check names
// them) the specs of each operation use. A run whose label filter leaves out every operation
// needing a missing part goes on; the specs that would need it skip with the reason.
var Needs = map[string][]string{
	"authenticate":           {"users.member", "users.outsider"},
	"commentsList":           {"users.member", "users.outsider", "operations.card_id"},
	"masterCardsCreate":      {"users.member", "users.superadmin", "operations.master_group_id"},
	"masterCardsUpdate":      {"users.member", "users.superadmin", "operations.master_card_id", "operations.master_board_id", "operations.card_id"},
	"cardsUpdate":            {"users.member", "users.outsider", "operations.card_id", "operations.group_id", "operations.tag_id"},
	"boardsUpdate":           {"users.member", "users.outsider", "operations.board_id"},
	"masterGroupsUpdate":     {"users.member", "users.superadmin", "operations.master_group_id", "operations.group_id"},
	"widgetCardsList":        {"users.member", "operations.tool_key"},
	"tourCardsUpdate":        {"users.member", "users.superadmin", "users.outsider", "operations.master_tour_card_id", "operations.card_id", "operations.master_group_id"},
	"masterBoardsSync":       {"users.member", "users.superadmin", "operations.master_board_id", "operations.master_group_id", "operations.board_id"},
	"groupsDelete":           {"users.member", "users.superadmin", "users.outsider", "operations.group_id", "operations.master_board_id"},
	"conversationsRestore":   {"users.member", "users.outsider", "ai."},
	"masterBoardsCreate":     {"users.member", "users.superadmin"},
	"boardsList":             {"users.member", "operations.tool_key", "operations.board_id"},
	"masterBoardsList":       {"users.member", "users.superadmin", "operations.master_board_id"},
	"cardsList":              {"users.member", "users.outsider", "operations.card_id"},
	"tagsList":               {"users.member", "users.outsider", "operations.tag_id"},
	"cardsCreate":            {"users.member", "users.outsider", "operations.group_id", "operations.tag_id"},
	"masterGroupsCreate":     {"users.member", "users.superadmin", "operations.master_board_id"},
	"commentsCreate":         {"users.member", "users.outsider", "operations.card_id"},
	"tagsCreate":             {"users.member"},
	"domainCartRemove":       {"domains."},
	"thumbnailsRegenerate":   {"users.member", "users.teammate", "users.outsider", "websites.page_id", "websites.template_id", "websites.layout_id"},
	"themeVersionsDeprecate": {"users.member", "users.outsider", "websites.approved_version_ids", "websites.unapproved_version_id"},
}

// MissingFor lists the parts of missing (Check's list) that op's specs use.
func MissingFor(op string, missing []string) []string {
	var out []string
	for _, m := range missing {
		for _, prefix := range Needs[op] {
			if strings.HasPrefix(m, prefix) {
				out = append(out, m)
				break
			}
		}
	}
	return out
}
