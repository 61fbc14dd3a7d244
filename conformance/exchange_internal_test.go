package conformance

import (
	"fmt"
	"strings"
	"testing"
)

// An answer's ids are read as written: an id past 2^53 (a 64-bit id a deployment may use; the
// interface bounds none) keeps its digits, so the suite sends back the very id it was given.
func TestAnswersKeepLargeIDs(t *testing.T) {
	ex := &Exchange{Body: []byte(`{"error":false,"message":"ok","data":{"card":{"id":9007199254740993,"price":12.5,"n":3.0}}}`)}
	ex.decode()
	if id, ok := ex.Int("data.card.id"); !ok || id != 9007199254740993 {
		t.Errorf("data.card.id read as %d (%v), want 9007199254740993", id, ok)
	}
	if n, ok := ex.Int("data.card.n"); !ok || n != 3 {
		t.Errorf("3.0 read as %d (%v), want the integer 3", n, ok)
	}
	if _, ok := ex.Int("data.card.price"); ok {
		t.Error("12.5 read as an integer")
	}
	if f, ok := Number(mustGet(t, ex, "data.card.price")); !ok || f != 12.5 {
		t.Errorf("price read as %v (%v)", f, ok)
	}
}

func mustGet(t *testing.T, ex *Exchange, path string) any {
	t.Helper()
	v, ok := ex.Get(path)
	if !ok {
		t.Fatalf("no %s", path)
	}
	return v
}

// A long answer is shown with its lists cut to their first entries, so the fields after a long
// list (a page's pagination after 100 comments) stay in the failure message.
func TestDescribeKeepsTheFieldsAfterALongList(t *testing.T) {
	var comments []string
	for i := range 100 {
		comments = append(comments, fmt.Sprintf(`{"id":%d,"comment":"%s"}`, i+1, strings.Repeat("x", 60)))
	}
	body := `{"error":false,"message":"ok","data":{"comments":[` + strings.Join(comments, ",") + `],"pagination":{"total":101,"per_page":100,"current_page":1,"total_pages":1}}}`
	ex := &Exchange{Status: 200, Body: []byte(body)}
	d := ex.Describe()
	if !strings.Contains(d, `"total_pages": 1`) || !strings.Contains(d, "98 more entries, not shown") {
		t.Errorf("the described answer hides the pagination after the comments:\n%s", d)
	}
}
