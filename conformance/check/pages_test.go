package check_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance/check"
)

// commentsPage is a comments/list answer: total comments, per_page, current_page, total_pages
// and a list of listed entries.
func commentsPage(total, per, current, pages, listed int) []byte {
	list := "["
	for i := range listed {
		if i > 0 {
			list += ","
		}
		list += fmt.Sprintf(`{"id":%d}`, i+1)
	}
	return fmt.Appendf(nil, `{"error":false,"message":"ok","data":{"comments":%s],"pagination":{"total":%d,"per_page":%d,"current_page":%d,"total_pages":%d}}}`,
		list, total, per, current, pages)
}

func TestPaginationAddsUp(t *testing.T) {
	for _, c := range []struct {
		name   string
		req    string
		answer []byte
		broken bool
	}{
		{"a full first page", `{"card_id":1,"page":1,"per_page":2}`, commentsPage(5, 2, 1, 3, 2), false},
		{"what is left on the last page", `{"card_id":1,"page":3,"per_page":2}`, commentsPage(5, 2, 3, 3, 1), false},
		{"none past the last page", `{"card_id":1,"page":4,"per_page":2}`, commentsPage(5, 2, 4, 3, 0), false},
		{"the last page again past it, saying so", `{"card_id":1,"page":9,"per_page":2}`, commentsPage(5, 2, 3, 3, 1), false},
		{"no comments, total_pages 0", `{"card_id":1,"page":1,"per_page":15}`, commentsPage(0, 15, 1, 0, 0), false},
		{"no comments, total_pages 1", `{"card_id":1,"page":1,"per_page":15}`, commentsPage(0, 15, 1, 1, 0), false},
		{"defaults the request did not give", `{"card_id":1}`, commentsPage(20, 15, 1, 2, 15), false},
		{"per_page not as asked", `{"card_id":1,"page":1,"per_page":2}`, commentsPage(5, 15, 1, 1, 5), true},
		{"current_page not as asked", `{"card_id":1,"page":2,"per_page":2}`, commentsPage(5, 2, 1, 3, 2), true},
		{"the last page again within the pages", `{"card_id":1,"page":2,"per_page":2}`, commentsPage(5, 2, 3, 3, 1), true},
		{"total_pages rounded down", `{"card_id":1,"page":1,"per_page":2}`, commentsPage(5, 2, 1, 2, 2), true},
		{"a page longer than per_page", `{"card_id":1,"page":1,"per_page":2}`, commentsPage(5, 2, 1, 3, 3), true},
		{"a short page that is not the last", `{"card_id":1,"page":1,"per_page":2}`, commentsPage(5, 2, 1, 3, 1), true},
		{"entries past the last page", `{"card_id":1,"page":4,"per_page":2}`, commentsPage(5, 2, 4, 3, 1), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, ok := check.ReadPage([]byte(c.req), c.answer)
			if !ok {
				t.Fatalf("the page could not be read from %s", c.answer)
			}
			vs := check.Pagination(p)
			if broken := len(vs) > 0; broken != c.broken {
				t.Errorf("broken %v, want %v: %v", broken, c.broken, vs)
			}
		})
	}
}

// An answer without a whole pagination object is not a page: other rules judge it.
func TestReadPageNeedsThePaginationObject(t *testing.T) {
	for _, body := range []string{
		`{"error":false,"message":"ok","data":{"comments":[]}}`,
		`{"error":false,"message":"ok","data":{"comments":[],"pagination":{"total":"3","per_page":2,"current_page":1,"total_pages":2}}}`,
		`{"error":false,"message":"ok","data":{"pagination":{"total":0,"per_page":2,"current_page":1,"total_pages":0}}}`,
		`{"error":false,"message":"ok","data":{"comments":[],"pagination":{"total":0,"per_page":0,"current_page":1,"total_pages":0}}}`,
	} {
		if _, ok := check.ReadPage([]byte(`{"page":1}`), []byte(body)); ok {
			t.Errorf("read a page from %s", body)
		}
	}
}

// The checker judges a page's arithmetic on every answer of comments/list.
func ExamplePagination() {
	p, _ := check.ReadPage([]byte(`{"card_id":1,"page":1,"per_page":2}`), commentsPage(5, 2, 1, 2, 2))
	for _, v := range check.Pagination(p) {
		fmt.Println(v)
	}
	// Output: PAGE-1: total_pages is 2; total 5 over per_page 2, rounded up, is 3
}

// PAGE-1's arithmetic holds at the edges of the integers: a page far past the end lists none,
// and total_pages of the largest total is total over per_page rounded up. (page-1)*per_page
// wrapped around once, and a correct answer to page 2^58+1 was told it should list 42.
func TestPaginationAtTheEdgesOfTheIntegers(t *testing.T) {
	const maxInt = math.MaxInt64
	for _, c := range []struct {
		name   string
		req    string
		answer []byte
		broken bool
	}{
		{"page 2^58+1 at 64", `{"card_id":1,"page":288230376151711745,"per_page":64}`, commentsPage(42, 64, 288230376151711745, 1, 0), false},
		{"page 184467440737095517 at 100", `{"card_id":1,"page":184467440737095517,"per_page":100}`, commentsPage(42, 100, 184467440737095517, 1, 0), false},
		{"the largest page", fmt.Sprintf(`{"card_id":1,"page":%d,"per_page":100}`, maxInt), commentsPage(42, 100, maxInt, 1, 0), false},
		{"the largest page, the last again", fmt.Sprintf(`{"card_id":1,"page":%d,"per_page":100}`, maxInt), commentsPage(42, 100, 1, 1, 42), false},
		{"entries on the largest page", fmt.Sprintf(`{"card_id":1,"page":%d,"per_page":100}`, maxInt), commentsPage(42, 100, maxInt, 1, 1), true},
		{"the largest total", `{"card_id":1,"page":1,"per_page":15}`, commentsPage(maxInt, 15, 1, 614891469123651721, 15), false},
		{"the largest total, total_pages rounded down", `{"card_id":1,"page":1,"per_page":15}`, commentsPage(maxInt, 15, 1, 614891469123651720, 15), true},
		{"the largest total, its last page", `{"card_id":1,"page":614891469123651721,"per_page":15}`, commentsPage(maxInt, 15, 614891469123651721, 614891469123651721, 7), false},
		// Past the 64-bit range: judged on what the answer wrote, not left unjudged.
		{"a total past 2^63, total_pages 1", `{"card_id":1}`, bigPage("9223372036854775808", "15", "1", "1", 0), true},
		{"a total past 2^63, its arithmetic right", `{"card_id":1}`, bigPage("9223372036854775808", "15", "1", "614891469123651721", 15), false},
		{"a current_page past 2^63 as asked", `{"card_id":1,"page":99999999999999999999,"per_page":15}`, bigPage("42", "15", "99999999999999999999", "3", 0), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, ok := check.ReadPage([]byte(c.req), c.answer)
			if !ok {
				t.Fatalf("the page could not be read from %s", c.answer)
			}
			if vs := check.Pagination(p); (len(vs) > 0) != c.broken {
				t.Errorf("broken %v, want %v: %v", len(vs) > 0, c.broken, vs)
			}
		})
	}
}

// bigPage is a comments/list answer whose pagination numbers are written as given.
func bigPage(total, per, current, pages string, listed int) []byte {
	list := strings.TrimSuffix(strings.Repeat(`{"id":1},`, listed), ",")
	return []byte(`{"error":false,"message":"ok","data":{"comments":[` + list + `],"pagination":{"total":` + total + `,"per_page":` + per + `,"current_page":` + current + `,"total_pages":` + pages + `}}}`)
}
