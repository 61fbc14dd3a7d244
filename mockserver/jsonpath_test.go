package mockserver

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/opsapi/mocktoolkit/reference"
)

// pathAt names the record a byte of a snapshot lies in, and placedFieldError words a snapshot's
// decoding error with it: "cards.id" and a bare "zzz" said which field, not which record.
func TestSnapshotErrorsNameTheRecord(t *testing.T) {
	doc := []byte(`{"users":[{"id":1}],"cards":[{"id":1,"t":"a,b]"},{"id":2},{"id":"x"}],"tags":[]}`)
	for _, tt := range []struct {
		at   string // the text the offset is just after
		want string
	}{
		{`"x"`, "cards[2].id"},
		{`{"id":2`, "cards[1].id"},
		{`"a,b]"`, "cards[0].t"},
		{`"tags":[`, "tags[0]"},
	} {
		off := int64(bytes.Index(doc, []byte(tt.at)) + len(tt.at))
		if got := pathAt(doc, off); got != tt.want {
			t.Errorf("pathAt after %s = %q, want %q", tt.at, got, tt.want)
		}
	}
	for _, tt := range []struct{ doc, field, msg string }{
		{`{"cards":[{"id":1},{"id":"x"}]}`, "cards[1].id", "The cards[1].id field must be an integer."},
		{`{"cards":[{"id":1},{"id":2,"zzz":1}]}`, "cards[1].zzz", "The cards[1].zzz field is not known."},
		// A list or an object where one value belongs is named by the field, not by its first
		// element (it may well be of the field's type).
		{`{"cards":[{"id":1,"title":["a","b"]}]}`, "cards[0].title", "The cards[0].title field must be a string."},
		{`{"cards":[{"id":1,"title":{"a":"b"}}]}`, "cards[0].title", "The cards[0].title field must be a string."},
		{`{"cards":[{"id":[1]}]}`, "cards[0].id", "The cards[0].id field must be an integer."},
	} {
		dec := json.NewDecoder(bytes.NewReader([]byte(tt.doc)))
		dec.DisallowUnknownFields()
		var st reference.State
		err := dec.Decode(&st)
		if field, msg := placedFieldError([]byte(tt.doc), err, dec.InputOffset()); field != tt.field || msg != tt.msg {
			t.Errorf("%s: %q %q, want %q %q", tt.doc, field, msg, tt.field, tt.msg)
		}
	}
}
