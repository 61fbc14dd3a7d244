package conformance_test

import (
	"strings"
	"testing"

	. "github.com/opsapi/mocktoolkit/conformance"
)

// TestIDFieldsAreReadFromTheDocument holds the probe matrix's id fields (IDFields) to the
// request schemas: every integer field naming a record, the one each operation acts on marked
// with a star.
func TestIDFieldsAreReadFromTheDocument(t *testing.T) {
	var got []string
	for _, f := range IDFields() {
		s := f.String()
		if f.Primary {
			s += "*"
		}
		got = append(got, s)
	}
	want := []string{
		"commentsList.card_id*",
		"masterCardsCreate.group_id*",
		"masterCardsUpdate.group_id", "masterCardsUpdate.id*",
		"cardsUpdate.group_id", "cardsUpdate.id*", "cardsUpdate.owner_id", "cardsUpdate.tag_id",
		"boardsUpdate.id*",
		"masterGroupsUpdate.id*",
		"tourCardsUpdate.id*",
		"masterBoardsSync.board_id*",
		"groupsDelete.id*",
		"conversationsRestore.conversation_id*",
		"cardsCreate.group_id", "cardsCreate.owner_id", "cardsCreate.tag_id",
		"masterGroupsCreate.board_id*",
		"commentsCreate.card_id*", "commentsCreate.parent_comment_id",
		"domainCartRemove.cart_item_id*",
		"thumbnailsRegenerate.entity_id*",
		"themeVersionsDeprecate.version_id*",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("IDFields:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
