package check

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// Page is what one paginated answer says of itself (rule PAGE-1), read from its `pagination`
// object and the list beside it in `data`.
type Page struct {
	// Asked and PerPageAsked are the request's page and per_page, 0 when it did not give them.
	Asked, PerPageAsked int64
	// Total, PerPage, Current and TotalPages are the answer's pagination object.
	Total, PerPage, Current, TotalPages int64
	// Listed is the length of the answer's list.
	Listed int64
	// Again says the request asked for a page past the last and the answer is the last page
	// again, its current_page saying so: what a page past the last answers is not shown, and
	// this is one way a deployment may answer it.
	Again bool
}

// ReadPage reads the page an answer holds. ok is false when the answer has no pagination object
// of four integers beside one list (another rule, DATA-1 or DOC-1, judges that).
func ReadPage(reqBody, body []byte) (p Page, ok bool) {
	if !bytes.Contains(body, []byte(`"pagination"`)) { // most answers: no decoding
		return p, false
	}
	var req struct {
		Page    json.Number `json:"page"`
		PerPage json.Number `json:"per_page"`
	}
	if decodeNumbers(reqBody, &req) == nil {
		p.Asked, _ = req.Page.Int64()
		p.PerPageAsked, _ = req.PerPage.Int64()
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
		dst  *int64
	}{{"total", &p.Total}, {"per_page", &p.PerPage}, {"current_page", &p.Current}, {"total_pages", &p.TotalPages}} {
		raw := bytes.TrimSpace(pg[f.name])
		if len(raw) == 0 || raw[0] == '"' { // a number, never a text holding one
			return p, false
		}
		v, err := json.Number(raw).Int64()
		if err != nil {
			return p, false
		}
		*f.dst = v
	}
	lists := 0
	for key, raw := range answer.Data {
		var list []json.RawMessage
		if key != "pagination" && json.Unmarshal(raw, &list) == nil && list != nil {
			p.Listed, lists = int64(len(list)), lists+1
		}
	}
	if lists != 1 || p.PerPage < 1 {
		return p, false
	}
	last := max(pagesFor(p.Total, p.PerPage), 1) // by the arithmetic, whatever total_pages says
	p.Again = p.Asked > last && p.Current == last
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
		vs = append(vs, Violation{rules.PAGE1, fmt.Sprintf(format, args...)})
	}
	if p.PerPageAsked > 0 && p.PerPage != p.PerPageAsked {
		broken("per_page is %d, the request asked for %d", p.PerPage, p.PerPageAsked)
	}
	if p.Asked > 0 && p.Current != p.Asked && !p.Again {
		broken("current_page is %d, the request asked for page %d", p.Current, p.Asked)
	}
	want := pagesFor(p.Total, p.PerPage)
	if p.TotalPages != want && !(p.Total == 0 && p.TotalPages <= 1) {
		broken("total_pages is %d; total %d over per_page %d, rounded up, is %d", p.TotalPages, p.Total, p.PerPage, want)
	}
	shown := p.Current
	if p.Asked > 0 {
		shown = p.Asked
		if p.Again {
			shown = p.Current
		}
	}
	if wantLen := onPage(p.Total, p.PerPage, shown); p.Listed != wantLen {
		broken("page %d of %d entries at per_page %d lists %d, want %d", shown, p.Total, p.PerPage, p.Listed, wantLen)
	}
	return vs
}

// pagesFor is total entries over per a page, rounded up (per ≥ 1), without total+per-1
// overflowing: pages of the largest totals are judged too.
func pagesFor(total, per int64) int64 {
	pages := total / per
	if total%per > 0 {
		pages++
	}
	return pages
}

// onPage is how many of total entries page shown lists at per a page (per ≥ 1): per, what is
// left on the last page, or none past it. Worked in big integers: (shown-1)*per of a page far
// past the end passes the int64 range, and wrapped around to a page that should list entries.
func onPage(total, per, shown int64) int64 {
	skipped := new(big.Int).Mul(big.NewInt(shown-1), big.NewInt(per))
	if shown < 1 { // no page asked for and none said: read as the first
		skipped.SetInt64(0)
	}
	left := new(big.Int).Sub(big.NewInt(total), skipped)
	switch {
	case left.Sign() <= 0:
		return 0
	case left.Cmp(big.NewInt(per)) >= 0:
		return per
	}
	return left.Int64()
}
