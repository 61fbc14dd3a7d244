package mockserver

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"strconv"
	"testing"
)

// A snapshot encoded record by record into pieces is the bytes json.Encoder wrote of it whole
// (HTML not escaped, a newline after), with their Content-Length; nil and empty collections too,
// and the source after the records.
func TestSnapshotPiecesAreTheEncodersBytes(t *testing.T) {
	s, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	st := s.Snapshot()
	text := "<b>&amp;</b> \u2028 é"
	st.Boards[0].Description = &text
	st.Tags = nil
	for range 12 { // past a few pieces
		st.Cards = append(st.Cards, st.Cards...)
	}
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	src := SavedSource{Seed: 7, Scenario: "edge"}
	if err := enc.Encode(StateFile{State: st, Source: &src}); err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	if err := writeSnapshot(rec, st, src); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(rec.Body.Bytes(), want.Bytes()) {
		t.Fatalf("the pieces differ from the encoder's bytes (%d bytes, want %d)", rec.Body.Len(), want.Len())
	}
	if got := rec.Header().Get("Content-Length"); got != strconv.Itoa(want.Len()) {
		t.Errorf("Content-Length %s, want %d", got, want.Len())
	}
}
