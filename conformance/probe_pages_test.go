package conformance_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/check"
	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// pageSizes are the per_page values walked for an odd and an even number of comments, and for
// one more than the largest page the interface allows (per_page max 100), so a deployment that
// caps pages below 100 (at a default of 15 or 20, say) shows it.
var pageSizes = map[int][]int64{7: {1, 2, 3, 7, 10}, 8: {3, 5, 8, 100}, 101: {100, 50}}

// The pagination of comments/list as a whole (rule PAGE-1): on a card of its own with 7, then
// 8, then 101 comments, every page of several per_page values is read; the pages together are
// the whole list, with no gap and no overlap.
var _ = Describe("Probes: pagination as a whole", func() {
	op := OpCommentsList
	probeContext(op, func() {
		// Rule PAGE-1.
		It("pages 7, 8 and 101 comments into ceil(total/per_page) pages that together are the whole list", Writes(Probed(Contract(op, AspectEnvelope, "PAGE-1"), ProbePages)), func(ctx SpecContext) {
			By("creating a card of the member's own for the comments")
			c := sendCtx(ctx, Request{Op: OpCardsCreate, As: member.String(), Token: token(member, OpCardsCreate), Body: map[string]any{"title": unique("Pagination probe")}})
			expectSuccess(c)
			card, ok := c.Int("data.card.id")
			if !ok {
				Skip("cards/create answered no data.card.id, so the suite has no card of its own to comment on")
			}
			added := 0
			for _, n := range []int{7, 8, 101} {
				By(fmt.Sprintf("adding comments up to %d", n))
				for ; added < n; added++ {
					comment := func() *Exchange {
						return sendCtx(ctx, Request{Op: OpCommentsCreate, As: member.String(), Token: token(member, OpCommentsCreate),
							Body: map[string]any{"card_id": card, "comment": unique(fmt.Sprintf("Comment %d", added+1))}})
					}
					if added == 0 { // the card was created a moment ago (ERR-8)
						expectSuccess(finding(ctx, comment))
						continue
					}
					expectSuccess(comment())
				}
				commentsCounted(ctx, card, int64(n))
				whole := commentPage(ctx, card, 1, 100, int64(n))
				if n > 100 {
					whole = append(whole, commentPage(ctx, card, 2, 100, int64(n))...)
				}
				Expect(whole).To(HaveLen(n), "%s: per_page 100 lists all %d comments, 100 a page", Cite(rules.PAGE1), n)
				for _, per := range pageSizes[n] {
					walkPages(ctx, card, int64(n), per, whole)
				}
			}
		})
	})
})

// commentsCounted reads card's comment list until its total reaches n, for at most
// cfg.PushWait: a list read from a replica may show new comments a little later (D210). The
// pages are then judged against n.
func commentsCounted(ctx context.Context, card, n int64) {
	GinkgoHelper()
	for deadline := time.Now().Add(cfg.PushWait); time.Now().Before(deadline); time.Sleep(250 * time.Millisecond) {
		ex := sendCtx(ctx, Request{Op: OpCommentsList, As: member.String(), Token: token(member, OpCommentsList),
			Body: map[string]any{"card_id": card, "page": 1, "per_page": 1}})
		if total, ok := ex.Int("data.pagination.total"); !ok || total >= n {
			return
		}
	}
}

// walkPages reads every page of card's n comments at per_page per, and one past the end.
func walkPages(ctx context.Context, card, n, per int64, whole []string) {
	GinkgoHelper()
	By(fmt.Sprintf("reading %d comments %d a page", n, per))
	pages := (n + per - 1) / per
	var got []string
	for page := int64(1); page <= pages+1; page++ {
		got = append(got, commentPage(ctx, card, page, per, n)...)
	}
	sort.Strings(got)
	want := append([]string{}, whole...)
	sort.Strings(want)
	Expect(got).To(Equal(want), "%s: the pages of %d comments at per_page %d together are the whole list, each comment once", Cite(rules.PAGE1), n, per)
}

// commentPage reads one page and checks its pagination object and its length against n
// comments; it returns the page's comments, each as its JSON text. A page that still counts
// fewer is read again for up to cfg.PushWait: a deployment may cache each query of a list on
// its own (by card, page and per_page), so that one query counting the new comments says
// nothing of another's freshness (D210).
func commentPage(ctx context.Context, card, page, per, n int64) []string {
	GinkgoHelper()
	read := func() *Exchange {
		return sendCtx(ctx, Request{Op: OpCommentsList, As: member.String(), Token: token(member, OpCommentsList),
			Body: map[string]any{"card_id": card, "page": page, "per_page": per}})
	}
	ex := read()
	for deadline := time.Now().Add(cfg.PushWait); ex.Status == 200 && time.Now().Before(deadline); ex = read() {
		if total, ok := ex.Int("data.pagination.total"); !ok || total >= n {
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	pages := (n + per - 1) / per
	last := max(pages, 1)
	if page > last && ex.Status >= 400 && ex.Status < 500 && ex.StatusListed() {
		return nil // past the last page: what is answered is not shown; a listed refusal lists nothing
	}
	Expect(ex).To(HaveStatus(200), Cite(rules.DATA1))
	Expect(ex).To(HaveJSON("data.pagination.total", fmt.Sprint(n), eqNum(n)), "%s: page %d of %d comments at per_page %d", Cite(rules.PAGE1), page, n, per)
	Expect(ex).To(KeepTheContract(), "%s: page %d of %d comments at per_page %d", Cite(rules.PAGE1), page, n, per)
	if p, _ := check.ReadPage(ex.ReqBody, ex.Body); p.Again {
		return nil // past the last page, the last page again: already read
	}
	v, _ := ex.Get("data.comments")
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, e := range list {
		b, _ := json.Marshal(e)
		out = append(out, string(b))
	}
	return out
}
