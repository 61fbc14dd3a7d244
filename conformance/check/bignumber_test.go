package check_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance/check"
	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// A number past float64's range (1e400, or an id of thousands of digits) is what a hostile
// client or upstream sends to see how the checker words it: kin-openapi reads numbers as
// float64 and said "cannot convert json.Number to float64", Go's words, quoting nothing of the
// value. The verdict stays (REQ-1, DOC-1); the detail says what the number is, clipped.
func TestNumbersPastFloat64AreWordedInOurTerms(t *testing.T) {
	long := "1" + strings.Repeat("0", 100000)
	h := http.Header{"Content-Type": {"application/json"}}
	o := op(t, "cardsCreate")
	for _, tt := range []struct{ num, want string }{
		{"1e400", "group_id: holds the number 1e400, past the largest a JSON reader keeps (about 1.8e308)"},
		{"-1e400", "group_id: holds the number -1e400, past the lowest a JSON reader keeps (about -1.8e308)"},
		{long, "group_id: holds the number 1000000000"},
	} {
		vs, broken := check.Request(context.Background(), o, h, []byte(`{"title":"t","group_id":`+tt.num+`}`))
		if len(vs) != 1 || vs[0].Rule != rules.REQ1 || !slices.Equal(broken, []string{"group_id"}) {
			t.Errorf("request with group_id %.20s: %.300v, broken %v; want one REQ-1 breaking group_id", tt.num, vs, broken)
			continue
		}
		assertWorded(t, vs[0].Detail, tt.want)
	}

	for _, tt := range []struct{ num, want string }{
		{"1e400", "/data/card/id: holds the number 1e400, past the largest a JSON reader keeps (about 1.8e308)"},
		{long, "/data/card/id: holds the number 1000000000"},
	} {
		ex := check.Exchange{Op: o, ReqHeader: h, ReqBody: []byte(`{"title":"t","group_id":1}`), Status: http.StatusOK,
			Header: http.Header{"Content-Type": {"application/json"}, "X-Ratelimit-Limit": {"60"}, "X-Ratelimit-Remaining": {"59"}},
			Body:   []byte(`{"error":false,"message":"ok","data":{"card":{"id":` + tt.num + `}}}`)}
		vs := check.Answer(context.Background(), ex)
		if len(vs) != 1 || vs[0].Rule != rules.DOC1 {
			t.Errorf("answer with id %.20s: %.300v; want one DOC-1", tt.num, vs)
			continue
		}
		assertWorded(t, vs[0].Detail, tt.want)
		judged := check.Judge(context.Background(), ex)
		if i := slices.IndexFunc(judged, func(v check.Violation) bool { return v.Rule == rules.DOC1 }); i < 0 || judged[i].Detail != vs[0].Detail {
			t.Errorf("Judge of the answer with id %.20s: %.300v; want Answer's DOC-1", tt.num, judged)
		}
	}
}

// assertWorded fails unless detail holds want, names no Go type, and quotes no long literal whole.
func assertWorded(t *testing.T, detail, want string) {
	t.Helper()
	if !strings.Contains(detail, want) {
		t.Errorf("detail %.300q; want it to hold %q", detail, want)
	}
	if strings.Contains(detail, "json.Number") || strings.Contains(detail, "float64") {
		t.Errorf("detail %.300q names Go's types", detail)
	}
	if len(detail) > 1000 || strings.Contains(detail, strings.Repeat("0", 100)) {
		t.Errorf("detail of %d bytes quotes the number whole: %.300q", len(detail), detail)
	}
}

// One problem is worded once in a detail: a pagination total of 1.5 fails the schema twice in
// kin-openapi's eyes (the integer type, on two paths of its search), and the detail said so twice.
func TestADetailNamesEachProblemOnce(t *testing.T) {
	ex := check.Exchange{Op: op(t, "commentsList"), ReqHeader: http.Header{"Content-Type": {"application/json"}}, ReqBody: []byte(`{"card_id":1}`), Status: http.StatusOK,
		Header: http.Header{"Content-Type": {"application/json"}, "X-Ratelimit-Limit": {"60"}, "X-Ratelimit-Remaining": {"59"}},
		Body:   []byte(`{"error":false,"message":"x","data":{"comments":[],"pagination":{"total":1.5,"per_page":15,"current_page":1,"total_pages":1}}}`)}
	vs := check.Answer(context.Background(), ex)
	if len(vs) != 1 {
		t.Fatalf("violations %v, want one DOC-1", vs)
	}
	if d := vs[0].Detail; strings.Count(d, "/data/pagination/total: value must be an integer") != 1 {
		t.Errorf("detail %q, want the problem named once", d)
	}
}
