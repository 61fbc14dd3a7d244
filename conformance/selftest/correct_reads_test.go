package selftest_test

import (
	"fmt"
	"net/http"
	"strconv"
	"sync"
)

// ownReads counts, per mock and caller, the comments/list reads newestFirst makes on its own in
// the mock's current window, so that its answers' X-RateLimit-Remaining count the caller's
// requests only (one each, LIMIT-4), not the variant's reads behind them. Per mock: the suite's
// and explore's runs of one variant go on at once against mocks of the same users.
type ownReads struct {
	sync.Mutex
	extra map[string]int64 // caller -> the variant's reads in the mock's window
	last  map[string]int64 // caller -> the mock's Remaining on the last answer seen
	batch map[string]int64 // caller -> reads of the request being answered
}

var own = &ownReads{extra: map[string]int64{}, last: map[string]int64{}, batch: map[string]int64{}}

func headerNum(h http.Header, name string) (int64, bool) {
	n, err := strconv.ParseInt(h.Get(name), 10, 64)
	return n, err == nil
}

// countOnlyTheCallers rewrites the answer's Remaining to leave out the variant's own reads.
func (o *ownReads) countOnlyTheCallers(x *xchg) {
	rem, ok := headerNum(x.a.header, "X-RateLimit-Remaining")
	limit, okLimit := headerNum(x.a.header, "X-RateLimit-Limit")
	if x.caller == "" || !ok || !okLimit {
		return
	}
	who := readerOf(x)
	o.Lock()
	defer o.Unlock()
	if last, seen := o.last[who]; !seen || rem > last {
		o.extra[who] = 0 // the mock's window began again
	}
	o.last[who] = rem
	x.a.header.Set("X-RateLimit-Remaining", strconv.FormatInt(min(limit, rem+o.extra[who]), 10))
}

// readerOf is the key of x's caller at x's mock.
func readerOf(x *xchg) string { return fmt.Sprintf("%p %s", x.m, x.caller) }

// read notes one of the variant's own reads for x and the mock's Remaining after it.
func (o *ownReads) read(x *xchg, a *answer) {
	if rem, ok := headerNum(a.header, "X-RateLimit-Remaining"); ok && x.caller != "" {
		o.Lock()
		o.last[readerOf(x)] = rem
		o.batch[readerOf(x)]++
		o.Unlock()
	}
}

// spent adds the reads behind the answer of x to the caller's count.
func (o *ownReads) spent(x *xchg) {
	who := readerOf(x)
	o.Lock()
	o.extra[who] += o.batch[who]
	o.batch[who] = 0
	o.Unlock()
}
