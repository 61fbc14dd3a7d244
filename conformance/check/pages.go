package check

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// Page is what one paginated answer says of itself (rule PAGE-1), read from its `pagination`
// object and the list beside it in `data`. Its numbers are big integers: an answer may write
// any, and the arithmetic of pages is judged on what it wrote, past the 64-bit range too.
type Page struct {
	// Asked and PerPageAsked are the request's page and per_page, 0 when it did not give them.
	Asked, PerPageAsked *big.Int
	// Total, PerPage, Current and TotalPages are the answer's pagination object.
	Total, PerPage, Current, TotalPages *big.Int
	// Listed is the length of the answer's list.
	Listed int64
	// Again says the request asked for a page past the last and the answer is the last page
	// again, its current_page saying so: what a page past the last answers is not shown, and
	// this is one way a deployment may answer it.
	Again bool
}

// integer reads a JSON integer as written ("15", not "15.0" or "1.5e1"); nil for anything else.
func integer(raw []byte) *big.Int {
	n, ok := new(big.Int).SetString(string(bytes.TrimSpace(raw)), 10)
	if !ok {
		return nil
	}
	return n
}

// ReadPage reads the page an answer holds. ok is false when the answer has no pagination object
// of four integers beside one list (another rule, DATA-1 or DOC-1, judges that).
func ReadPage(reqBody, body []byte) (p Page, ok bool) {
	if !bytes.Contains(body, []byte(`"pagination"`)) { // most answers: no decoding
		return p, false
	}
	p.Asked, p.PerPageAsked = new(big.Int), new(big.Int)
	var req struct {
		Page    json.RawMessage `json:"page"`
		PerPage json.RawMessage `json:"per_page"`
	}
	if json.Unmarshal(reqBody, &req) == nil {
		if n := integer(req.Page); n != nil {
			p.Asked = n
		}
		if n := integer(req.PerPage); n != nil {
			p.PerPageAsked = n
		}
	}
	var answer struct {
		Data map[string]json.RawMessage `json:"data"`
	}
	if decodeNumbers(body, &answer) != nil || answer.Data == nil {
		return p, false
	}
	var pg map[string]json.RawMessage
	if json.Unmarshal(answer.Data["pagination"], &pg) != nil {
		return p, false
	}
	for _, f := range []struct {
		name string
		dst  **big.Int
	}{{"total", &p.Total}, {"per_page", &p.PerPage}, {"current_page", &p.Current}, {"total_pages", &p.TotalPages}} {
		if *f.dst = integer(pg[f.name]); *f.dst == nil { // a number, never a text holding one
			return p, false
		}
	}
	lists := 0
	for key, raw := range answer.Data {
		var list []json.RawMessage
		if key != "pagination" && json.Unmarshal(raw, &list) == nil && list != nil {
			p.Listed, lists = int64(len(list)), lists+1
		}
	}
	if lists != 1 || p.PerPage.Sign() < 1 {
		return p, false
	}
	last := pagesFor(p.Total, p.PerPage) // by the arithmetic, whatever total_pages says
	if last.Sign() < 1 {
		last.SetInt64(1)
	}
	p.Again = p.Asked.Cmp(last) > 0 && p.Current.Cmp(last) == 0
	return p, true
}

// decodeNumbers decodes JSON b into v, numbers as written.
func decodeNumbers(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	return dec.Decode(v)
}

// Pagination judges rule PAGE-1 within one answer: per_page and current_page are the values
// asked for (past the last page, the last page again with current_page saying so is allowed),
// total_pages is total over per_page rounded up (0 or 1 for nothing), and the page lists
// per_page entries, or what is left on the last page, or none past it.
func Pagination(p Page) []Violation {
	var vs []Violation
	broken := func(format string, args ...any) {
		vs = append(vs, Violation{Rule: rules.PAGE1, Detail: fmt.Sprintf(format, args...)})
	}
	if p.PerPageAsked.Sign() > 0 && p.PerPage.Cmp(p.PerPageAsked) != 0 {
		broken("per_page is %d, the request asked for %d", p.PerPage, p.PerPageAsked)
	}
	if p.Asked.Sign() > 0 && p.Current.Cmp(p.Asked) != 0 && !p.Again {
		broken("current_page is %d, the request asked for page %d", p.Current, p.Asked)
	}
	want := pagesFor(p.Total, p.PerPage)
	if p.TotalPages.Cmp(want) != 0 && !(p.Total.Sign() == 0 && p.TotalPages.Cmp(big.NewInt(1)) <= 0) {
		broken("total_pages is %d; total %d over per_page %d, rounded up, is %d", p.TotalPages, p.Total, p.PerPage, want)
	}
	shown := p.Current
	if p.Asked.Sign() > 0 && !p.Again {
		shown = p.Asked
	}
	if wantLen := onPage(p.Total, p.PerPage, shown); big.NewInt(p.Listed).Cmp(wantLen) != 0 {
		broken("page %d of %d entries at per_page %d lists %d, want %d", shown, p.Total, p.PerPage, p.Listed, wantLen)
	}
	return vs
}

// pagesFor is total entries over per a page, rounded up (per ≥ 1).
func pagesFor(total, per *big.Int) *big.Int {
	pages, rem := new(big.Int).QuoRem(total, per, new(big.Int))
	if rem.Sign() > 0 {
		pages.Add(pages, big.NewInt(1))
	}
	return pages
}

// onPage is how many of total entries page shown lists at per a page (per ≥ 1): per, what is
// left on the last page, or none past it. In big integers: (shown-1)*per of a page far past the
// end passes the int64 range, and wrapped around to a page that should list entries.
func onPage(total, per, shown *big.Int) *big.Int {
	skipped := new(big.Int)
	if shown.Sign() > 0 { // no page asked for and none said: read as the first
		skipped.Mul(new(big.Int).Sub(shown, big.NewInt(1)), per)
	}
	left := new(big.Int).Sub(total, skipped)
	switch {
	case left.Sign() <= 0:
		return new(big.Int)
	case left.Cmp(per) >= 0:
		return new(big.Int).Set(per)
	}
	return left
}
