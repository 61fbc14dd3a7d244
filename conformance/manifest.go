package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/opsapi/mocktoolkit/fixtures"
)

// LoadManifest reads the fixture manifest from cfg.ManifestFile when set, else from
// GET <base>/__mock/fixtures, and checks it holds everything the suite needs.
func LoadManifest(ctx context.Context, cfg Config, base string) (fixtures.Manifest, error) {
	var (
		m      fixtures.Manifest
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
			return m, fmt.Errorf("load manifest from %s (a deployment that is not the mock needs %s): %w", source, EnvManifest, err)
		}
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	if err := dec.Decode(&m); err != nil {
		return m, fmt.Errorf("load manifest from %s: %w", source, err)
	}
	if missing := CheckManifest(m); len(missing) > 0 {
		return m, fmt.Errorf("load manifest from %s: it lacks what the suite needs: %s", source, strings.Join(missing, "; "))
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

// CheckManifest lists, by JSON path, what m lacks for the suite (empty when nothing).
func CheckManifest(m fixtures.Manifest) []string {
	var missing []string
	need := func(ok bool, what string) {
		if !ok {
			missing = append(missing, what)
		}
	}
	for _, u := range []struct {
		name string
		c    fixtures.Credentials
	}{{"member", m.Users.Member}, {"superadmin", m.Users.Superadmin}, {"outsider", m.Users.Outsider}} {
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
