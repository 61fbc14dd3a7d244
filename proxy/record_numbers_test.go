package proxy_test

import (
	"strings"
	"testing"
)

// A hostile upstream's numbers and booleans of the wrong JSON kind (a position in text, an
// is_active of "yes", a negative price) are left out of a recording with one note each, naming
// the field and the kind, never dropped without a word; the records are kept.
func TestRecordingNotesNumbersAndBooleansOfTheWrongKind(t *testing.T) {
	ok := func(data string) string { return `{"error":false,"message":"ok","data":{` + data + `}}` }
	file, _, notes := writeHostile(t, map[string]string{
		"/services/operations/v1/operations/boards/list": ok(`"boards":[{"id":501,"title":"B","position":"7"},{"id":502,"title":"C","position":1.5}],` +
			`"groups":[{"id":511,"title":"G","board_id":501,"position":{"p":1}}]`),
		"/services/operations/v1/operations/cards/list": ok(`"cards":[{"id":521,"title":"T","owner_id":"me","is_active":"yes","group_id":"511"}]`),
		"/services/operations/v1/operations/comments/list": ok(`"comments":[{"id":531,"card_id":521,"comment":"hi","is_read":1},` +
			`{"id":532,"card_id":521,"comment":"re","parent_comment_id":["531"]}]`),
		"/services/domains/v1/domain-cart/remove": ok(`"cart":{"session_token":"tok-hostile","items":[` +
			`{"id":541,"domain_name":"a.com","price":-3,"years":"2"},{"id":542,"domain_name":"b.com","price":"9.99","years":2.5}]}`),
	})
	all := strings.Join(notes, "\n")
	for _, want := range []string{
		"board-501: position is a string, not a number: left out",
		"board-502: position 1.5 left out: not a whole number",
		"group-511: position is an object, not a number: left out",
		"card-521: owner_id is a string, not a number: left out",
		"card-521: is_active is a string, not true or false: left out",
		"card-521: group_id is a string, not a number: left out",
		"comment-531: is_read is a number, not true or false: left out",
		"comment-532: parent_comment_id is an array, not a number: left out",
		"price -3 left out: a price is not below zero",
		"years is a string, not a number: left out",
		"price is a string, not a number: left out",
		"years 2.5 left out: not a whole number",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("no note %q among:\n%s", want, all)
		}
	}
	if goRendering.MatchString(all) {
		t.Errorf("a note renders a decoded value as Go does:\n%s", all)
	}
	for _, ref := range []string{"board-501", "board-502", "group-511", "card-521", "comment-531", "comment-532"} {
		if !strings.Contains(file, "ref: "+ref) {
			t.Errorf("%s was left out of the file, where only a field was wrong:\n%s", ref, file)
		}
	}
}
