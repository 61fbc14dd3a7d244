package conformance

import (
	"context"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// An answer nested past what JSON readers read is read and judged as the proxy reads it, by its
// upper levels: a sound list with a deep extra member is read and passes (the suite failed it
// as "not JSON"), a deep data breaks DOC-1 as the proxy says; and a failure message shows a
// deeply nested answer as it came (indented, 20 KB nested 9999 deep became 200 MB of spaces,
// and 11 s a failing spec), saying when it was cut.
func TestDeepAnswersAreReadAsTheProxyReadsThem(t *testing.T) {
	ctx := context.Background()
	nest := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	for _, c := range []struct {
		data   string
		broken []rules.ID
		cut    bool
	}{
		{`{"tags":[],"extra":` + nest(10001) + `}`, nil, true},
		{nest(10001), []rules.ID{rules.DOC1}, true},
		{nest(9999), []rules.ID{rules.DOC1}, false},
	} {
		cl, err := NewClient(ctx, answering(t, c.data), Config{Timeout: 30e9})
		if err != nil {
			t.Fatal(err)
		}
		ex, err := cl.Send(ctx, Request{Op: OpTagsList, Token: "member-token"})
		if err != nil {
			t.Fatal(err)
		}
		var got []rules.ID
		for _, v := range ex.Violations {
			got = append(got, v.Rule)
		}
		if len(got) != len(c.broken) || (len(got) > 0 && got[0] != c.broken[0]) || ex.JSON == nil {
			t.Errorf("data %.40s…: rules %v (JSON read: %v), want %v and the body read", c.data, got, ex.JSONErr, c.broken)
		}
		d := ex.Describe()
		if noted := strings.Contains(d, "deeper than JSON readers read"); len(d) > 8000 || strings.Contains(d, "[\n") || noted != c.cut {
			t.Errorf("data %.40s…: the failure message is %d bytes, indented %v, notes the cut %v; want it short, unindented, noting the cut only when cut (%v)",
				c.data, len(d), strings.Contains(d, "[\n"), noted, c.cut)
		}
	}
}
