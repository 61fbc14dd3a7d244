package mockserver

import (
	"fmt"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/reference"
)

// deriveManifest checks a manifest against records a snapshot put in its place (D102): a
// login whose user is gone, or an id whose record is gone, is blanked (empty credentials, id 0)
// and named in the notes; a user whose password changed gets the new one. The rest of the
// manifest still holds and is kept.
func deriveManifest(m fixtures.Manifest, st reference.State) (fixtures.Manifest, []string) {
	notes := []string{"A snapshot replaced this world's records: the manifest was checked against them."}
	users := map[string]reference.User{}
	for _, u := range st.Users {
		users[u.Email] = u
	}
	for role, c := range map[string]*fixtures.Credentials{"member": &m.Users.Member, "superadmin": &m.Users.Superadmin, "outsider": &m.Users.Outsider} {
		u, ok := users[c.Email]
		switch {
		case !ok:
			notes = append(notes, fmt.Sprintf("users.%s: no user has the e-mail %s any more; the manifest no longer knows this login.", role, c.Email))
			*c = fixtures.Credentials{}
		case u.Password != c.Password:
			c.Password = u.Password
			notes = append(notes, fmt.Sprintf("users.%s: the password is the snapshot's.", role))
		}
	}
	ids := recordIDs(st)
	op := &m.Operations
	for _, ref := range []struct {
		field, kind string
		id          *int64
	}{
		{"operations.board_id", "board", &op.BoardID}, {"operations.group_id", "group", &op.GroupID},
		{"operations.card_id", "card", &op.CardID}, {"operations.tag_id", "tag", &op.TagID},
		{"operations.master_board_id", "board", &op.MasterBoardID}, {"operations.master_group_id", "group", &op.MasterGroupID},
		{"operations.master_card_id", "card", &op.MasterCardID}, {"operations.master_tour_card_id", "card", &op.MasterTourCardID},
		{"ai.active_conversation_id", "conversation", &m.AI.ActiveConversationID},
		{"websites.page_id", "entity", &m.Websites.PageID}, {"websites.template_id", "entity", &m.Websites.TemplateID},
		{"websites.layout_id", "entity", &m.Websites.LayoutID}, {"websites.unapproved_version_id", "version", &m.Websites.UnapprovedVersionID},
	} {
		if *ref.id != 0 && !ids[ref.kind][*ref.id] {
			notes = append(notes, fmt.Sprintf("%s: %s %d is not in the snapshot; the manifest no longer knows one.", ref.field, ref.kind, *ref.id))
			*ref.id = 0
		}
	}
	return m, notes
}

// recordIDs indexes the ids of st by kind.
func recordIDs(st reference.State) map[string]map[int64]bool {
	ids := map[string]map[int64]bool{"board": {}, "group": {}, "card": {}, "tag": {}, "conversation": {}, "entity": {}, "version": {}}
	for _, r := range st.Boards {
		ids["board"][r.ID] = true
	}
	for _, r := range st.Groups {
		ids["group"][r.ID] = true
	}
	for _, r := range st.Cards {
		ids["card"][r.ID] = true
	}
	for _, r := range st.Tags {
		ids["tag"][r.ID] = true
	}
	for _, r := range st.Conversations {
		ids["conversation"][r.ID] = true
	}
	for _, r := range st.Entities {
		ids["entity"][r.ID] = true
	}
	for _, r := range st.ThemeVersions {
		ids["version"][r.VersionID] = true
	}
	return ids
}
