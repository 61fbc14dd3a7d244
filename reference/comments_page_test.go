package reference_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/reference"
)

// A comment page shares no memory with the store: changing what its optional fields point to
// changes nothing the next listing shows.
func TestCommentPageIsACopy(t *testing.T) {
	s, _ := newStore(t)
	list := func() []reference.Comment {
		t.Helper()
		page, err := s.ListComments(member, reference.ListCommentsInput{CardID: acmeOverdueCard})
		wantCode(t, err, "")
		return page.Comments
	}
	before, held := list(), list()
	changed := 0
	for _, c := range held {
		if c.ReadAt != nil {
			*c.ReadAt = c.ReadAt.Add(time.Hour)
			changed++
		}
		if c.ParentCommentID != nil {
			*c.ParentCommentID += 1000
			changed++
		}
	}
	if changed == 0 {
		t.Fatal("no listed comment has a read_at or a parent: the test changes nothing")
	}
	if after := list(); !reflect.DeepEqual(before, after) {
		t.Errorf("changing a listed page changed the store:\nbefore %+v\nafter  %+v", before, after)
	}
}
