package mockserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A snapshot's member names are exact (D8), at every depth: Go's decoder matched them in any
// case, so a card's "TITLE" loaded as its title and a "Cards" collection as the cards, while a
// control body's "Seed" is refused. Each such name is refused, by its place, and the world
// stays as it was.
func TestSnapshotNamesAreExactAtEveryDepth(t *testing.T) {
	s, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/__mock/state", nil))
	snapshot := rec.Body.String()
	for _, tc := range []struct{ from, to, want string }{
		{`"title":`, `"TITLE":`, `[0].TITLE is not known (names are written exactly: title)`},
		{`"cards":`, `"Cards":`, `member Cards is not known (names are written exactly: cards)`},
		{`"user_id":`, `"User_Id":`, `[0].User_Id is not known (names are written exactly: user_id)`},
		{`"title":`, `"\u0054itle":`, `[0].Title is not known`}, // escaped, it is still not "title"
		// A record that is null is named as such, not refused field by field.
		{`"cards":[`, `"cards":[null,`, `cards[0] is null: each record of cards is an object`},
	} {
		body := strings.Replace(snapshot, tc.from, tc.to, 1)
		if body == snapshot {
			t.Fatalf("the seeded snapshot has no %s", tc.from)
		}
		if _, err := DecodeState([]byte(body)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("state file with %s: %v, want %s refused as not known", tc.to, err, tc.want)
		}
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(http.MethodPut, "/__mock/state", strings.NewReader(body)))
		if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), tc.want) {
			t.Errorf("PUT /__mock/state with %s: %d %s, want 422 naming %s", tc.to, rec.Code, rec.Body, tc.want)
		}
	}
	rec = httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/__mock/state", nil))
	if !bytes.Equal(rec.Body.Bytes(), []byte(snapshot)) {
		t.Error("a refused snapshot changed the world")
	}
	if _, err := DecodeState([]byte(snapshot)); err != nil {
		t.Errorf("the world's own snapshot: %v", err)
	}
}

// An object where a text belongs is the type error it is, not its members unknown names.
func TestSnapshotObjectForATextIsATypeError(t *testing.T) {
	s, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/__mock/state", nil))
	var snap map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &snap); err != nil {
		t.Fatal(err)
	}
	snap["cards"].([]any)[0].(map[string]any)["title"] = map[string]any{"a": 1}
	body, _ := json.Marshal(snap)
	rec = httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodPut, "/__mock/state", bytes.NewReader(body)))
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "cards[0].title field must be a string") || strings.Contains(rec.Body.String(), "not known") {
		t.Errorf("PUT /__mock/state with an object for a card's title: %d %s", rec.Code, rec.Body)
	}
}
